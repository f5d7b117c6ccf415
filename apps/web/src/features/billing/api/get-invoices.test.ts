import { describe, expect, it } from 'vitest';
import { invoicePdfUrl, invoicesQueryOptions, INVOICES_PER_PAGE } from './get-invoices.ts';

describe('the invoice list, a page at a time', () => {
  it('asks for the next page with the cursor the last one gave, and stops when there is none', () => {
    const options = invoicesQueryOptions(40_000_001);
    const next = (nextBefore: number | null) => options.getNextPageParam({ invoices: [], nextBefore }, [], undefined, []);
    expect(next(80_000_013)).toBe(80_000_013);
    expect(next(null)).toBeUndefined();
    expect(options.initialPageParam).toBeUndefined();
    expect(INVOICES_PER_PAGE).toBe(12);
  });

  it('links each invoice to its PDF under the account', () => {
    expect(invoicePdfUrl({ ariaAccountNo: 40_000_001, ariaInvoiceNo: 80_000_001 })).toBe('/api/invoice/40000001/80000001/pdf');
  });
});
