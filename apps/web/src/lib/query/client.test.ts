import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, queryOptions } from './index.ts';

/** A query function that answers `answers` in turn (the last one again when they run out), counting its calls. */
function answering<T>(...answers: Array<T | Error>) {
  const fn = vi.fn(async () => {
    const answer = answers[Math.min(fn.mock.calls.length - 1, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    return answer as T;
  });
  return fn;
}

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') }));
afterEach(() => vi.useRealTimers());

describe('the query cache', () => {
  it('makes one call for callers that ask at the same time, and gives each the same answer', async () => {
    const client = new QueryClient();
    const queryFn = answering({ name: 'Kari' });
    const [a, b] = await Promise.all([client.fetchQuery({ queryKey: ['profile'], queryFn }), client.fetchQuery({ queryKey: ['profile'], queryFn })]);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(a).toBe(b);
  });

  it('finds a key whatever the order of an object’s fields', async () => {
    const client = new QueryClient();
    client.setQueryData(['plans', { titleCode: 'ADR', campaign: 'x' }], 'plans');
    expect(client.getQueryData(['plans', { campaign: 'x', titleCode: 'ADR' }])).toBe('plans');
  });

  it('answers from the cache while the answer is fresh, and asks again once it is stale', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    const queryFn = answering('first', 'second');
    expect(await client.fetchQuery({ queryKey: ['x'], queryFn })).toBe('first');
    vi.advanceTimersByTime(29_000);
    expect(await client.fetchQuery({ queryKey: ['x'], queryFn })).toBe('first');
    vi.advanceTimersByTime(1_000);
    expect(await client.fetchQuery({ queryKey: ['x'], queryFn })).toBe('second');
    // A caller that wants it fresher than the default asks at once.
    expect(await client.fetchQuery({ queryKey: ['x'], queryFn, staleTime: 0 })).toBe('second');
    expect(queryFn).toHaveBeenCalledTimes(3);
  });

  it('ensureQueryData keeps any answer there is, however old; fetches only when there is none', async () => {
    const client = new QueryClient();
    const queryFn = answering('fetched');
    client.setQueryData(['title'], 'seeded', { updatedAt: 0 });
    expect(await client.ensureQueryData({ queryKey: ['title'], queryFn })).toBe('seeded');
    expect(await client.ensureQueryData({ queryKey: ['other'], queryFn })).toBe('fetched');
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('setQueryData takes an updater, which gets the answer there is; undefined changes nothing', () => {
    const client = new QueryClient();
    const key = queryOptions({ queryKey: ['count'], queryFn: async () => 0 }).queryKey;
    expect(client.setQueryData(key, (previous) => (previous ?? 0) + 1)).toBe(1);
    client.setQueryData(key, (previous) => (previous ?? 0) + 1);
    expect(client.getQueryData(key)).toBe(2);
    client.setQueryData(key, () => undefined);
    expect(client.getQueryData(key)).toBe(2);
  });

  it('keeps the objects of an answer equal to the last one, so what depends on them does not change', async () => {
    const client = new QueryClient();
    const queryFn = answering({ user: { name: 'Kari' }, list: [1, 2] }, { user: { name: 'Kari' }, list: [1, 3] });
    const first = await client.fetchQuery({ queryKey: ['s'], queryFn });
    const second = await client.fetchQuery({ queryKey: ['s'], queryFn, staleTime: 0 });
    expect(second).not.toBe(first);
    expect(second.user).toBe(first.user);
    expect(second.list).toEqual([1, 3]);
  });

  it('invalidateQueries marks every query under a key prefix stale, and not others; `exact` only the one', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    for (const key of [['delivery', 'ADR', 'calendar'], ['delivery', 'ADR', 'changes'], ['delivery', 'POL', 'calendar'], ['delivery']]) client.setQueryData(key, 'cached');
    const stale = () =>
      client
        .getQueryCache()
        .getAll()
        .filter((query) => query.state.isInvalidated)
        .map((query) => query.queryKey.join('/'));
    await client.invalidateQueries({ queryKey: ['delivery', 'ADR'] });
    expect(stale()).toEqual(['delivery/ADR/calendar', 'delivery/ADR/changes']);
    await client.invalidateQueries({ queryKey: ['delivery'], exact: true });
    expect(stale()).toContain('delivery');
    expect(stale()).not.toContain('delivery/POL/calendar');
    // Stale, so the next caller asks again though its staleTime is Infinity.
    const queryFn = answering('new');
    expect(await client.fetchQuery({ queryKey: ['delivery', 'ADR', 'calendar'], queryFn })).toBe('new');
  });

  it('an invalidation while a fetch runs starts a new one, whose answer wins over the older call’s', async () => {
    const client = new QueryClient();
    client.setQueryData(['address'], 'før flyttingen');
    const query = client.getQueryCache().get<string>(['address'])!;
    query.subscribe({ notify: () => {}, enabled: () => true, staleTime: () => 0 });
    const calls: Array<(value: string) => void> = [];
    query.setOptions({ queryKey: ['address'], queryFn: () => new Promise<string>((resolve) => calls.push(resolve)) });
    const before = query.fetch();
    const invalidated = client.invalidateQueries({ queryKey: ['address'] });
    expect(calls).toHaveLength(2);
    calls[1]!('etter flyttingen');
    await invalidated;
    calls[0]!('før flyttingen, sent før endringen');
    expect(await before).toBe('etter flyttingen');
    expect(client.getQueryData(['address'])).toBe('etter flyttingen');
  });

  it('retries as the retry rule says, waiting 1 s, then 2 s, and gives up with the last error', async () => {
    const retry = vi.fn((failureCount: number) => failureCount < 2);
    const client = new QueryClient({ defaultOptions: { queries: { retry } } });
    const queryFn = answering<string>(new Error('one'), new Error('two'), new Error('three'), 'never');
    const result = client.fetchQuery({ queryKey: ['r'], queryFn }).catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(999);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await result).toBe('three');
    expect(queryFn).toHaveBeenCalledTimes(3);
    expect(retry.mock.calls.map(([count]) => count)).toEqual([0, 1, 2]);
    const query = client.getQueryCache().get(['r']);
    expect(query?.state).toMatchObject({ status: 'error', fetchStatus: 'idle', data: undefined });
    expect(query?.state.error?.message).toBe('three');
  });

  it('fetchQuery does not retry unless the options or the defaults say so; a retry of 1 tries twice', async () => {
    const queryFn = answering<string>(new Error('down'), 'up');
    await expect(new QueryClient().fetchQuery({ queryKey: ['a'], queryFn })).rejects.toThrow('down');
    const twice = new QueryClient().fetchQuery({ queryKey: ['a'], queryFn, retry: 1 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await twice).toBe('up');
  });

  it('forgets an answer nobody shows after gcTime, and keeps one with gcTime Infinity', async () => {
    const client = new QueryClient();
    await client.fetchQuery({ queryKey: ['short'], queryFn: answering(1), gcTime: 1_000 });
    await client.fetchQuery({ queryKey: ['kept'], queryFn: answering(2), gcTime: Infinity });
    vi.advanceTimersByTime(999);
    expect(client.getQueryData(['short'])).toBe(1);
    vi.advanceTimersByTime(1);
    expect(client.getQueryData(['short'])).toBeUndefined();
    vi.advanceTimersByTime(24 * 3_600_000);
    expect(client.getQueryData(['kept'])).toBe(2);
  });

  it('removeQueries forgets the answers, and a fetch running for one does not bring it back', async () => {
    const client = new QueryClient();
    let resolve: (value: string) => void = () => {};
    const running = client.fetchQuery({ queryKey: ['title', 'ADR'], queryFn: () => new Promise<string>((done) => (resolve = done)) });
    client.setQueryData(['title', 'POL'], 'POL');
    client.removeQueries({ queryKey: ['title'] });
    resolve('ADR');
    await running;
    expect(client.getQueryCache().getAll()).toEqual([]);
  });

  it('counts the queries being fetched', async () => {
    const client = new QueryClient();
    const running = client.fetchQuery({ queryKey: ['slow'], queryFn: () => new Promise((done) => setTimeout(done, 100, 'ok')) });
    expect(client.isFetching()).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    await running;
    expect(client.isFetching()).toBe(0);
  });
});
