import { queryOptions } from '../../../lib/query/index.ts';
import type { AddDiscountBody, Discount, DiscountResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import type { SubscriptionRef } from './payment-method.ts';
import { billingKeys } from './keys.ts';

/** POST /api/getDiscountDetails (SPEC §7): the active discount, or null. A read, though the spec makes it a POST. */
async function getDiscountDetails(ref: SubscriptionRef, signal?: AbortSignal): Promise<Discount | null> {
  return (await http.post<DiscountResponse>('getDiscountDetails', { ariaAccountNo: ref.ariaAccountNo, titleCode: ref.titleCode }, { signal })).discount;
}

export function discountQueryOptions(ref: SubscriptionRef) {
  return queryOptions({ queryKey: billingKeys.discount(ref.ariaAccountNo, ref.titleCode), queryFn: ({ signal }) => getDiscountDetails(ref, signal) });
}

/** POST /api/addDiscount (SPEC §7): a code that lowers the next invoices. */
export async function addDiscount(body: AddDiscountBody): Promise<Discount | null> {
  return (await http.post<DiscountResponse>('addDiscount', body)).discount;
}
