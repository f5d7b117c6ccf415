import { queryOptions } from '../../../lib/query/index.ts';
import { FALLBACK_TITLE_CODE, type retrieveTitleCodeResponseSchema } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';
import { pageLocation } from '../../../lib/page-scope.ts';
import { titleKeys } from './keys.ts';

/**
 * SPEC §4: find the title code by sending the my-page URL; on any failure the title code
 * falls back to POL. Never rejects.
 */
async function retrieveTitleCode(minsideUrl: string, signal?: AbortSignal): Promise<string> {
  try {
    const { titleCode } = await http.post<ResponseOf<typeof retrieveTitleCodeResponseSchema>>('retrieveTitleCode', { minsideUrl }, { signal });
    return titleCode;
  } catch (error) {
    if (signal?.aborted) throw error;
    console.warn(`Could not resolve the title for ${minsideUrl}; using ${FALLBACK_TITLE_CODE}`, error);
    return FALLBACK_TITLE_CODE;
  }
}

/** The title code of the site the browser is on. Resolved once per page load. */
export function titleCodeQueryOptions(location: Pick<Location, 'origin' | 'href'> = pageLocation()) {
  return queryOptions({
    queryKey: titleKeys.code(location.origin),
    queryFn: ({ signal }) => retrieveTitleCode(location.href, signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
