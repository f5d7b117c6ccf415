import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { DeliveryChange, deliveryChangeListSchema } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** GET /api/delivery/changes: upcoming and running vacation and delivery changes. */
async function getDeliveryChanges(titleCode: string): Promise<DeliveryChange[]> {
  return (await http.get<ResponseOf<typeof deliveryChangeListSchema>>(`delivery/changes${titleQuery(titleCode)}`)).changes;
}

const deliveryChangesQueryOptions = (titleCode: string) => queryOptions({ queryKey: deliveryKeys.changes(titleCode), queryFn: () => getDeliveryChanges(titleCode) });

export function useDeliveryChanges(titleCode: string) {
  return useQuery(deliveryChangesQueryOptions(titleCode));
}
