// A list fetched a page at a time ("Vis flere"): docs/decisions/035.
import { resultOf, useQueryClient, useQueryState, type QueryResult } from './hooks.tsx';
import type { DataTag, QueryKey } from './key.ts';
import type { QueryFunctionContext, QueryOptions } from './query.ts';

export interface InfiniteData<T, P> {
  pages: T[];
  pageParams: P[];
}

export interface InfiniteQueryOptions<T, K extends QueryKey, P> extends Omit<QueryOptions<InfiniteData<T, P>, K>, 'queryFn' | 'initialData' | 'refetchInterval'> {
  queryFn: (context: QueryFunctionContext<K> & { pageParam: P }) => Promise<T>;
  initialPageParam: P;
  /** The next page's parameter, or undefined/null when the last page is the last. */
  getNextPageParam: (lastPage: T, allPages: T[], lastPageParam: P, allPageParams: P[]) => P | undefined | null;
}

export type InfiniteQueryResult<T, P> = QueryResult<InfiniteData<T, P>> & {
  fetchNextPage: () => Promise<void>;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** The last fetch was of the next page, and it failed (the pages shown are still there). */
  isFetchNextPageError: boolean;
};

export function infiniteQueryOptions<T, K extends QueryKey, P>(options: InfiniteQueryOptions<T, K, P>): InfiniteQueryOptions<T, K, P> & { queryKey: DataTag<K, InfiniteData<T, P>> } {
  return options as InfiniteQueryOptions<T, K, P> & { queryKey: DataTag<K, InfiniteData<T, P>> };
}

function nextParam<T, P>(options: Pick<InfiniteQueryOptions<T, QueryKey, P>, 'getNextPageParam'>, data: InfiniteData<T, P>): P | undefined | null {
  const last = data.pages.length - 1;
  return last < 0 ? undefined : options.getNextPageParam(data.pages[last]!, data.pages, data.pageParams[last]!, data.pageParams);
}

/**
 * Like useQuery, with the answer a list of pages. A refetch (invalidation, stale on mount) fetches
 * as many pages as are shown, from the first, one after the other: what the list shows stays
 * whole and current. `fetchNextPage` adds one.
 */
export function useInfiniteQuery<T, K extends QueryKey, P>(options: InfiniteQueryOptions<T, K, P>): InfiniteQueryResult<T, P> {
  const client = useQueryClient();
  const pages =
    (next: boolean) =>
    async (context: QueryFunctionContext): Promise<InfiniteData<T, P>> => {
      const shown = client.getQueryData<InfiniteData<T, P>>(options.queryKey);
      const append = async (data: InfiniteData<T, P>, pageParam: P): Promise<InfiniteData<T, P>> => {
        const page = await options.queryFn({ ...(context as QueryFunctionContext<K>), pageParam });
        return { pages: [...data.pages, page], pageParams: [...data.pageParams, pageParam] };
      };
      if (next && shown) {
        const param = nextParam(options, shown);
        return param === undefined || param === null ? shown : append(shown, param);
      }
      let data = await append({ pages: [], pageParams: [] }, options.initialPageParam);
      for (let count = 1; count < (shown?.pages.length ?? 1); count += 1) {
        const param = nextParam(options, data);
        if (param === undefined || param === null) break;
        data = await append(data, param);
      }
      return data;
    };
  const [query, state] = useQueryState<InfiniteData<T, P>, K>({ ...options, queryFn: pages(false) });
  return {
    ...resultOf(query, state),
    hasNextPage: state.data !== undefined && nextParam(options, state.data) != null,
    isFetchingNextPage: state.fetchStatus === 'fetching' && state.direction === 'next',
    isFetchNextPageError: state.status === 'error' && state.direction === 'next',
    fetchNextPage: () =>
      query.fetch(undefined, { queryFn: pages(true), nextPage: true }).then(
        () => undefined,
        () => undefined,
      ),
  } as InfiniteQueryResult<T, P>;
}
