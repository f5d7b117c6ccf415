import { useLocation } from '../../../lib/router/index.ts';
import { formatKroner, formatLongDate, priceOutlook, renewalDay, type ChangePlanResponse, type PlanChangeKind } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { periodLabel, priceOutlookLabel } from '../labels.ts';
import { Fact, Facts } from '../../../components/facts.tsx';

/** What /endre-abonnement hands to the receipt (kept in the history entry, so a reload still shows it). */
export interface ReceiptState {
  receipt: ChangePlanResponse;
}

/** The receipt's lead per kind of change; a Record so that a new kind cannot be left out. */
const headlines: Record<PlanChangeKind, (planName: string) => string> = {
  upgrade: (planName) => `Du har byttet til ${planName}`,
  downgrade: (planName) => `Byttet til ${planName} er bestilt`,
  afterTrial: (planName) => `${planName} starter etter prøveperioden`,
  current: (planName) => `Du beholder ${planName}`,
};

/**
 * The receipt in the history entry is what POST …/plan answered, which the server validated
 * (ADR 020), so a shape check of what the page shows is enough: it turns away an empty entry or
 * one an older build wrote (an unknown kind, a missing amount), without loading zod on this page.
 */
function receiptOf(state: unknown): ChangePlanResponse | null {
  const receipt = (state as { receipt?: Partial<ChangePlanResponse> } | null)?.receipt;
  const { plan, quote } = receipt ?? {};
  const complete =
    typeof receipt?.fromPlanName === 'string' &&
    typeof plan?.name === 'string' &&
    typeof plan.priceOre === 'number' &&
    typeof plan.billingPeriod === 'string' &&
    typeof quote?.kind === 'string' &&
    Object.hasOwn(headlines, quote.kind) &&
    typeof quote.effectiveOn === 'string' &&
    typeof quote.amountOre === 'number' &&
    typeof quote.daysLeft === 'number' &&
    typeof receipt.subscription?.currentPeriodEnd === 'string';
  return complete ? (receipt as ChangePlanResponse) : null;
}

/** SPEC §2 /receipt2: the receipt of a plan change. */
export function ChangeSubscriptionReceiptPage() {
  const receipt = receiptOf(useLocation().state);
  if (!receipt) {
    return (
      <Page title={pages.changeSubscriptionReceipt.title} lead="Vi finner ingen endring å vise her. Abonnementet ditt og endringsloggen finner du på Min Side.">
        <div className={ui.actions}>
          <HomeLink />
        </div>
      </Page>
    );
  }
  const { quote, plan } = receipt;
  return (
    <Page title={pages.changeSubscriptionReceipt.title} lead={headlines[receipt.quote.kind](receipt.plan.name)}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        <Panel heading="Kvittering" headingId="kvittering" actions={<HomeLink />}>
          <Facts>
            <Fact label="Fra">{receipt.fromPlanName}</Fact>
            <Fact label="Til">
              {plan.name}, {periodLabel(plan.billingPeriod).toLowerCase()}
            </Fact>
            {/* The price from the day the change applies, with an announced change still to come. */}
            <Fact label="Pris">{priceOutlookLabel(priceOutlook(plan, quote.effectiveOn), plan.billingPeriod)}</Fact>
            <Fact label="Gjelder fra">{formatLongDate(quote.effectiveOn)}</Fact>
            {quote.kind === 'upgrade' ? <Fact label="Mellomlegg (på neste faktura)">{formatKroner(quote.amountOre)}</Fact> : null}
          </Facts>
          <p className={ui.muted}>
            {quote.kind === 'upgrade'
              ? `Mellomlegget gjelder de ${quote.daysLeft} dagene som er igjen av perioden du har betalt for, og kommer på neste faktura. Deretter fornyes abonnementet til ny pris ${formatLongDate(renewalDay(receipt.subscription.currentPeriodEnd))}.`
              : quote.kind === 'current'
                ? 'Abonnementet fortsetter som før.'
                : 'Du har det du har i dag fram til da, og betaler ingenting ekstra nå.'}
          </p>
        </Panel>
      </div>
    </Page>
  );
}
