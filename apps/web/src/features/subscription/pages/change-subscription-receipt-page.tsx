import { Link, useLocation } from 'react-router';
import { changePlanResponseSchema, formatKroner, formatLongDate, type ChangePlanResponse } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { periodLabel, priceLabel } from '../labels.ts';

/** What /endre-abonnement hands to the receipt (kept in the history entry, so a reload still shows it). */
export interface ReceiptState {
  receipt: ChangePlanResponse;
}

function headline(receipt: ChangePlanResponse): string {
  switch (receipt.quote.kind) {
    case 'upgrade':
      return `Du har byttet til ${receipt.plan.name}`;
    case 'downgrade':
      return `Byttet til ${receipt.plan.name} er bestilt`;
    case 'afterTrial':
      return `${receipt.plan.name} starter etter prøveperioden`;
    case 'current':
      return `Du beholder ${receipt.plan.name}`;
  }
}

/** SPEC §2 /receipt2: the receipt of a plan change. */
export function ChangeSubscriptionReceiptPage() {
  const parsed = changePlanResponseSchema.safeParse((useLocation().state as Partial<ReceiptState> | null)?.receipt);
  if (!parsed.success) {
    return (
      <Page title={pages.changeSubscriptionReceipt.title} lead="Vi finner ingen endring å vise her. Abonnementet ditt og endringsloggen finner du på Min Side.">
        <div className={ui.actions}>
          <Link className={`${button.button} ${button.primary}`} to={pathTo('home')}>
            Til Min Side
          </Link>
        </div>
      </Page>
    );
  }
  const receipt = parsed.data;
  const { quote, plan } = receipt;
  return (
    <Page title={pages.changeSubscriptionReceipt.title} lead={headline(receipt)}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        <section className={ui.panel} aria-labelledby="kvittering">
          <h2 id="kvittering" className={ui.panelHeading}>
            Kvittering
          </h2>
          <dl className={ui.facts}>
            <div className={ui.fact}>
              <dt>Fra</dt>
              <dd>{receipt.fromPlanName}</dd>
            </div>
            <div className={ui.fact}>
              <dt>Til</dt>
              <dd>
                {plan.name}, {periodLabel(plan.billingPeriod).toLowerCase()}
              </dd>
            </div>
            <div className={ui.fact}>
              <dt>Pris</dt>
              <dd>{priceLabel(plan.priceOre, plan.billingPeriod)}</dd>
            </div>
            <div className={ui.fact}>
              <dt>Gjelder fra</dt>
              <dd>{formatLongDate(quote.effectiveOn)}</dd>
            </div>
            {quote.kind === 'upgrade' ? (
              <div className={ui.fact}>
                <dt>Å betale nå</dt>
                <dd>{formatKroner(quote.amountOre)}</dd>
              </div>
            ) : null}
          </dl>
          <p className={ui.muted}>
            {quote.kind === 'upgrade'
              ? `Mellomlegget gjelder de ${quote.daysLeft} dagene som er igjen av perioden du har betalt for, og kommer på neste faktura. Deretter fornyes abonnementet til ny pris ${formatLongDate(receipt.subscription.currentPeriodEnd)}.`
              : quote.kind === 'current'
                ? 'Abonnementet fortsetter som før.'
                : 'Du har det du har i dag fram til da, og betaler ingenting ekstra nå.'}
          </p>
          <div className={ui.actions}>
            <Link className={`${button.button} ${button.primary}`} to={pathTo('home')}>
              Til Min Side
            </Link>
          </div>
        </section>
      </div>
    </Page>
  );
}
