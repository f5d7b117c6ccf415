// One cached answer (Query) and the cache of them (QueryCache): docs/decisions/035.
import { systemClock } from '@minside/domain';
import { hashKey, matchesPrefix, replaceEqualDeep, type QueryKey } from './key.ts';

/** Whether to try again after a failure: a count of retries, or a rule given the failures so far (0 at the first) and the error. */
export type Retry = boolean | number | ((failureCount: number, error: Error) => boolean);
export type RetryDelay = number | ((failureCount: number, error: Error) => number);

export interface QueryFunctionContext<K extends QueryKey = QueryKey> {
  queryKey: K;
  /** Aborted when the call is no longer wanted (a newer one replaced it, or the query was removed). */
  signal: AbortSignal;
}

export interface QueryOptions<T = unknown, K extends QueryKey = QueryKey> {
  queryKey: K;
  queryFn?: (context: QueryFunctionContext<K>) => T | Promise<T>;
  /** false: the query is not fetched by its hooks (nor refetched when invalidated); its cached answer still shows. */
  enabled?: boolean;
  /** How long an answer counts as fresh (ms): a fresh answer is not fetched again on mount. */
  staleTime?: number;
  /** How long an answer nobody shows is kept (ms). */
  gcTime?: number;
  retry?: Retry;
  retryDelay?: RetryDelay;
  /** Poll while mounted: a period in ms, or a rule given the query (false: do not). */
  refetchInterval?: number | false | ((query: Query<T>) => number | false | undefined);
  /** The answer to show before the first fetch; it counts as fetched at initialDataUpdatedAt (default now). */
  initialData?: T | (() => T | undefined);
  initialDataUpdatedAt?: number;
}

export interface QueryState<T = unknown> {
  data: T | undefined;
  dataUpdatedAt: number;
  error: Error | null;
  /** pending: no answer yet; error: the last fetch failed; success: the last fetch (or setQueryData) gave the answer. */
  status: 'pending' | 'error' | 'success';
  fetchStatus: 'idle' | 'fetching';
  /** invalidateQueries marked it: stale whatever its staleTime. */
  isInvalidated: boolean;
  /** 'next': the last fetch (running or done) was an infinite query's next page (lib/query/infinite.ts). */
  direction: 'next' | undefined;
}

export interface FetchRun<T> {
  /** Abort a fetch already running and start anew (invalidation, refetch): its answer may be older than the change. */
  cancelRefetch?: boolean;
  /** This run only: another query function (an infinite query's next page). */
  queryFn?: (context: QueryFunctionContext) => T | Promise<T>;
  nextPage?: boolean;
}

