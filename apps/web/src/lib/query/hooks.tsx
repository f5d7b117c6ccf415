// The hooks that read the cache: docs/decisions/035.
import { createContext, useCallback, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { QueryClient } from './client.ts';
import type { QueryKey } from './key.ts';
import { noop, type Query, type QueryOptions, type QueryState } from './query.ts';

const ClientContext = createContext<QueryClient | null>(null);

export function QueryClientProvider({ client, children }: { client: QueryClient; children?: ReactNode }) {
  useEffect(() => {
    const online = () => client.refetchStale();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [client]);
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useQueryClient(): QueryClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('No QueryClient set, use QueryClientProvider to set one');
  return client;
}

interface ResultBase<T> {
  fetchStatus: QueryState['fetchStatus'];
  /** A fetch is running (the first or a refetch). */
  isFetching: boolean;
  dataUpdatedAt: number;
  /** Fetches again now, replacing a fetch that is running; never rejects. */
  refetch: () => Promise<QueryResult<T>>;
}

/** What a query hook gives: one of these three, told apart by `status` (and by `isPending`, `error`, `isSuccess`). */
export type QueryResult<T> = ResultBase<T> &
  (
    | { status: 'pending'; data: undefined; error: null; isPending: true; isSuccess: false; isError: false; /** Pending and fetching: the first load. */ isLoading: boolean }
    | { status: 'error'; data: T | undefined; error: Error; isPending: false; isSuccess: false; isError: true; isLoading: false }
    | { status: 'success'; data: T; error: null; isPending: false; isSuccess: true; isError: false; isLoading: false }
  );

/** The hook's view of a query's state (also useInfiniteQuery's). */
export function resultOf<T>(query: Query<T>, state: QueryState<T>): QueryResult<T> {
  const fetching = state.fetchStatus === 'fetching';
  return {
    status: state.status,
    data: state.data,
    error: state.error,
    fetchStatus: state.fetchStatus,
    isFetching: fetching,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    isError: state.status === 'error',
    isLoading: state.status === 'pending' && fetching,
    dataUpdatedAt: state.dataUpdatedAt,
    refetch: () =>
      query
        .fetch(undefined, { cancelRefetch: true })
        .catch(noop)
        .then(() => resultOf(query, query.state)),
  } as QueryResult<T>;
}

const intervalOf = <T,>(rule: QueryOptions<T>['refetchInterval'], query: Query<T>) => (typeof rule === 'function' ? rule(query) : rule);

/**
 * The query of `options`, subscribed while mounted, its state, and the fetches a mounted hook
 * makes: on mount, and when the key or `enabled` changes, if the answer is missing or stale;
 * every `refetchInterval`. The query is created in render (without fetching), so that a server
 * render finds in the cache what the page asked for (src/entry-server.tsx). Its state is the
 * snapshot on the server and in the browser alike: the browser's cache was seeded with the
 * answers the server rendered with, so hydration renders the same (docs/decisions/032).
 */
export function useQueryState<T, K extends QueryKey>(options: QueryOptions<T, K>): [Query<T>, QueryState<T>] {
  const client = useQueryClient();
  // The key's type is of no use inside the cache.
  const defaulted = client.defaultQueryOptions(options) as unknown as QueryOptions<T>;
  const query = client.getQueryCache().build(defaulted);
  query.setOptions(defaulted);
  const enabled = defaulted.enabled !== false;
  const latest = useRef(defaulted);
  latest.current = defaulted;
  const subscribe = useCallback((notify: () => void) => query.subscribe({ notify, enabled: () => latest.current.enabled !== false, staleTime: () => latest.current.staleTime }), [query]);
  const getState = () => query.state;
  const state = useSyncExternalStore(subscribe, getState, getState);
  const { staleTime, refetchInterval } = defaulted;

  useEffect(() => {
    if (enabled && query.isStale(staleTime)) query.fetch().catch(noop);
    // staleTime is read when the query or `enabled` changes, as on mount; not a reason to fetch by itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query, enabled]);

  const interval = intervalOf(refetchInterval, query);
  useEffect(() => {
    if (!enabled || !interval) return;
    const timer = setInterval(() => {
      // Asked again at each tick: an answer that ends the polling may have come since the last render.
      // Not in a hidden tab (TanStack's refetchIntervalInBackground: false).
      if (intervalOf(latest.current.refetchInterval, query) && document.visibilityState !== 'hidden') query.fetch().catch(noop);
    }, interval);
    return () => clearInterval(timer);
  }, [query, enabled, interval]);

  return [query, state];
}

export function useQuery<T, K extends QueryKey = QueryKey>(options: QueryOptions<T, K>): QueryResult<T> {
  const [query, state] = useQueryState(options);
  return resultOf(query, state);
}

/** useQuery for an answer the page cannot render without: suspends until it is there, throws its error to the error boundary. */
export function useSuspenseQuery<T, K extends QueryKey = QueryKey>(options: QueryOptions<T, K>): QueryResult<T> & { status: 'success' | 'error'; data: T } {
  const [query, state] = useQueryState({ ...options, enabled: true });
  if (state.data === undefined) {
    if (state.status === 'error') throw state.error;
    // Suspense renders again when it settles; a failure is then thrown as the error above.
    throw query.fetch().then(noop, noop);
  }
  return resultOf(query, state) as QueryResult<T> & { data: T; status: 'success' | 'error' };
}

/** How many queries are being fetched. */
export function useIsFetching(): number {
  const client = useQueryClient();
  const count = () => client.isFetching();
  return useSyncExternalStore(client.getQueryCache().subscribe, count, count);
}

/** How many mutations are running. */
export function useIsMutating(): number {
  const client = useQueryClient();
  const count = () => client.isMutating();
  return useSyncExternalStore(client.getQueryCache().subscribe, count, count);
}
