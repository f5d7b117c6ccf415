import { useMutation, useQueryClient } from '../../../lib/query/index.ts';
import type { DeliveryChange, deliveryChangeCancelResponseSchema } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** DELETE /api/delivery/changes/{id}: deleted (null), or a started change ended as early as possible. */
async function cancelDeliveryChange(titleCode: string, id: string): Promise<DeliveryChange | null> {
  return (await http.delete<ResponseOf<typeof deliveryChangeCancelResponseSchema>>(`delivery/changes/${encodeURIComponent(id)}${titleQuery(titleCode)}`, {})).change;
}

export function useCancelDeliveryChange(titleCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => cancelDeliveryChange(titleCode, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...deliveryKeys.all, titleCode] }),
  });
}
