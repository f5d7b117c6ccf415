import type { InvoiceSettlement, InvoiceStatus } from '@minside/domain';
import ui from '../../../components/ui.module.css';
import { formatKroner, formatPeriod, formatShortDate, paidText } from '../format.ts';
import { InvoiceStatusBadge } from './invoice-status-badge.tsx';
import styles from './invoice-details.module.css';

export interface InvoiceDetailsProps {
  invoice: {
    ariaInvoiceNo: number;
    description: string;
    amountOre: number;
    kid: string;
    dueOn: string;
    status: InvoiceStatus;
    periodFrom?: string;
    periodTo?: string;
    bankAccountNumber?: string;
    /** When and how it was paid (the pay-link's details have neither). */
    paidAt?: string | null;
    settledBy?: InvoiceSettlement | null;
  };
}

/** One invoice at a glance: what it is for, the amount, KID and due date, and whether it is paid. */
export function InvoiceDetails({ invoice }: InvoiceDetailsProps) {
  const paid = paidText(invoice);
  return (
    <section className={styles.details} aria-labelledby="fakturaen">
      <div className={styles.top}>
        <div>
          <p className={styles.eyebrow}>Faktura {invoice.ariaInvoiceNo}</p>
          <h2 id="fakturaen" className={styles.heading}>
            {invoice.description}
          </h2>
        </div>
        <InvoiceStatusBadge status={invoice.status} />
      </div>
      <p className={styles.amount}>{formatKroner(invoice.amountOre)}</p>
      {paid ? <p className={styles.paid}>{paid}</p> : null}
      <dl className={ui.facts}>
        {invoice.periodFrom && invoice.periodTo ? (
          <div className={ui.fact}>
            <dt>Periode</dt>
            <dd>{formatPeriod(invoice.periodFrom, invoice.periodTo)}</dd>
          </div>
        ) : null}
        <div className={ui.fact}>
          <dt>Forfallsdato</dt>
          <dd>{formatShortDate(invoice.dueOn)}</dd>
        </div>
        <div className={ui.fact}>
          <dt>KID</dt>
          <dd className={styles.code}>{invoice.kid}</dd>
        </div>
        {invoice.bankAccountNumber ? (
          <div className={ui.fact}>
            <dt>Kontonummer</dt>
            <dd className={styles.code}>{invoice.bankAccountNumber}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
