import { addMonths, billingPeriodLabels, formatKroner, formatLongDate, osloToday, type BillingPeriod, type DeliveryAddress, type OrderQuote, type PriceOutlook, systemClock } from '@minside/domain';
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

export interface DeliveryAddressDraft {
  name: string;
  street: string;
  streetNumber: string;
  postalCode: string;
  town?: string;
}

const months = (count: number) => (count === 1 ? '1 måned' : `${count} måneder`);
const perPeriod: Record<string, string> = { MONTH: 'per måned', MONTH_PREMIUM: 'per måned', QUARTER: 'per kvartal', YEAR: 'per år' };

/** What is bought and what it costs now and later, in whole kroner (the summary step and the receipt). */
export function OrderSummary({ planName, billingPeriod, quote, deliveryAddress, paperStartsOn, startedOn, later }: OrderSummaryProps) {
  const start = startedOn ?? osloToday(systemClock());
  const laterFrom = addMonths(start, quote.firstPeriodMonths);
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
        {formatKroner(later?.priceOre ?? quote.priceLaterOre)} {perPeriod[billingPeriod] ?? 'per periode'} fra {formatLongDate(laterFrom)}
      </dd>
      {later?.then ? (
        <>
          <dt>Ny pris</dt>
          <dd>
            {formatKroner(later.then.priceOre)} {perPeriod[billingPeriod] ?? 'per periode'} fra {formatLongDate(later.then.from)} (varslet prisendring)
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
