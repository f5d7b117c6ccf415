import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { paymentReference, type Payment } from '@minside/domain';
import { PaymentOutcomePanel } from './payment-outcome-panel.tsx';

// Issue 25.13: the receipt names the payment by a short human reference, not its UUID, and its time
// in the house style ("21.11.2026 kl. 13.40").

const paymentId = '3f2a9c1e-7b44-4d2e-9f0a-1c2b3d4e5f60';
const captured: Payment = {
  paymentId,
  reference: paymentReference(paymentId),
  status: 'CAPTURED',
  purpose: 'INVOICE',
  ariaInvoiceNo: 90_000_100,
  amountOre: 64_900,
  method: 'VIPPS',
  message: 'Betalingen er gjennomført. Takk!',
  errorCode: null,
  createdAt: '2026-11-21T12:39:00Z',
  settledAt: '2026-11-21T12:40:00Z',
};

afterEach(cleanup);

describe('the receipt', () => {
  it('shows the short reference and the Oslo time with a full stop, never the UUID', () => {
    render(<PaymentOutcomePanel payment={captured} />);
    const receipt = screen.getByRole('region', { name: 'Kvittering' });
    const reference = within(receipt).getByText('Referanse').nextElementSibling;
    expect(reference?.textContent).toBe(paymentReference(paymentId));
    expect(reference?.textContent).toMatch(/^BET-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(receipt.textContent).not.toContain(paymentId);
    expect(within(receipt).getByText('Tidspunkt').nextElementSibling?.textContent).toBe('21.11.2026 kl. 13.40');
  }, 20_000); // Role queries walk the whole accessibility tree: slow on a loaded machine.
});
