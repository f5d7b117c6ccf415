import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { BusinessOverview } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { businessKeys, titleQuery } from './keys.ts';

/** GET /api/business/members: the company's invited and active people (admins only). */
function getBusinessOverview(titleCode: string, signal?: AbortSignal): Promise<BusinessOverview> {
  return http.get<BusinessOverview>(`business/members${titleQuery(titleCode)}`, { signal });
}

const businessOverviewQueryOptions = (titleCode: string) => queryOptions({ queryKey: businessKeys.overview(titleCode), queryFn: ({ signal }) => getBusinessOverview(titleCode, signal), staleTime: 0 });

export function useBusinessOverview(titleCode: string, enabled: boolean) {
  return useQuery({ ...businessOverviewQueryOptions(titleCode), enabled });
}

/** The CSV download of the list, filtered like the search field (a plain link: the browser saves the file). */
export function businessExportHref(titleCode: string, query: string): string {
  return `/api/business/members/export${titleQuery(titleCode, query.trim() ? { q: query.trim() } : {})}`;
}
