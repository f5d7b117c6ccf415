import { useLocation } from '../../../lib/router/index.ts';
import { formatKroner, formatLongDate, lastDayWithAccess, renewalDay, userFacingState, type BilledPeriod } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { ButtonLink, HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import { ReactivateButton } from '../components/reactivate-button.tsx';
import ui from '../../../components/ui.module.css';
import { priceLabel } from '../labels.ts';
import { useCurrentSubscription, useToday } from '../use-subscription.ts';
import { Fact, Facts } from '../../../components/facts.tsx';

/** What the reactivation hands to this page (kept in the history entry, so a reload still shows it). */
export interface ReactivatedState {
  invoice: BilledPeriod | null;
}

/** What the new period costs and how it is paid, in one sentence (ADR 006): amount, period, and the draw date of AvtaleGiro. */
const billedText: Record<BilledPeriod['payment'], (amount: string, period: string, dueOn: string) => string> = {
  card: (amount, period) => `Vi trekker ${amount} for perioden ${period} fra betalingskortet ditt.`,
  vipps: (amount, period) => `Vi trekker ${amount} for perioden ${period} fra Vipps-avtalen din.`,
  avtalegiro: (amount, period, dueOn) => `Banken trekker ${amount} for perioden ${period} med AvtaleGiro ${dueOn}.`,
  invoice: (amount, period) => `Du får faktura på ${amount} for perioden ${period}.`,
  settled: (_amount, period) => `Du har ingenting å betale for perioden ${period}.`,
};

/**
 * The new period's invoice from the history entry: POST reactivateSubscription/'s answer, which the
 * server validated (ADR 020), so a shape check is enough (without loading zod on this page). Without
 * one (the page opened directly, an older build) the page says nothing about it.
 */
function invoiceOf(state: unknown): BilledPeriod | null {
  const invoice = (state as Partial<ReactivatedState> | null)?.invoice as Partial<BilledPeriod> | null | undefined;
  const shaped = typeof invoice?.amountOre === 'number' && typeof invoice.periodFrom === 'string' && typeof invoice.periodTo === 'string' && typeof invoice.dueOn === 'string';
  return shaped && typeof invoice.payment === 'string' && Object.hasOwn(billedText, invoice.payment) ? (invoice as BilledPeriod) : null;
}

/** SPEC §2 /abonnement-reaktivert: the subscription is running again. */
export function SubscriptionReactivatedPage() {
  const subscription = useCurrentSubscription();
  const today = useToday();
  const invoice = invoiceOf(useLocation().state);
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
        {invoice && (
          <p className={ui.text}>
            {billedText[invoice.payment](formatKroner(invoice.amountOre), `${formatLongDate(invoice.periodFrom)} – ${formatLongDate(invoice.periodTo)}`, formatLongDate(invoice.dueOn))}
          </p>
        )}
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
