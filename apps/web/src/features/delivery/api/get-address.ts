import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { DeliveryAddressOverview } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** GET /api/delivery/address: the address in use and the moves already decided. */
function getDeliveryAddress(titleCode: string): Promise<DeliveryAddressOverview> {
  return http.get<DeliveryAddressOverview>(`delivery/address${titleQuery(titleCode)}`);
}

const deliveryAddressQueryOptions = (titleCode: string) => queryOptions({ queryKey: deliveryKeys.address(titleCode), queryFn: () => getDeliveryAddress(titleCode) });

export function useDeliveryAddress(titleCode: string) {
  return useQuery(deliveryAddressQueryOptions(titleCode));
}
