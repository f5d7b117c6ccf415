import { useMutation, useQuery, useQueryClient } from '../../../lib/query/index.ts';
import type { EinvoiceRecipientBody, einvoiceRecipientResponseSchema } from '@minside/domain';
import type { z } from 'zod';
import { http } from '../../../lib/http.ts';
import { businessKeys, titleQuery } from './keys.ts';

type EinvoiceResponse = z.infer<typeof einvoiceRecipientResponseSchema>;

/** GET /api/business/einvoice: where the company's EHF invoices go, or null. */
export function useEinvoice(titleCode: string) {
  return useQuery({
    queryKey: businessKeys.einvoice(titleCode),
    queryFn: ({ signal }) => http.get<EinvoiceResponse>(`business/einvoice${titleQuery(titleCode)}`, { signal }),
    staleTime: 0,
  });
}

/** PUT (set) or DELETE (stop) /api/business/einvoice. */
export function useChangeEinvoice(titleCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EinvoiceRecipientBody | null) =>
      body ? http.put<EinvoiceResponse>(`business/einvoice${titleQuery(titleCode)}`, body) : http.delete<EinvoiceResponse>(`business/einvoice${titleQuery(titleCode)}`, {}),
    onSuccess: (result) => queryClient.setQueryData(businessKeys.einvoice(titleCode), result),
  });
}
