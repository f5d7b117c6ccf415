import { queryOptions, useMutation, useQuery } from '../../../lib/query/index.ts';
import type { createAccountResponseSchema, CreateOrderBody, InvoicePaymentMethod, Order, OrderOffersResponse, OrderResponse, PaymentRedirect, WinbackResponse } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';

/** Query keys of the ordering area, in one place. */
const orderingKeys = {
  all: ['ordering'] as const,
  offers: (titleCode: string, campaign: string, winback: string) => ['ordering', titleCode, 'offers', campaign, winback] as const,
  order: (orderId: string) => ['ordering', 'order', orderId] as const,
  winback: (titleCode: string, token: string) => ['ordering', titleCode, 'winback', token] as const,
};

const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** How long the browser waits for the order call before it gives up (SPEC §8 timeout → /order-timeout). */
export const ORDER_CALL_TIMEOUT_MS = 20_000;

const offersQueryOptions = (titleCode: string, campaign = '', winback = '') =>
  queryOptions({
    queryKey: orderingKeys.offers(titleCode, campaign, winback),
    queryFn: ({ signal }) => http.get<OrderOffersResponse>(`order/offers${query({ titleCode, campaign, winback })}`, { signal }),
    staleTime: 0,
  });

export function useOffers(titleCode: string, campaign = '', winback = '') {
  return useQuery(offersQueryOptions(titleCode, campaign, winback));
}

/** How often an order still waiting for the provider's answer is asked about again. */
const ORDER_POLL_MS = 2_000;

const orderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: orderingKeys.order(orderId),
    queryFn: ({ signal }) => http.get<OrderResponse>(`order/${encodeURIComponent(orderId)}`, { signal }),
    staleTime: 0,
    refetchInterval: (state) => (state.state.data?.order.state === 'awaiting_payment' ? ORDER_POLL_MS : false),
  });

export function useOrder(orderId: string | null) {
  return useQuery({ ...orderQueryOptions(orderId ?? ''), enabled: orderId !== null });
}

/** SPEC §7 POST account: the buyer's account (once; an existing one answers 409, which is fine here). */
export function createAccount(titleCode: string) {
  return http.post<ResponseOf<typeof createAccountResponseSchema>>('account', { accountBalance: 0, firstTitleCode: titleCode });
}

export function createOrder(titleCode: string, body: CreateOrderBody, signal?: AbortSignal) {
  return http.post<Order>(`order${query({ titleCode })}`, body, { signal });
}

export function startOrderPayment(orderId: string, method: InvoicePaymentMethod) {
  return http.post<PaymentRedirect>(`order/${encodeURIComponent(orderId)}/payment`, { method });
}

export function useCancelOrder() {
  return useMutation({ mutationFn: (orderId: string) => http.post<Order>(`order/${encodeURIComponent(orderId)}/cancel`, {}) });
}

export function useWinback(titleCode: string, token: string) {
  return useQuery({
    queryKey: orderingKeys.winback(titleCode, token),
    queryFn: ({ signal }) => http.get<WinbackResponse>(`winback${query({ titleCode, token })}`, { signal }),
    staleTime: 0,
  });
}

export type { OrderResponse };
