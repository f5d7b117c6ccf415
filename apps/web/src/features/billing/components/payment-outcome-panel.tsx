import { useEffect, useRef, type ReactNode } from 'react';
import { paymentProviderLabels, type Payment } from '@minside/domain';
import ui from '../../../components/ui.module.css';
import { formatInstant, formatKroner, paymentOutcome, type PaymentOutcome } from '../format.ts';
import styles from './payment-outcome-panel.module.css';

const headings: Record<PaymentOutcome, string> = {
  waiting: 'Venter på svar fra betalingstjenesten',
  succeeded: 'Kvittering',
  cancelled: 'Betalingen ble avbrutt',
  failed: 'Betalingen gikk ikke gjennom',
  refunded: 'Betalingen er tilbakebetalt',
};

export interface PaymentOutcomePanelProps {
  payment: Payment;
  /** Heading per outcome, when the flow is not an invoice payment (card or method change). */
  headingFor?: Partial<Record<PaymentOutcome, string>>;
  /** Extra facts on the receipt (KID, invoice). */
  receiptFacts?: { label: string; value: string }[];
  /** Whether the receipt lists amount and method (not for a card registration of 0 kr). */
  showAmount?: boolean;
  /** What can be done next (links, a retry). */
  children?: ReactNode;
}

/**
 * What happened at the provider, as the server knows it: a receipt, or why not and what now.
 * Focus moves to the heading when the outcome is known, so a screen reader hears it first.
 */
export function PaymentOutcomePanel({ payment, headingFor, receiptFacts = [], showAmount = true, children }: PaymentOutcomePanelProps) {
  const outcome = paymentOutcome(payment.status);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (outcome !== 'waiting') heading.current?.focus();
  }, [outcome]);
  const tone = outcome === 'succeeded' ? styles.succeeded : outcome === 'waiting' || outcome === 'refunded' ? styles.waiting : styles.problem;

  return (
    <section className={`${styles.panel} ${tone}`} aria-labelledby="betalingsresultat">
      <h2 id="betalingsresultat" ref={heading} tabIndex={-1} className={styles.heading}>
        {headingFor?.[outcome] ?? headings[outcome]}
      </h2>
      <p className={styles.message} role={outcome === 'cancelled' || outcome === 'failed' ? 'alert' : 'status'}>
        {payment.message}
      </p>
      {outcome === 'succeeded' ? (
        <dl className={ui.facts}>
          {showAmount ? (
            <>
              <div className={ui.fact}>
                <dt>Beløp</dt>
                <dd>{formatKroner(payment.amountOre)}</dd>
              </div>
              <div className={ui.fact}>
                <dt>Betalt med</dt>
                <dd>{paymentProviderLabels[payment.method]}</dd>
              </div>
            </>
          ) : null}
          {receiptFacts.map((fact) => (
            <div key={fact.label} className={ui.fact}>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
          <div className={ui.fact}>
            <dt>Tidspunkt</dt>
            <dd>{formatInstant(payment.settledAt ?? payment.createdAt)}</dd>
          </div>
          <div className={ui.fact}>
            <dt>Referanse</dt>
            <dd className={styles.reference}>{payment.reference}</dd>
          </div>
        </dl>
      ) : null}
      {children ? <div className={ui.actions}>{children}</div> : null}
    </section>
  );
}
