import { infiniteQueryOptions, queryOptions } from '../../../lib/query/index.ts';
import { INVOICE_PAGE_MAX, type Invoice, type InvoiceListResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { billingKeys } from './keys.ts';

/** How many invoices one "Vis flere" adds: a year of monthly invoices. */
export const INVOICES_PER_PAGE = 12;

/**
 * GET /api/invoice/{accountNo}: newest first, a page at a time (`before` = the previous page's `nextBefore`).
 * @public typed against the OpenAPI document by apps/server/test/openapi-contract.test.ts, whose
 * generated check imports it (knip cannot see that import).
 */
export function getInvoices(ariaAccountNo: number, page: { before?: number; limit?: number } = {}, signal?: AbortSignal): Promise<InvoiceListResponse> {
  const query = new URLSearchParams({ limit: String(page.limit ?? INVOICES_PER_PAGE) });
  if (page.before !== undefined) query.set('before', String(page.before));
  return http.get<InvoiceListResponse>(`invoice/${ariaAccountNo}?${query}`, { signal });
}

export function invoicesQueryOptions(ariaAccountNo: number) {
  return infiniteQueryOptions({
    queryKey: billingKeys.invoices(ariaAccountNo),
    queryFn: ({ pageParam, signal }) => getInvoices(ariaAccountNo, { before: pageParam }, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    staleTime: 0,
  });
}

/** Where the invoice's PDF is (opened in the browser: print or save). */
export function invoicePdfUrl(invoice: Pick<Invoice, 'ariaAccountNo' | 'ariaInvoiceNo'>): string {
  return `/api/invoice/${invoice.ariaAccountNo}/${invoice.ariaInvoiceNo}/pdf`;
}

/**
 * One invoice of the signed-in account, or null when the account has no such invoice (not
 * theirs, or no such number). Pages through the list: there is no single-invoice call.
 */
async function findInvoice(ariaAccountNo: number, ariaInvoiceNo: number, signal?: AbortSignal): Promise<Invoice | null> {
  let before: number | undefined;
  // Bounded: one page of the maximum size holds ten years of monthly invoices.
  for (let round = 0; round < 10; round++) {
    const page = await getInvoices(ariaAccountNo, { before, limit: INVOICE_PAGE_MAX }, signal);
    const found = page.invoices.find((invoice) => invoice.ariaInvoiceNo === ariaInvoiceNo);
    if (found) return found;
    if (page.nextBefore === null) return null;
    before = page.nextBefore;
  }
  return null;
}

export function invoiceQueryOptions(ariaAccountNo: number, ariaInvoiceNo: number) {
  return queryOptions({
    queryKey: [...billingKeys.invoices(ariaAccountNo), 'one', ariaInvoiceNo] as const,
    queryFn: ({ signal }) => findInvoice(ariaAccountNo, ariaInvoiceNo, signal),
    staleTime: 0,
  });
}
