import { formatLongDate, lastDayWithAccess, renewalDay, userFacingState } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { ButtonLink, HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import { ReactivateButton } from '../components/reactivate-button.tsx';
import ui from '../../../components/ui.module.css';
import { priceLabel } from '../labels.ts';
import { useCurrentSubscription, useToday } from '../use-subscription.ts';
import { Fact, Facts } from '../../../components/facts.tsx';

/** SPEC §2 /abonnement-reaktivert: the subscription is running again. */
export function SubscriptionReactivatedPage() {
  const subscription = useCurrentSubscription();
  const today = useToday();
  if (!subscription) return null;
  const state = userFacingState(subscription, today);
  if (state === 'expired') {
    return (
      <Page title={pages.subscriptionReactivated.title} lead={`Abonnementet ditt ga tilgang til og med ${formatLongDate(lastDayWithAccess(subscription.currentPeriodEnd))}. Vil du starte det igjen?`}>
        <Panel accent narrow>
          <ReactivateButton subscription={subscription} />
        </Panel>
      </Page>
    );
  }
  return (
    <Page title={pages.subscriptionReactivated.title} lead="Velkommen tilbake!">
      <div className={`${ui.stack} ${ui.narrow}`}>
        <p className={ui.success} role="status">
          {subscription.planName} er i gang igjen. Du har tilgang til alt med en gang.
        </p>
        <Panel
          heading="Dette gjelder nå"
          headingId="detaljer"
          actions={
            <>
              <HomeLink />
              <ButtonLink to={pathTo('myContent')}>Mitt innhold</ButtonLink>
            </>
          }
        >
          <Facts>
            <Fact label="Pris">{priceLabel(subscription.priceOre, subscription.billingPeriod)}</Fact>
            <Fact label="Neste fornyelse">{formatLongDate(renewalDay(subscription.currentPeriodEnd))}</Fact>
          </Facts>
        </Panel>
      </div>
    </Page>
  );
}
