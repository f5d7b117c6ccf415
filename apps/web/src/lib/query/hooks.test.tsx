import { systemClock } from '@minside/domain';
import { act, cleanup, render, screen } from '@testing-library/preact';
import { Suspense, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider, useInfiniteQuery, useIsFetching, useQuery, useSuspenseQuery, type QueryOptions } from './index.ts';

afterEach(cleanup);

/** A call the test answers by hand. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: Error) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The refetch of the last Shows rendered. */
let refetch: () => Promise<unknown> = async () => {};

function Shows({ options, label = 'x' }: { options: QueryOptions<string>; label?: string }) {
  const query = useQuery(options);
  refetch = query.refetch;
  return <p data-testid={label}>{`${query.status}/${query.fetchStatus}/${query.isLoading ? 'loading' : ''}/${query.data ?? ''}/${query.error?.message ?? ''}`}</p>;
}

const withClient = (client: QueryClient, children: ReactNode) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
const text = (label = 'x') => screen.getByTestId(label).textContent;

describe('useQuery', () => {
  it('loads once for every component that shows the same key, and shows the answer in each', async () => {
    const client = new QueryClient();
    const call = deferred<string>();
    const queryFn = vi.fn(() => call.promise);
    render(withClient(client, [<Shows key="a" label="a" options={{ queryKey: ['k'], queryFn }} />, <Shows key="b" label="b" options={{ queryKey: ['k'], queryFn }} />]));
    // render() runs the effects: the fetch has started.
    expect(text('a')).toBe('pending/fetching/loading//');
    await act(() => call.resolve('svar'));
    await vi.waitFor(() => expect([text('a'), text('b')]).toEqual(['success/idle//svar/', 'success/idle//svar/']));
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('shows a stale answer at once and fetches it again (stale-while-revalidate); a fresh one is not fetched', async () => {
    const client = new QueryClient();
    client.setQueryData(['stale'], 'gammel', { updatedAt: 0 });
    client.setQueryData(['fresh'], 'fersk');
    const call = deferred<string>();
    const queryFn = vi.fn(() => call.promise);
    render(
      withClient(client, [
        <Shows key="s" label="s" options={{ queryKey: ['stale'], queryFn, staleTime: 60_000 }} />,
        <Shows key="f" label="f" options={{ queryKey: ['fresh'], queryFn, staleTime: 60_000 }} />,
      ]),
    );
    expect(text('s')).toBe('success/fetching//gammel/');
    await act(() => call.resolve('ny'));
    await vi.waitFor(() => expect(text('s')).toBe('success/idle//ny/'));
    expect(text('f')).toBe('success/idle//fersk/');
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('with enabled false: does not fetch, is pending but not loading; fetches once enabled', async () => {
    const client = new QueryClient();
    const queryFn = vi.fn(async () => 'svar');
    const { rerender } = render(withClient(client, <Shows options={{ queryKey: ['e'], queryFn, enabled: false }} />));
    await act(async () => {});
    expect(text()).toBe('pending/idle///');
    expect(queryFn).not.toHaveBeenCalled();
    rerender(withClient(client, <Shows options={{ queryKey: ['e'], queryFn, enabled: true }} />));
    await vi.waitFor(() => expect(text()).toBe('success/idle//svar/'));
  });

  it('shows the error once retries are spent, keeps the answer it had when a refetch fails', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const queryFn = vi.fn<() => Promise<string>>().mockRejectedValueOnce(new Error('nede')).mockResolvedValueOnce('oppe').mockRejectedValueOnce(new Error('nede igjen'));
    render(withClient(client, <Shows options={{ queryKey: ['f'], queryFn }} />));
    await vi.waitFor(() => expect(text()).toBe('error/idle///nede'));
    await act(async () => {
      await refetch();
    });
    expect(text()).toBe('success/idle//oppe/');
    await act(async () => {
      await refetch();
    });
    expect(text()).toBe('error/idle//oppe/nede igjen');
  });

  it('invalidation fetches again the queries shown, not those no mounted hook fetches; resolves when they are in', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    client.setQueryData(['delivery', 'ADR', 'calendar'], 'før');
    client.setQueryData(['delivery', 'ADR', 'changes'], 'før');
    const shown = vi.fn(async () => 'etter');
    const disabled = vi.fn(async () => 'etter');
    render(
      withClient(client, [
        <Shows key="s" label="s" options={{ queryKey: ['delivery', 'ADR', 'calendar'], queryFn: shown }} />,
        <Shows key="d" label="d" options={{ queryKey: ['delivery', 'ADR', 'changes'], queryFn: disabled, enabled: false }} />,
      ]),
    );
    await act(() => client.invalidateQueries({ queryKey: ['delivery', 'ADR'] }));
    expect(text('s')).toBe('success/idle//etter/');
    expect(text('d')).toBe('success/idle//før/');
    expect(disabled).not.toHaveBeenCalled();
  });

  it('polls while refetchInterval says so, and stops when it says false', async () => {
    const client = new QueryClient();
    const queryFn = vi.fn<() => Promise<string>>().mockResolvedValueOnce('venter').mockResolvedValueOnce('venter').mockResolvedValue('betalt');
    render(withClient(client, <Shows options={{ queryKey: ['p'], queryFn, refetchInterval: (query) => (query.state.data === 'venter' ? 20 : false) }} />));
    await vi.waitFor(() => expect(text()).toBe('success/idle//betalt/'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(queryFn).toHaveBeenCalledTimes(3);
  });

  it('back online, fetches again what is shown and stale (an error with no answer is), not what is fresh', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(['fresh'], 'fersk');
    const failing = vi.fn<() => Promise<string>>().mockRejectedValueOnce(new Error('Ingen nettforbindelse')).mockResolvedValue('svar');
    const fresh = vi.fn(async () => 'ny');
    render(
      withClient(client, [
        <Shows key="e" label="e" options={{ queryKey: ['e'], queryFn: failing }} />,
        <Shows key="f" label="f" options={{ queryKey: ['fresh'], queryFn: fresh, staleTime: 60_000 }} />,
      ]),
    );
    await vi.waitFor(() => expect(text('e')).toBe('error/idle///Ingen nettforbindelse'));
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await vi.waitFor(() => expect(text('e')).toBe('success/idle//svar/'));
    expect(fresh).not.toHaveBeenCalled();
  });

  it('useIsFetching counts the queries being fetched', async () => {
    const client = new QueryClient();
    const call = deferred<string>();
    function Count() {
      return <p data-testid="n">{useIsFetching()}</p>;
    }
    render(withClient(client, [<Count key="n" />, <Shows key="x" options={{ queryKey: ['c'], queryFn: () => call.promise }} />]));
    await vi.waitFor(() => expect(text('n')).toBe('1'));
    await act(() => call.resolve('ok'));
    await vi.waitFor(() => expect(text('n')).toBe('0'));
  });
});

describe('useSuspenseQuery', () => {
  it('suspends until the answer is there, then renders it', async () => {
    const client = new QueryClient();
    const call = deferred<string>();
    function Title() {
      return <p data-testid="x">{useSuspenseQuery({ queryKey: ['title'], queryFn: () => call.promise }).data}</p>;
    }
    render(withClient(client, <Suspense fallback={<p data-testid="x">venter</p>}>{<Title />}</Suspense>));
    expect(text()).toBe('venter');
    call.resolve('Adresseavisen');
    await vi.waitFor(() => expect(text()).toBe('Adresseavisen'));
  });
});

describe('useInfiniteQuery', () => {
  it('adds a page with fetchNextPage while there is one, and refetches every page shown when invalidated', async () => {
    const client = new QueryClient();
    const queryFn = vi.fn(async ({ pageParam }: { pageParam: number }) => ({ items: [`${pageParam}a`, `${pageParam}b`], next: pageParam < 2 ? pageParam + 1 : null }));
    let latest: ReturnType<typeof useInfiniteQuery<{ items: string[]; next: number | null }, string[], number>> | undefined;
    function List() {
      latest = useInfiniteQuery({ queryKey: ['list'], queryFn, initialPageParam: 1, getNextPageParam: (last) => last.next });
      return <p data-testid="x">{latest.data?.pages.flatMap((page) => page.items).join(',')}</p>;
    }
    render(withClient(client, <List />));
    await vi.waitFor(() => expect(text()).toBe('1a,1b'));
    expect(latest?.hasNextPage).toBe(true);
    await act(() => latest!.fetchNextPage());
    expect(text()).toBe('1a,1b,2a,2b');
    expect(latest?.hasNextPage).toBe(false);
    queryFn.mockClear();
    await act(() => client.invalidateQueries({ queryKey: ['list'] }));
    expect(queryFn.mock.calls.map(([context]) => context.pageParam)).toEqual([1, 2]);
  });
});

describe('on the server and while hydrating (docs/decisions/032)', () => {
  it('a server render shows what the cache has, and leaves what it lacks in the cache as asked for, unfetched', () => {
    const client = new QueryClient();
    client.setQueryData(['seeded'], 'fra serveren');
    const queryFn = vi.fn(async () => 'aldri');
    const html = renderToString(withClient(client, [<Shows key="a" label="a" options={{ queryKey: ['seeded'], queryFn }} />, <Shows key="b" label="b" options={{ queryKey: ['asked'], queryFn }} />]));
    expect(html).toContain('success/idle//fra serveren/');
    expect(html).toContain('pending/idle///');
    const asked = client.getQueryCache().get(['asked']);
    expect(asked?.state).toMatchObject({ status: 'pending', fetchStatus: 'idle' });
    expect(asked?.options.queryFn).toBe(queryFn);
    expect(queryFn).not.toHaveBeenCalled();
  });

  it('the browser, seeded with the server’s answers, hydrates to the same markup and does not fetch a fresh answer', async () => {
    const seed = (client: QueryClient) => client.setQueryData(['faq'], 'svarene', { updatedAt: systemClock().getTime() });
    const queryFn = vi.fn(async () => 'nye svar');
    const tree = (client: QueryClient) => withClient(client, <Shows options={{ queryKey: ['faq'], queryFn, staleTime: 60_000 }} />);
    const server = new QueryClient();
    seed(server);
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(tree(server));
    const before = container.innerHTML;
    const browser = new QueryClient();
    seed(browser);
    await act(() => {
      hydrateRoot(container, tree(browser));
    });
    expect(container.innerHTML).toBe(before);
    expect(queryFn).not.toHaveBeenCalled();
    container.remove();
  });
});
