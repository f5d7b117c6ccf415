import { Link } from 'react-router';
import { formatLongDate, userFacingState } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useCurrentSubscription, useToday } from '../use-subscription.ts';

/** SPEC §2 /abonnement-avsluttet: the cancellation is registered; when access ends; undo. */
export function SubscriptionCancelledPage() {
  const subscription = useCurrentSubscription();
  const today = useToday();
  if (!subscription) return null;
  const state = userFacingState(subscription, today);
  const end = formatLongDate(subscription.currentPeriodEnd);

  if (state !== 'cancelled') {
    return (
      <Page title={pages.subscriptionCancelled.title}>
        <section className={`${ui.panelAccent} ${ui.narrow}`}>
          <p className={ui.text}>{state === 'expired' ? `Abonnementet ditt utløp ${end}.` : 'Abonnementet ditt er ikke sagt opp.'}</p>
          <div className={ui.actions}>
            <Link className={`${button.button} ${button.primary}`} to={pathTo('home')}>
              Til Min Side
            </Link>
          </div>
        </section>
      </Page>
    );
  }

  return (
    <Page title={pages.subscriptionCancelled.title} lead={`${subscription.planName} løper ut ${end}. Takk for at du har lest oss!`}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        <p className={ui.success} role="status">
          Oppsigelsen er registrert. Du har tilgang som før til og med {end}, og du betaler ikke mer etter det.
        </p>
        <section className={ui.panel} aria-labelledby="ombestemt">
          <h2 id="ombestemt" className={ui.panelHeading}>
            Ombestemt deg?
          </h2>
          <p className={ui.text}>Du kan angre oppsigelsen fram til {end}. Da fortsetter abonnementet som før.</p>
          <div className={ui.actions}>
            <Link className={`${button.button} ${button.secondary}`} to={pathTo('undoCancellation')}>
              Angre oppsigelse
            </Link>
            <Link className={`${button.button} ${button.primary}`} to={pathTo('home')}>
              Til Min Side
            </Link>
          </div>
        </section>
      </div>
    </Page>
  );
}
