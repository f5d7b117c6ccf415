import type { QueryClient } from '../../lib/query/index.ts';
import { FALLBACK_TITLE_CODE, type Title } from '@minside/domain';
import { titleCodeQueryOptions } from './api/retrieve-title-code.ts';
import { titleQueryOptions } from './api/get-title.ts';

/**
 * Resolves the title of the site the browser is on and keeps it in the query cache, where
 * the shell reads it (`useTitle`). When the resolved title cannot be loaded the POL title is
 * used instead (SPEC §8: title-data load failures are not shown to the user).
 */
export async function resolveTitle(queryClient: QueryClient): Promise<Title> {
  const codeQuery = titleCodeQueryOptions();
  const titleCode = await queryClient.ensureQueryData(codeQuery);
  try {
    return await queryClient.ensureQueryData(titleQueryOptions(titleCode));
  } catch (error) {
    if (titleCode.toUpperCase() === FALLBACK_TITLE_CODE) throw error;
    console.error(`Could not load title ${titleCode}; using ${FALLBACK_TITLE_CODE}`, error);
    queryClient.setQueryData(codeQuery.queryKey, FALLBACK_TITLE_CODE);
    return queryClient.ensureQueryData(titleQueryOptions(FALLBACK_TITLE_CODE));
  }
}
