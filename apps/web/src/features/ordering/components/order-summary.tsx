import {
  billingPeriodLabels,
  formatKroner,
  firstPeriodOf,
  formatLongDate,
  orderPriceTerms,
  osloToday,
  regularPriceText,
  type BillingPeriod,
  type DeliveryAddress,
  type OrderQuote,
  type PriceOutlook,
  systemClock,
} from '@minside/domain';
import styles from './ordering.module.css';

export interface OrderSummaryProps {
  planName: string;
  billingPeriod: string;
  quote: OrderQuote;
  deliveryAddress: DeliveryAddress | DeliveryAddressDraft | null;
  paperStartsOn: string | null;
  /** The day the subscription started (receipt); else today (summary before paying). */
  startedOn?: string | null;
  /** The price when the later periods begin, with an announced change still to come (domain `priceOutlook`; the plan is known before paying). */
  later?: PriceOutlook;
}

interface DeliveryAddressDraft {
  name: string;
  street: string;
  streetNumber: string;
  postalCode: string;
  town?: string;
}

const months = (count: number) => (count === 1 ? '1 måned' : `${count} måneder`);

/** What is bought and what it costs now and later, in whole kroner (the summary step and the receipt). */
export function OrderSummary({ planName, billingPeriod, quote, deliveryAddress, paperStartsOn, startedOn, later }: OrderSummaryProps) {
  const start = startedOn ?? osloToday(systemClock());
  // The same terms the subscription records and the home page shows (issue 25.1, price-terms.ts).
  const terms = orderPriceTerms(quote, billingPeriod, start);
  // The next period starts when the first one ends, with or without an offer (firstPeriodOf).
  const laterFrom = firstPeriodOf(start, quote).periodEnd;
  return (
    <dl className={styles.summary}>
      <dt>Abonnement</dt>
      <dd>
        {planName}, {billingPeriodLabels[billingPeriod as BillingPeriod]?.toLowerCase() ?? billingPeriod}
      </dd>
      {quote.offerLabel ? (
        <>
          <dt>Tilbud</dt>
          <dd>{quote.offerLabel}</dd>
        </>
      ) : null}
      <dt>{startedOn ? 'Betalt' : 'Å betale nå'}</dt>
      <dd>
        <span className={styles.price}>{formatKroner(quote.amountNowOre)}</span> for {months(quote.firstPeriodMonths)}
      </dd>
      <dt>Deretter</dt>
      <dd>
        {regularPriceText(later?.priceOre ?? terms.priceOre, billingPeriod)} fra {formatLongDate(laterFrom)}
      </dd>
      {later?.then ? (
        <>
          <dt>Ny pris</dt>
          <dd>
            {regularPriceText(later.then.priceOre, billingPeriod)} fra {formatLongDate(later.then.from)} (varslet prisendring)
          </dd>
        </>
      ) : null}
      {paperStartsOn ? (
        <>
          <dt>Papiravisen kommer fra</dt>
          <dd>{formatLongDate(paperStartsOn)}</dd>
        </>
      ) : null}
      {deliveryAddress ? (
        <>
          <dt>Leveringsadresse</dt>
          <dd>
            {deliveryAddress.name}, {deliveryAddress.street} {deliveryAddress.streetNumber}, {deliveryAddress.postalCode} {deliveryAddress.town ?? ''}
          </dd>
        </>
      ) : null}
    </dl>
  );
}
