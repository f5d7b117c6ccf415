import { useMutation, useQueryClient } from '../../../lib/query/index.ts';
import type { DeliveryChange, DeliveryChangeBody } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** POST /api/delivery/changes (new) or PUT /api/delivery/changes/{id} (change). */
function saveDeliveryChange(titleCode: string, body: DeliveryChangeBody, id?: string): Promise<DeliveryChange> {
  return id ? http.put<DeliveryChange>(`delivery/changes/${encodeURIComponent(id)}${titleQuery(titleCode)}`, body) : http.post<DeliveryChange>(`delivery/changes${titleQuery(titleCode)}`, body);
}

export function useSaveDeliveryChange(titleCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, id }: { body: DeliveryChangeBody; id?: string }) => saveDeliveryChange(titleCode, body, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...deliveryKeys.all, titleCode] }),
  });
}
