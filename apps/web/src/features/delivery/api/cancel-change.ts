import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deliveryChangeCancelResponseSchema, type DeliveryChange } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** DELETE /api/delivery/changes/{id}: deleted (null), or a started change ended as early as possible. */
export async function cancelDeliveryChange(titleCode: string, id: string): Promise<DeliveryChange | null> {
  return (await http.delete(`delivery/changes/${encodeURIComponent(id)}${titleQuery(titleCode)}`, {}, deliveryChangeCancelResponseSchema)).change;
}

export function useCancelDeliveryChange(titleCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => cancelDeliveryChange(titleCode, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...deliveryKeys.all, titleCode] }),
  });
}
