import { queryOptions } from '../../../lib/query/index.ts';
import type { Payment } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { billingKeys } from './keys.ts';

/** How often a payment still PENDING at the provider is looked up again. */
const PENDING_POLL_MS = 2_000;

/**
 * GET /api/payment/{paymentId}[?token=…]: the payment as the server knows it. The return
 * page asks the server, never the URL or the browser's storage: the return may open in
 * another browser, and only the server has heard from the provider.
 */
function getPayment(paymentId: string, paylinkToken?: string, signal?: AbortSignal): Promise<Payment> {
  const query = paylinkToken ? `?${new URLSearchParams({ token: paylinkToken })}` : '';
  return http.get<Payment>(`payment/${encodeURIComponent(paymentId)}${query}`, { signal });
}

export function paymentQueryOptions(paymentId: string, paylinkToken?: string) {
  return queryOptions({
    queryKey: billingKeys.payment(paymentId),
    queryFn: ({ signal }) => getPayment(paymentId, paylinkToken, signal),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'PENDING' ? PENDING_POLL_MS : false),
  });
}
