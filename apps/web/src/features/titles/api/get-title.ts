import { queryOptions } from '../../../lib/query/index.ts';
import type { Title } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { titleKeys } from './keys.ts';

/** GET /api/title/{code} (SPEC §7). */
function getTitle(titleCode: string, signal?: AbortSignal): Promise<Title> {
  return http.get<Title>(`title/${encodeURIComponent(titleCode)}`, { signal });
}

export function titleQueryOptions(titleCode: string) {
  return queryOptions({
    queryKey: titleKeys.detail(titleCode),
    queryFn: ({ signal }) => getTitle(titleCode, signal),
    staleTime: Infinity,
  });
}
