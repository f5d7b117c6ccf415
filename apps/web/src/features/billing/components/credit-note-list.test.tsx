import { QueryClient, QueryClientProvider } from '../../../lib/query/index.ts';
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CreditNoteList } from './credit-note-list.tsx';

// Issue 23: the account's credit notes on /fakturaoversikt, each with the invoice it credits and its PDF.

function renderList(creditNotes: unknown[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      String(input).endsWith('/invoice/4242/credit-notes')
        ? new Response(JSON.stringify({ creditNotes }), { status: 200, headers: { 'content-type': 'application/json' } })
        : new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } }),
    ),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <CreditNoteList ariaAccountNo={4242} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the credit notes', () => {
  it('lists each with what it credits, its amount with øre, and a link to its PDF', async () => {
    renderList([{ number: 90_000_123, ariaInvoiceNo: 90_000_100, issuedOn: '2026-11-26', amountOre: 1_234_567 }]);
    const section = await screen.findByRole('region', { name: 'Kreditnotaer' });
    const item = within(section).getByRole('listitem');
    expect(item.textContent).toContain('Kreditnota 90000123');
    expect(item.textContent).toContain('Gjelder faktura 90000100 · 26.11.2026');
    expect(item.textContent?.replace(/\u00a0/g, ' ')).toContain('12 345,67 kr');
    const pdf = within(item).getByRole('link');
    expect(pdf.textContent).toBe('PDF av kreditnota 90000123 (åpnes i ny fane)');
    expect(pdf.getAttribute('href')).toBe('/api/invoice/4242/credit-notes/90000123/pdf');
  });

  it('shows nothing for an account without any', async () => {
    const { container } = renderList([]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container.textContent).toBe('');
  });
});
