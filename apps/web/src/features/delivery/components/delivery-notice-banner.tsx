import { Link } from '../../../lib/router/index.ts';
import { pathTo } from '../../../app/paths.ts';
import { useDeliveryNotices } from '../api/get-notices.ts';
import { useDeliveryTitle } from '../use-delivery-title.ts';
import styles from './delivery-notice-banner.module.css';

/** The day's delivery notices of the signed-in subscriber's title; none asked for a digital subscription. */
export function useTodaysDeliveryNotices() {
  const { titleCode, isPaper } = useDeliveryTitle();
  return useDeliveryNotices(titleCode, isPaper).data;
}

/**
 * The home page's banner on a day something went wrong on the routes (issue 5 item 6). Shows
 * nothing for digital subscribers, while loading, or when the call fails: the notice is also
 * in the e-mail, so a failed fetch must not cover the page with an error.
 */
export function DeliveryNoticeBanner() {
  const notices = useTodaysDeliveryNotices();
  if (!notices || notices.length === 0) return null;
  return (
    <section className={styles.banner} aria-labelledby="leveringsvarsel">
      <h2 id="leveringsvarsel" className={styles.heading}>
        Om dagens avis
      </h2>
      {notices.map((notice) => (
        <p key={notice.segmentId} className={styles.message}>
          {notice.message}
        </p>
      ))}
      <p className={styles.message}>
        Du trenger ikke melde fra om dette. Kommer ikke avisen i det hele tatt, kan du <Link to={pathTo('deliveryComplaint')}>gi oss beskjed</Link>.
      </p>
    </section>
  );
}
