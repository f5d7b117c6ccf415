// The query client: the cache and what the app does with it outside components (docs/decisions/035).
import type { DataOf, DataTag, QueryKey } from './key.ts';
import { noop, QueryCache, type Query, type QueryFilters, type QueryOptions, type Retry, type RetryDelay } from './query.ts';

export interface MutationDefaults {
  retry?: Retry;
  retryDelay?: RetryDelay;
}

export interface DefaultOptions {
  queries?: Omit<QueryOptions, 'queryKey' | 'queryFn' | 'initialData' | 'initialDataUpdatedAt' | 'refetchInterval'>;
  mutations?: MutationDefaults;
}

export type Updater<T> = T | undefined | ((previous: T | undefined) => T | undefined);

/** Options of a query, with its key tagged with the answer's type (`getQueryData(options.queryKey)` is typed). */
export function queryOptions<T, K extends QueryKey = QueryKey>(options: QueryOptions<T, K>): QueryOptions<T, K> & { queryKey: DataTag<K, T> } {
  return options as QueryOptions<T, K> & { queryKey: DataTag<K, T> };
}

export class QueryClient {
  private readonly cache = new QueryCache();
  private readonly defaults: DefaultOptions;
  private mutating = 0;

  constructor({ defaultOptions = {} }: { defaultOptions?: DefaultOptions } = {}) {
    this.defaults = defaultOptions;
  }

  getQueryCache(): QueryCache {
    return this.cache;
  }

  /** The options a query runs with: the client's defaults under the caller's. */
  defaultQueryOptions<T, K extends QueryKey>(options: QueryOptions<T, K>): QueryOptions<T, K> {
    return { ...(this.defaults.queries as Partial<QueryOptions<T, K>>), ...options };
  }

  mutationDefaults(): MutationDefaults {
    return this.defaults.mutations ?? {};
  }

  getQueryData<T = unknown, K extends QueryKey = QueryKey>(queryKey: K): DataOf<T, K> | undefined {
    return this.cache.get<DataOf<T, K>>(queryKey)?.state.data;
  }

  /** Puts an answer into the cache as if fetched (at `updatedAt`, default now); an updater gets the answer there is. Undefined leaves it as it is. */
  setQueryData<T = unknown, K extends QueryKey = QueryKey>(queryKey: K, updater: Updater<NoInfer<DataOf<T, K>>>, options: { updatedAt?: number } = {}): DataOf<T, K> | undefined {
    type D = DataOf<T, K>;
    const query = this.cache.get<D>(queryKey) ?? this.cache.build<D>({ ...this.defaults.queries, queryKey });
    const data = typeof updater === 'function' ? (updater as (previous: D | undefined) => D | undefined)(query.state.data) : updater;
    return data === undefined ? undefined : query.setData(data, options.updatedAt);
  }

  /** The answer, from the cache when it is fresh enough for `staleTime`, else fetched (no retry unless the options or defaults say so). Rejects on failure. */
  fetchQuery<T, K extends QueryKey>(options: QueryOptions<T, K>): Promise<T> {
    const defaulted = this.defaultQueryOptions(options) as unknown as QueryOptions<T>;
    defaulted.retry ??= false;
    const query = this.cache.build(defaulted);
    return query.isStale(defaulted.staleTime) ? query.fetch(defaulted) : Promise.resolve(query.state.data as T);
  }

  /** fetchQuery that never rejects, for what is wanted soon. */
  prefetchQuery<T, K extends QueryKey>(options: QueryOptions<T, K>): Promise<void> {
    return this.fetchQuery(options).then(noop, noop);
  }

  /** The cached answer however old, or fetchQuery's when there is none. */
  ensureQueryData<T, K extends QueryKey>(options: QueryOptions<T, K>): Promise<T> {
    const cached = this.cache.get<T>(options.queryKey)?.state.data;
    return cached === undefined ? this.fetchQuery(options) : Promise.resolve(cached);
  }

  /**
   * Marks the queries stale, and fetches again those a mounted hook fetches (the others on their
   * next mount). Resolves when those fetches are done, failed or not.
   */
  async invalidateQueries(filters: QueryFilters = {}): Promise<void> {
    const queries = this.cache.findAll(filters);
    for (const query of queries) query.setState({ isInvalidated: true });
    await Promise.all(queries.filter((query) => query.isActive()).map((query) => query.fetch(undefined, { cancelRefetch: true }).catch(noop)));
  }

  /** Back online: what the mounted hooks show and is stale is fetched again (TanStack's refetchOnReconnect). */
  refetchStale(): void {
    for (const query of this.cache.getAll()) if (query.isStaleForObservers()) query.fetch().catch(noop);
  }

  removeQueries(filters: QueryFilters = {}): void {
    for (const query of this.cache.findAll(filters)) this.cache.remove(query);
  }

  /** How many queries are being fetched. */
  isFetching(): number {
    return this.cache.getAll().filter((query: Query<unknown>) => query.state.fetchStatus === 'fetching').length;
  }

  /** How many mutations are running (lib/query/mutation.ts counts them). */
  isMutating(): number {
    return this.mutating;
  }

  /** @internal A mutation started (+1) or settled (-1). */
  countMutation(change: 1 | -1): void {
    this.mutating += change;
    this.cache.notify();
  }
}
