import { useSuspenseQuery } from '../../lib/query/index.ts';
import type { Title } from '@minside/domain';
import { titleCodeQueryOptions } from './api/retrieve-title-code.ts';
import { titleQueryOptions } from './api/get-title.ts';

/**
 * The title state (SPEC §3): the title of the site the browser is on. Components re-render
 * whenever it changes in the query cache. The root loader has resolved it before any render.
 */
export function useTitle(): Title {
  const { data: titleCode } = useSuspenseQuery(titleCodeQueryOptions());
  return useSuspenseQuery(titleQueryOptions(titleCode)).data;
}
