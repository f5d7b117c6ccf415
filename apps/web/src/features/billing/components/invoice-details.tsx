import type { InvoiceSettlement, InvoiceStatus } from '@minside/domain';
import ui from '../../../components/ui.module.css';
import { formatKroner, formatPeriod, formatShortDate, openText, paidText } from '../format.ts';
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
    /** What has come in and what is open; the AvtaleGiro draw date once the claim is at the bank. */
    paidOre?: number;
    creditedOre?: number;
    openOre?: number;
    avtaleGiroDrawOn?: string | null;
  };
}

/** One invoice at a glance: what it is for, the amount, KID and due date, and whether it is paid. */
export function InvoiceDetails({ invoice }: InvoiceDetailsProps) {
  const paid = paidText(invoice);
  const underWay = openText({
    status: invoice.status,
    paidOre: invoice.paidOre ?? 0,
    creditedOre: invoice.creditedOre ?? 0,
    openOre: invoice.openOre ?? invoice.amountOre,
    avtaleGiroDrawOn: invoice.avtaleGiroDrawOn ?? null,
  });
  return (
    <section className={styles.details} aria-labelledby="fakturaen">
      <div className={styles.top}>
        <div>
          <p className={styles.eyebrow}>Faktura {invoice.ariaInvoiceNo}</p>
          <h2 id="fakturaen" className={styles.heading}>
            {invoice.description}
          </h2>
        </div>
        <InvoiceStatusBadge status={invoice.status} settledBy={invoice.settledBy} creditedOre={invoice.creditedOre ?? 0} />
      </div>
      <p className={styles.amount}>{formatKroner(invoice.amountOre)}</p>
      {paid ? <p className={styles.paid}>{paid}</p> : null}
      {underWay.map((line) => (
        <p key={line} className={styles.paid}>
          {line}
        </p>
      ))}
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
