import { Link } from '../../../lib/router/index.ts';
import { formatLongDate, lastDayWithAccess, userFacingState, type Subscription } from '@minside/domain';
import { pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { priceLabel } from '../labels.ts';
import { ReactivateButton } from './reactivate-button.tsx';
import ui from '../../../components/ui.module.css';

/**
 * What the subscriber can do about the state they are in (SPEC §4): undo or restart a
 * cancellation, see or change a scheduled plan change, or start an expired subscription again.
 */
export function StatePanel({ subscription, today }: { subscription: Subscription; today: string }) {
  const state = userFacingState(subscription, today);
  // The last day with access (issue 25.2): the day before the renewal day that is stored.
  const end = formatLongDate(lastDayWithAccess(subscription.currentPeriodEnd));
  if (subscription.sharedFrom) {
    if (state !== 'expired') return null;
    // The owner's subscription no longer gives access, so neither does the share (ADR 010).
    return (
      <section className={ui.panelAccent} aria-labelledby="tilstand">
        <h2 id="tilstand" className={ui.panelHeading}>
          Delingen er avsluttet
        </h2>
        <p className={ui.text}>
          Abonnementet som {subscription.sharedFrom.ownerName} delte med deg, gir ikke lenger tilgang. Delingen varte til og med {end}. Vil du fortsette å lese, kan du bestille et eget abonnement.
        </p>
        <div className={ui.actions}>
          <Link className={`${button.button} ${button.primary}`} to={pathTo('orderSubscription')}>
            Bestill abonnement
          </Link>
        </div>
      </section>
    );
  }

  if (state === 'cancelled') {
    return (
      <section className={ui.panelAccent} aria-labelledby="tilstand">
        <h2 id="tilstand" className={ui.panelHeading}>
          Abonnementet er sagt opp og løper ut {end}
        </h2>
        <p className={ui.text}>Du har tilgang som før til og med {end}. Ombestemt deg? Angre oppsigelsen, så fortsetter alt som før, eller start på nytt med et annet abonnement.</p>
        <div className={ui.actions}>
          <Link className={`${button.button} ${button.primary}`} to={pathTo('undoCancellation')}>
            Angre oppsigelse
          </Link>
          <Link className={`${button.button} ${button.secondary}`} to={pathTo('changeSubscription')}>
            Start på nytt
          </Link>
        </div>
      </section>
    );
  }

  if (state === 'pendingChange' && subscription.pendingChange) {
    return (
      <section className={ui.panelAccent} aria-labelledby="tilstand">
        <h2 id="tilstand" className={ui.panelHeading}>
          Du bytter til {subscription.pendingChange.planName} {formatLongDate(subscription.pendingChange.on)}
        </h2>
        <p className={ui.text}>Til da har du {subscription.planName} som før. Du kan endre eller angre byttet fram til det skjer.</p>
        <div className={ui.actions}>
          <Link className={`${button.button} ${button.secondary}`} to={pathTo('changeSubscription')}>
            Endre eller angre byttet
          </Link>
        </div>
      </section>
    );
  }

  if (state === 'expired') {
    return (
      <section className={ui.panelAccent} aria-labelledby="tilstand">
        <h2 id="tilstand" className={ui.panelHeading}>
          Vi savner deg! Abonnementet ditt varte til og med {end}
        </h2>
        <p className={ui.text}>
          Start {subscription.planName} igjen i dag for {priceLabel(subscription.priceOre, subscription.billingPeriod)}, så er du tilbake med en gang. Du kan si opp når du vil.
        </p>
        <ReactivateButton subscription={subscription} />
      </section>
    );
  }

  return null;
}
