import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { postalCodeLookupSchema } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';
import { deliveryKeys } from './keys.ts';

/** GET /api/delivery/postal-codes/{code}: the town of a Norwegian postal code; 404 when unknown. */
function lookupPostalCode(postalCode: string) {
  return http.get<ResponseOf<typeof postalCodeLookupSchema>>(`delivery/postal-codes/${encodeURIComponent(postalCode)}`);
}

const postalCodeQueryOptions = (postalCode: string) => queryOptions({ queryKey: deliveryKeys.postalCode(postalCode), queryFn: () => lookupPostalCode(postalCode), staleTime: Infinity });

/** Looks the town up once four digits are typed. */
export function usePostalCodeTown(postalCode: string) {
  return useQuery({ ...postalCodeQueryOptions(postalCode), enabled: /^\d{4}$/.test(postalCode) });
}