const isServer = typeof window === 'undefined';
/** How long an answer nobody shows is kept, unless the options say otherwise: TanStack's 5 minutes. */
const DEFAULT_GC_TIME = 5 * 60_000;
const now = () => systemClock().getTime();
export const noop = () => {};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` until it succeeds or `retry` says to give up; TanStack's defaults: 3 retries, 1 s, 2 s, 4 s … at most 30 s apart. */
export async function withRetry<T>(attempt: () => Promise<T>, retry: Retry = 3, retryDelay?: RetryDelay, cancelled: () => boolean = () => false): Promise<T> {
  for (let failures = 0; ; failures += 1) {
    try {
      return await attempt();
    } catch (caught) {
      const error = caught as Error;
      const again = typeof retry === 'function' ? retry(failures, error) : retry === true || failures < Number(retry);
      if (!again || cancelled()) throw error;
      await sleep(typeof retryDelay === 'function' ? retryDelay(failures, error) : (retryDelay ?? Math.min(1000 * 2 ** failures, 30_000)));
    }
  }
}

interface Observer {
  notify: () => void;
  /** Whether its hook fetches the query (enabled): only those are refetched on invalidation. */
  enabled: () => boolean;
  staleTime: () => number | undefined;
}

export class Query<T = unknown> {
  readonly queryKey: QueryKey;
  readonly queryHash: string;
  options: QueryOptions<T>;
  state: QueryState<T>;
  private readonly observers = new Set<Observer>();
  private promise: Promise<T> | undefined;
  private controller: AbortController | undefined;
  private gcTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly cache: QueryCache,
    options: QueryOptions<T>,
  ) {
    this.queryKey = options.queryKey;
    this.queryHash = hashKey(options.queryKey);
    this.options = options;
    const initial = typeof options.initialData === 'function' ? (options.initialData as () => T | undefined)() : options.initialData;
    const seeded = initial !== undefined;
    this.state = {
      data: initial,
      dataUpdatedAt: seeded ? (options.initialDataUpdatedAt ?? now()) : 0,
      error: null,
      status: seeded ? 'success' : 'pending',
      fetchStatus: 'idle',
      isInvalidated: false,
      direction: undefined,
    };
    this.scheduleGc();
  }

  setOptions(options: QueryOptions<T>): void {
    // The longest time any user asked for wins, as an answer kept for one is kept for all.
    const gcTime = Math.max(this.options.gcTime ?? DEFAULT_GC_TIME, options.gcTime ?? DEFAULT_GC_TIME);
    this.options = { ...options, gcTime };
  }

  setState(patch: Partial<QueryState<T>>): void {
    this.state = { ...this.state, ...patch };
    for (const observer of this.observers) observer.notify();
    this.cache.notify();
  }

  /** A new answer, as a fetch or setQueryData gives it. */
  setData(data: T, updatedAt = now()): T {
    const shared = replaceEqualDeep(this.state.data, data);
    this.setState({ data: shared, dataUpdatedAt: updatedAt, error: null, status: 'success', isInvalidated: false });
    return shared;
  }

  isStale(staleTime = 0): boolean {
    return this.state.data === undefined || this.state.isInvalidated || now() >= this.state.dataUpdatedAt + staleTime;
  }

  isActive(): boolean {
    return [...this.observers].some((observer) => observer.enabled());
  }

  /** Whether a mounted hook would fetch it now: one that fetches it finds it stale. */
  isStaleForObservers(): boolean {
    return [...this.observers].some((observer) => observer.enabled() && this.isStale(observer.staleTime()));
  }

  subscribe(observer: Observer): () => void {
    this.observers.add(observer);
    clearTimeout(this.gcTimer);
    return () => {
      this.observers.delete(observer);
      this.scheduleGc();
    };
  }

  /**
   * Fetches the answer with the query function, retrying as the options say. A fetch already
   * running is shared (one call for many hooks), unless `cancelRefetch` replaces it.
   */
  fetch(options?: QueryOptions<T>, run: FetchRun<T> = {}): Promise<T> {
    if (options) this.setOptions(options);
    if (this.promise) {
      if (!run.cancelRefetch || this.state.data === undefined) return this.promise;
      this.controller?.abort();
    }
    const queryFn = run.queryFn ?? this.options.queryFn;
    if (!queryFn) return Promise.reject(new Error(`No queryFn for ${this.queryHash}`));
    const controller = new AbortController();
    this.controller = controller;
    const replaced = () => this.controller !== controller;
    const context: QueryFunctionContext = { queryKey: this.queryKey, signal: controller.signal };
    this.setState({ fetchStatus: 'fetching', direction: run.nextPage ? 'next' : undefined, ...(this.state.data === undefined && { status: 'pending', error: null }) });
    const promise = withRetry(async () => queryFn(context), this.options.retry ?? (isServer ? 0 : 3), this.options.retryDelay, replaced).then(
      (data) => {
        // A newer fetch replaced this one: its answer is the one that counts.
        if (replaced()) return this.promise ?? this.state.data ?? data;
        this.finish();
        return this.setData(data);
      },
      (error: unknown) => {
        if (replaced()) return this.promise ?? Promise.reject(error);
        this.finish({ status: 'error', error: error as Error });
        throw error;
      },
    );
    this.promise = promise;
    return promise;
  }

  private finish(patch: Partial<QueryState<T>> = {}): void {
    this.promise = undefined;
    this.controller = undefined;
    this.setState({ fetchStatus: 'idle', ...patch });
    this.scheduleGc();
  }

  /** Stops a running fetch without an answer (the query is removed). */
  cancel(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.promise = undefined;
    clearTimeout(this.gcTimer);
  }

  private scheduleGc(): void {
    clearTimeout(this.gcTimer);
    const gcTime = this.options.gcTime ?? DEFAULT_GC_TIME;
    // A server render's cache lives as long as its request; no timer should keep the process busy.
    if (isServer || this.observers.size > 0 || !Number.isFinite(gcTime)) return;
    this.gcTimer = setTimeout(() => {
      if (this.observers.size === 0 && this.state.fetchStatus === 'idle') this.cache.remove(this as Query<unknown>);
    }, gcTime);
  }
}

export interface QueryFilters {
  queryKey?: QueryKey;
  /** Only the query with exactly this key, not those it is a prefix of. */
  exact?: boolean;
}

export class QueryCache {
  private readonly queries = new Map<string, Query<unknown>>();
  private readonly listeners = new Set<() => void>();

  /** The query of `options.queryKey`, created when there is none. */
  build<T>(options: QueryOptions<T>): Query<T> {
    const hash = hashKey(options.queryKey);
    let query = this.queries.get(hash) as Query<T> | undefined;
    if (!query) {
      query = new Query<T>(this, options);
      this.queries.set(hash, query as Query<unknown>);
    }
    return query;
  }

  get<T>(queryKey: QueryKey): Query<T> | undefined {
    return this.queries.get(hashKey(queryKey)) as Query<T> | undefined;
  }

  getAll(): Query<unknown>[] {
    return [...this.queries.values()];
  }

  findAll({ queryKey, exact }: QueryFilters = {}): Query<unknown>[] {
    if (!queryKey) return this.getAll();
    if (exact) return this.queries.has(hashKey(queryKey)) ? [this.queries.get(hashKey(queryKey))!] : [];
    return this.getAll().filter((query) => matchesPrefix(query.queryKey, queryKey));
  }

  remove(query: Query<unknown>): void {
    if (this.queries.get(query.queryHash) !== query) return;
    query.cancel();
    this.queries.delete(query.queryHash);
    this.notify();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
