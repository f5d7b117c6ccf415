import { Link } from 'react-router';
import { formatLongDate, userFacingState } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import { ReactivateButton } from '../components/reactivate-button.tsx';
import ui from '../../../components/ui.module.css';
import { priceLabel } from '../labels.ts';
import { useCurrentSubscription, useToday } from '../use-subscription.ts';

/** SPEC §2 /abonnement-reaktivert: the subscription is running again. */
export function SubscriptionReactivatedPage() {
  const subscription = useCurrentSubscription();
  const today = useToday();
  if (!subscription) return null;
  const state = userFacingState(subscription, today);
  if (state === 'expired') {
    return (
      <Page title={pages.subscriptionReactivated.title} lead={`Abonnementet ditt utløp ${formatLongDate(subscription.currentPeriodEnd)}. Vil du starte det igjen?`}>
        <section className={`${ui.panelAccent} ${ui.narrow}`}>
          <ReactivateButton subscription={subscription} />
        </section>
      </Page>
    );
  }
  return (
    <Page title={pages.subscriptionReactivated.title} lead="Velkommen tilbake!">
      <div className={`${ui.stack} ${ui.narrow}`}>
        <p className={ui.success} role="status">
          {subscription.planName} er i gang igjen. Du har tilgang til alt med en gang.
        </p>
        <section className={ui.panel} aria-labelledby="detaljer">
          <h2 id="detaljer" className={ui.panelHeading}>
            Dette gjelder nå
          </h2>
          <dl className={ui.facts}>
            <div className={ui.fact}>
              <dt>Pris</dt>
              <dd>{priceLabel(subscription.priceOre, subscription.billingPeriod)}</dd>
            </div>
            <div className={ui.fact}>
              <dt>Neste fornyelse</dt>
              <dd>{formatLongDate(subscription.currentPeriodEnd)}</dd>
            </div>
          </dl>
          <div className={ui.actions}>
            <Link className={`${button.button} ${button.primary}`} to={pathTo('home')}>
              Til Min Side
            </Link>
            <Link className={`${button.button} ${button.secondary}`} to={pathTo('myContent')}>
              Mitt innhold
            </Link>
          </div>
        </section>
      </div>
    </Page>
  );
}
