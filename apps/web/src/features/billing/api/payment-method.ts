import { queryOptions } from '../../../lib/query/index.ts';
import type { ChangeCardBody, ChangePaymentMethodBody, ChangePaymentMethodResponse, PaymentMethodDetails, PaymentRedirect } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { billingKeys } from './keys.ts';

export interface SubscriptionRef {
  ariaAccountNo: number;
  titleCode: string;
}

/** GET /api/subscription/{accountNo}/{titleCode}/paymentMethod: the method in use, with its card or agreement. */
function getPaymentMethod(ref: SubscriptionRef, signal?: AbortSignal): Promise<PaymentMethodDetails> {
  return http.get<PaymentMethodDetails>(`subscription/${ref.ariaAccountNo}/${encodeURIComponent(ref.titleCode)}/paymentMethod`, { signal });
}

export function paymentMethodQueryOptions(ref: SubscriptionRef) {
  return queryOptions({ queryKey: billingKeys.paymentMethod(ref.ariaAccountNo, ref.titleCode), queryFn: ({ signal }) => getPaymentMethod(ref, signal), staleTime: 0 });
}

/** PUT /api/subscription/paymentMethod (SPEC §7): giro at once, AvtaleGiro pending the bank, card and Vipps through the provider. */
export function changePaymentMethod(body: ChangePaymentMethodBody): Promise<ChangePaymentMethodResponse> {
  return http.put<ChangePaymentMethodResponse>('subscription/paymentMethod', body);
}

/** PUT /api/subscription/card (SPEC §7): a new card, registered at the provider's page. */
export function changeCard(body: ChangeCardBody): Promise<PaymentRedirect> {
  return http.put<PaymentRedirect>('subscription/card', body);
}
