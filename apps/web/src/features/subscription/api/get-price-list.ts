import { queryOptions } from '../../../lib/query/index.ts';
import type { Plan, PriceChangesResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { subscriptionKeys } from './keys.ts';

/** GET /api/plans/{titleCode} (public): the title's plans, with announced price changes. */
async function getPriceList(titleCode: string, signal?: AbortSignal): Promise<Plan[]> {
  return (await http.get<PriceChangesResponse>(`plans/${encodeURIComponent(titleCode)}`, { signal })).plans;
}

export function priceListQueryOptions(titleCode: string) {
  return queryOptions({ queryKey: subscriptionKeys.priceList(titleCode), queryFn: ({ signal }) => getPriceList(titleCode, signal) });
}
