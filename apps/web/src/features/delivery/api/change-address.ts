import { useMutation, useQueryClient } from '../../../lib/query/index.ts';
import type { DeliveryAddressInput, DeliveryAddressOverview } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** POST /api/delivery/address: a new delivery address from a date (a move). */
function changeDeliveryAddress(titleCode: string, body: { fromDate: string; address: DeliveryAddressInput }): Promise<DeliveryAddressOverview> {
  return http.post<DeliveryAddressOverview>(`delivery/address${titleQuery(titleCode)}`, body);
}

export function useChangeDeliveryAddress(titleCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { fromDate: string; address: DeliveryAddressInput }) => changeDeliveryAddress(titleCode, body),
    onSuccess: (overview) => queryClient.setQueryData(deliveryKeys.address(titleCode), overview),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...deliveryKeys.all, titleCode] }),
  });
}
