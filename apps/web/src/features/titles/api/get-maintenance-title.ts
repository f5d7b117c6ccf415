import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { MaintenanceTitle } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { pageLocation } from '../../../lib/page-scope.ts';
import { titleKeys } from './keys.ts';

/**
 * POST /api/maintenanceTitle (SPEC §7) with the my-page URL. Resolves to null when the
 * status cannot be fetched: an unreachable status check must not lock everyone out.
 */
async function getMaintenanceTitle(minsideUrl: string, signal?: AbortSignal): Promise<MaintenanceTitle | null> {
  try {
    return await http.post<MaintenanceTitle>('maintenanceTitle', { minsideUrl }, { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    console.error('Could not fetch the maintenance status', error);
    return null;
  }
}

/** Re-checked at most once a minute while navigating, so switching maintenance on takes effect. */
export function maintenanceQueryOptions(location: Pick<Location, 'origin' | 'href'> = pageLocation()) {
  return queryOptions({
    queryKey: titleKeys.maintenance(location.origin),
    queryFn: ({ signal }) => getMaintenanceTitle(location.href, signal),
    staleTime: 60_000,
  });
}

export function useMaintenanceTitle(): MaintenanceTitle | null | undefined {
  return useQuery(maintenanceQueryOptions()).data;
}
