import { Link, useLocation } from 'react-router';
import { tasksFor } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { telHref } from '../../../lib/format.ts';
import { Page } from '../../../components/page.tsx';
import { useSessionUser } from '../../auth/index.ts';
import { DeliveryNoticeBanner } from '../../delivery/index.ts';
import { WithdrawalNotice } from '../../ordering/index.ts';
import { StudentStatusNotice } from '../../student/index.ts';
import { useTitle } from '../../titles/index.ts';
import { ChangeLog } from '../components/change-log.tsx';
import { StatePanel } from '../components/state-panel.tsx';
import { SubscriptionSummary } from '../components/subscription-summary.tsx';
import ui from '../../../components/ui.module.css';
import { taskLinks } from '../labels.ts';
import { useCurrentSubscription, useToday } from '../use-subscription.ts';
import styles from './home-page.module.css';

/** What another page may leave for the home page to say once (accepted offer and the like). */
export interface HomeNotice {
  notice?: string;
}

/** SPEC §2 `/`: the subscription at a glance, what can be done about its state, and shortcuts to every task that applies. */
export function HomePage() {
  const subscription = useCurrentSubscription();
  const user = useSessionUser();
  const title = useTitle();
  const today = useToday();
  const notice = (useLocation().state as HomeNotice | null)?.notice;
  if (!subscription) return null;
  const shortcuts = tasksFor(subscription, today).flatMap((task) => {
    const link = taskLinks[task];
    return link ? [{ task, ...link }] : [];
  });

  return (
    <Page title={pages.home.title} lead={`Hei, ${user?.givenName || user?.displayName || ''}! Her er abonnementet ditt på ${title.name}.`}>
      {notice ? (
        <p className={ui.success} role="status">
          {notice}
        </p>
      ) : null}
      <DeliveryNoticeBanner />
      <StudentStatusNotice subscription={subscription} />
      <div className={styles.overview}>
        <div className={styles.summary}>
          <SubscriptionSummary subscription={subscription} today={today} />
        </div>
        <div className={styles.state}>
          <StatePanel subscription={subscription} today={today} />
          <WithdrawalNotice subscription={subscription} today={today} />
        </div>
        <aside className={styles.help} aria-labelledby="trenger-du-hjelp">
          <h2 id="trenger-du-hjelp" className={ui.panelHeading}>
            Trenger du hjelp?
          </h2>
          <p className={ui.muted}>Kundeservice svarer på telefon og e-post på hverdager.</p>
          <p className={ui.text}>
            <a href={telHref(title.customerCenterPhoneNumber)}>{title.customerCenterPhoneNumber}</a>
            <br />
            <a href={`mailto:${title.customerCenterEmail}`}>{title.customerCenterEmail}</a>
          </p>
          <Link to={pathTo('customerService')}>Vanlige spørsmål og svar</Link>
        </aside>
      </div>

      <section className={styles.shortcuts} aria-labelledby="snarveier">
        <h2 id="snarveier" className={ui.sectionHeading}>
          Snarveier
        </h2>
        <ul className={styles.grid}>
          {shortcuts.map((shortcut) => (
            <li key={shortcut.task}>
              <Link className={shortcut.task === 'cancel' ? `${styles.shortcut} ${styles.quiet}` : styles.shortcut} to={shortcut.to}>
                <span className={styles.shortcutLabel}>{shortcut.label}</span>
                <span className={styles.shortcutText}>{shortcut.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <ChangeLog subscription={subscription} />
    </Page>
  );
}
