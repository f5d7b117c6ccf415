import { invoiceCollectionText, invoiceGroupOf, invoiceStatusLabels, type Invoice, type InvoiceGroup, type InvoiceSettlement, type InvoiceStatus } from '@minside/domain';
import { Badge, type BadgeTone } from '../../../components/badge.tsx';
import styles from './invoice-list.module.css';

const tone: Record<InvoiceStatus, BadgeTone> = { PAID: 'positive', UNPAID: 'warning', OVERDUE: 'negative' };

/**
 * Betalt / Ikke betalt / Forfalt, as a small coloured label (the colour is never the only sign: the
 * word is there). An invoice settled by a credit note says Kreditert: nothing was paid (issue 23).
 */
export function InvoiceStatusBadge({ status, settledBy, creditedOre = 0 }: { status: InvoiceStatus; settledBy?: InvoiceSettlement | null; creditedOre?: number }) {
  // Settled by a complaint's credit note set off against it: paid, with credit the subscriber had.
  if (status === 'PAID' && settledBy === 'CREDIT') return creditedOre > 0 ? <Badge tone="positive">Betalt</Badge> : <Badge tone="neutral">Kreditert</Badge>;
  return <Badge tone={tone[status]}>{invoiceStatusLabels[status]}</Badge>;
}

/** Only what is past due is alarming (issue 25.6): a coming invoice, drawn by the bank or not, is information. */
const groupTone: Record<InvoiceGroup, BadgeTone> = { PAID: 'positive', UPCOMING: 'info', OVERDUE: 'negative' };

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

type CollectionFields = Pick<Invoice, 'collection' | 'dueOn' | 'scheduledDrawOn' | 'status' | 'settledBy' | 'creditedOre'>;

/** The list's status word of one invoice, as the server decided it (`collection`): Kommende, Forfalt or Betalt (or Kreditert). */
export function InvoiceCollectionBadge({ invoice }: { invoice: CollectionFields }) {
  if (invoice.collection === 'PAID') return <InvoiceStatusBadge status="PAID" settledBy={invoice.settledBy} creditedOre={invoice.creditedOre} />;
  return <Badge tone={groupTone[invoiceGroupOf[invoice.collection]]}>{invoiceCollectionText(invoice).badge}</Badge>;
}

/** What is under way, on the line below the badge: "Trekkes automatisk 5. desember 2026", "Forfaller 20. juli 2027". */
export function InvoiceCollectionDetail({ invoice }: { invoice: CollectionFields }) {
  const { detail } = invoiceCollectionText(invoice);
  return detail ? <span className={styles.collection}>{capitalised(detail)}</span> : null;
}
