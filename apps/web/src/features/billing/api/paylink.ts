import { queryOptions } from '../../../lib/query/index.ts';
import type { CreateInvoicePaymentBody, PaylinkDetails, PaymentRedirect } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { billingKeys } from './keys.ts';

/** GET /api/paylink/{token} (public): the one invoice a signed pay-link is for. */
function getPaylink(token: string, signal?: AbortSignal): Promise<PaylinkDetails> {
  return http.get<PaylinkDetails>(`paylink/${encodeURIComponent(token)}`, { signal });
}

export function paylinkQueryOptions(token: string) {
  return queryOptions({ queryKey: billingKeys.paylink(token), queryFn: ({ signal }) => getPaylink(token, signal), staleTime: 0 });
}

/** POST /api/paylink/{token}/payment (public): pays the pay-link's invoice at the provider. */
export function startPaylinkPayment(token: string, body: CreateInvoicePaymentBody): Promise<PaymentRedirect> {
  return http.post<PaymentRedirect>(`paylink/${encodeURIComponent(token)}/payment`, body);
}
