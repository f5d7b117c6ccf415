import { invoiceStatusLabels, type InvoiceStatus } from '@minside/domain';
import { Badge, type BadgeTone } from '../../../components/badge.tsx';

const tone: Record<InvoiceStatus, BadgeTone> = { PAID: 'positive', UNPAID: 'warning', OVERDUE: 'negative' };

/** Betalt / Ikke betalt / Forfalt, as a small coloured label (the colour is never the only sign: the word is there). */
export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return <Badge tone={tone[status]}>{invoiceStatusLabels[status]}</Badge>;
}
