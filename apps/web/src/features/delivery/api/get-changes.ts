import { queryOptions, useQuery } from '@tanstack/react-query';
import { deliveryChangeListSchema, type DeliveryChange } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** GET /api/delivery/changes: upcoming and running vacation and delivery changes. */
export async function getDeliveryChanges(titleCode: string): Promise<DeliveryChange[]> {
  return (await http.get(`delivery/changes${titleQuery(titleCode)}`, deliveryChangeListSchema)).changes;
}

export const deliveryChangesQueryOptions = (titleCode: string) =>
  queryOptions({ queryKey: deliveryKeys.changes(titleCode), queryFn: () => getDeliveryChanges(titleCode) });

export function useDeliveryChanges(titleCode: string) {
  return useQuery(deliveryChangesQueryOptions(titleCode));
}
