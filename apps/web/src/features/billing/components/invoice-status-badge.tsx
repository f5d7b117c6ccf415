import { invoiceStatusLabels, type InvoiceSettlement, type InvoiceStatus } from '@minside/domain';
import { Badge, type BadgeTone } from '../../../components/badge.tsx';

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
