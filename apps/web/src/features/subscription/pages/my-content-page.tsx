import { Link } from '../../../lib/router/index.ts';
import { hasAccess, userFacingState } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import { Page } from '../../../components/page.tsx';
import button from '../../../components/button.module.css';
import { useTitle } from '../../titles/index.ts';
import { ReactivateButton } from '../components/reactivate-button.tsx';
import ui from '../../../components/ui.module.css';
import { contentLinks } from '../content-links.ts';
import { useCurrentSubscription, useToday } from '../use-subscription.ts';
import styles from './my-content-page.module.css';

/** SPEC §2 /mitt-innhold: links to everything the subscription gives access to. */
export function MyContentPage() {
  const subscription = useCurrentSubscription();
  const title = useTitle();
  const today = useToday();
  if (!subscription) return null;
  if (userFacingState(subscription, today) === 'expired' || !hasAccess(subscription)) {
    return (
      <Page title={pages.myContent.title} lead="Abonnementet ditt har utløpt, så du har ikke tilgang til innholdet nå.">
        <section className={`${ui.panelAccent} ${ui.narrow}`}>
          <ReactivateButton subscription={subscription} />
        </section>
      </Page>
    );
  }
  const links = contentLinks(subscription.features, title, subscription.eligibleForSharing && !subscription.sharedFrom);
  return (
    <Page title={pages.myContent.title} lead={`Dette får du med ${subscription.planName}. Husk å være logget inn med samme bruker.`}>
      <ul className={styles.grid}>
        {links.map((link) => (
          <li key={link.key} className={styles.item}>
            <h2 className={styles.heading}>{link.title}</h2>
            <p className={ui.muted}>{link.text}</p>
            {link.internal ? (
              <Link className={`${button.button} ${button.secondary} ${button.small}`} to={link.href}>
                {link.action}
              </Link>
            ) : (
              <a className={`${button.button} ${button.primary} ${button.small}`} href={link.href}>
                {link.action}
              </a>
            )}
          </li>
        ))}
      </ul>
    </Page>
  );
}
