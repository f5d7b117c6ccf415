import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryRouter,
  createStaticHandler,
  isRouteErrorResponse,
  Link,
  NavLink,
  Outlet,
  redirect,
  RouterProvider,
  useMatches,
  useNavigation,
  useParams,
  useRouteError,
  type RouteObject,
  type Router,
} from './index.ts';

/** A promise the test settles. */
function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function ShowError() {
  const error = useRouteError();
  return <p>Feil: {isRouteErrorResponse(error) ? error.status : error instanceof Error ? error.message : 'ukjent'}</p>;
}

function Shell() {
  const navigation = useNavigation();
  const page = useMatches().at(-1);
  return (
    <div>
      <p>Navigasjon: {navigation.state}</p>
      <p>Side: {page?.id}</p>
      <Outlet />
    </div>
  );
}

function Invoice() {
  const { no } = useParams<'no'>();
  return <h1>Faktura {no}</h1>;
}

function app(children: RouteObject[]): RouteObject[] {
  return [{ id: 'root', Component: Shell, ErrorBoundary: ShowError, HydrateFallback: () => <p>Starter</p>, children }];
}

function show(router: Router) {
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(cleanup);

describe('loaders', () => {
  it('shows the fallback until the first loaders have run, then the page, with its params and handle', async () => {
    const guard = deferred();
    const router = show(createMemoryRouter(app([{ id: 'invoice', path: '/faktura/:no', loader: () => guard.promise, Component: Invoice }]), { initialEntries: ['/faktura/7'] }));
    expect(screen.getByText('Starter')).toBeDefined();
    expect(router.state.initialized).toBe(false);
    await act(() => guard.resolve(null));
    expect(await screen.findByRole('heading', { name: 'Faktura 7' })).toBeDefined();
    expect(screen.getByText('Side: invoice')).toBeDefined();
  });

  it('follows a thrown or returned redirect, keeping neither the redirecting address in the history', async () => {
    const router = show(
      createMemoryRouter(
        app([
          { path: '/gammel', loader: () => redirect('/ny?fra=gammel') },
          { path: '/vakt', loader: () => Promise.reject(redirect('/logg-inn')) },
          { path: '/ny', element: <h1>Ny</h1> },
          { path: '/logg-inn', element: <h1>Logg inn</h1> },
        ]),
        { initialEntries: ['/gammel'] },
      ),
    );
    await screen.findByRole('heading', { name: 'Ny' });
    expect(router.state.location).toMatchObject({ pathname: '/ny', search: '?fra=gammel' });
    // The first load's redirect replaces its address; a later one is a push of where it ends.
    expect(router.state.historyAction).toBe('REPLACE');
    await act(() => router.navigate('/vakt'));
    expect(router.state.location.pathname).toBe('/logg-inn');
    expect(router.state.historyAction).toBe('PUSH');
  });

  it('says it is loading while a navigation waits, and shows only the last of two', async () => {
    const slow = deferred();
    const router = show(
      createMemoryRouter(
        app([
          { path: '/', element: <h1>Start</h1> },
          { path: '/treg', loader: () => slow.promise, element: <h1>Treg</h1> },
          { path: '/rask', loader: () => null, element: <h1>Rask</h1> },
        ]),
      ),
    );
    await screen.findByRole('heading', { name: 'Start' });
    act(() => void router.navigate('/treg'));
    await screen.findByText('Navigasjon: loading');
    expect(router.state.navigation.location?.pathname).toBe('/treg');
    expect(screen.getByRole('heading', { name: 'Start' })).toBeDefined();
    await act(() => router.navigate('/rask'));
    await act(() => slow.resolve(null));
    expect(router.state.location.pathname).toBe('/rask');
    expect(screen.getByText('Navigasjon: idle')).toBeDefined();
  });

  it('aborts the request of a navigation that a newer one replaced', async () => {
    let signal: AbortSignal | undefined;
    const router = show(
      createMemoryRouter(
        app([
          { path: '/', element: <h1>Start</h1> },
          { path: '/aldri', loader: ({ request }) => ((signal = request.signal), new Promise(() => {})) },
        ]),
      ),
    );
    await screen.findByRole('heading', { name: 'Start' });
    act(() => void router.navigate('/aldri'));
    await act(() => router.navigate('/'));
    expect(signal?.aborted).toBe(true);
  });
});

describe('lazy routes', () => {
  it('loads the route module with the loader, before the page renders', async () => {
    const module = deferred<{ Component: () => ReactElement }>();
    const lazy = vi.fn(() => module.promise);
    const router = show(
      createMemoryRouter(
        app([
          { path: '/', element: <h1>Start</h1> },
          { path: '/lat', loader: () => null, lazy },
        ]),
      ),
    );
    await screen.findByRole('heading', { name: 'Start' });
    act(() => void router.navigate('/lat'));
    await screen.findByText('Navigasjon: loading');
    await act(() => module.resolve({ Component: () => <h1>Lat</h1> }));
    expect(await screen.findByRole('heading', { name: 'Lat' })).toBeDefined();
    await act(() => router.navigate('/'));
    await act(() => router.navigate('/lat'));
    expect(lazy).toHaveBeenCalledTimes(1);
  });

  it('shows a failed module load in the error boundary, and tries again on the next visit', async () => {
    const lazy = vi
      .fn<() => Promise<{ Component: () => ReactElement }>>()
      .mockRejectedValueOnce(new Error('chunk'))
      .mockResolvedValue({ Component: () => <h1>Lat</h1> });
    const router = show(
      createMemoryRouter(
        app([
          { path: '/', element: <h1>Start</h1> },
          { path: '/lat', lazy, ErrorBoundary: ShowError },
        ]),
      ),
    );
    await screen.findByRole('heading', { name: 'Start' });
    await act(() => router.navigate('/lat'));
    expect(screen.getByText('Feil: chunk')).toBeDefined();
    await act(() => router.navigate('/lat'));
    expect(await screen.findByRole('heading', { name: 'Lat' })).toBeDefined();
  });
});

describe('errors', () => {
  function Broken(): ReactElement {
    throw new Error('render');
  }

  it('shows a loader error in the route’s boundary inside the shell, or the root’s where the route has none', async () => {
    const fail = () => Promise.reject(new Error('loader'));
    const router = show(
      createMemoryRouter(
        app([
          { path: '/', element: <h1>Start</h1> },
          { path: '/a', loader: fail, ErrorBoundary: () => <p>Sidefeil</p> },
          { path: '/b', loader: fail },
        ]),
      ),
    );
    await screen.findByRole('heading', { name: 'Start' });
    await act(() => router.navigate('/a'));
    expect(screen.getByText('Sidefeil')).toBeDefined();
    expect(screen.getByText('Side: root-1')).toBeDefined();
    expect(router.state.errors).toEqual({ 'root-1': new Error('loader') });
    await act(() => router.navigate('/b'));
    expect(screen.getByText('Feil: loader')).toBeDefined();
    expect(screen.queryByText(/^Side:/)).toBeNull();
  });

  it('catches a render error in the route’s boundary, and renders the route again after a navigation', async () => {
    const router = show(
      createMemoryRouter(
        app([
          { path: '/', element: <h1>Start</h1> },
          { path: '/knekt', Component: Broken, ErrorBoundary: ShowError },
        ]),
        { initialEntries: ['/knekt'] },
      ),
    );
    expect(await screen.findByText('Feil: render')).toBeDefined();
    expect(screen.getByText('Side: root-1')).toBeDefined();
    await act(() => router.navigate('/'));
    expect(screen.getByRole('heading', { name: 'Start' })).toBeDefined();
  });

  it('answers a path no route has with a 404 error response', async () => {
    show(createMemoryRouter(app([{ path: '/', element: <h1>Start</h1> }]), { initialEntries: ['/finnes-ikke'] }));
    expect(await screen.findByText('Feil: 404')).toBeDefined();
  });
});

describe('Link and NavLink', () => {
  it('follows a plain click itself, with state, and leaves a click with a modifier to the browser', async () => {
    const router = show(
      createMemoryRouter(
        app([
          {
            path: '/',
            element: (
              <Link to="/kundeservice?fra=forsiden" state={{ hei: 1 }}>
                Kundeservice
              </Link>
            ),
          },
          { path: '/kundeservice', element: <h1>Kundeservice</h1> },
        ]),
      ),
    );
    const link = await screen.findByRole('link', { name: 'Kundeservice' });
    expect(link.getAttribute('href')).toBe('/kundeservice?fra=forsiden');
    const modified = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    link.dispatchEvent(modified);
    expect(router.state.location.pathname).toBe('/');
    fireEvent.click(link);
    await screen.findByRole('heading', { name: 'Kundeservice' });
    expect(router.state.location).toMatchObject({ pathname: '/kundeservice', search: '?fra=forsiden', state: { hei: 1 } });
    expect(router.state.historyAction).toBe('PUSH');
  });

  it('leaves a link to another site to the browser', async () => {
    const router = show(createMemoryRouter(app([{ path: '/', element: <Link to="https://www.adressa.no/eavis/">eAvisen</Link> }])));
    const link = await screen.findByRole('link', { name: 'eAvisen' });
    expect(link.getAttribute('href')).toBe('https://www.adressa.no/eavis/');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
    expect(router.state.location.pathname).toBe('/');
  });

  it('replaces rather than pushes a link to where the browser already is, and marks the current NavLink', async () => {
    const classOf = ({ isActive }: { isActive: boolean }) => (isActive ? 'aktiv' : undefined);
    const router = show(
      createMemoryRouter(
        app([
          {
            path: '/vilkaar/*',
            element: (
              <nav>
                <NavLink to="/vilkaar" className={classOf}>
                  Vilkår
                </NavLink>
                <NavLink to="/vilkaar" end className={classOf}>
                  Bare vilkår
                </NavLink>
                <Link to="/vilkaar/bedrift">Bedrift</Link>
              </nav>
            ),
          },
        ]),
        { initialEntries: ['/vilkaar/bedrift'] },
      ),
    );
    expect((await screen.findByRole('link', { name: 'Vilkår' })).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Vilkår' }).className).toBe('aktiv');
    expect(screen.getByRole('link', { name: 'Bare vilkår' }).getAttribute('aria-current')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Bedrift' }));
    await vi.waitFor(() => expect(router.state.historyAction).toBe('REPLACE'));
  });
});

describe('static handler (server render)', () => {
  const routes = () =>
    app([
      { path: '/gammel', loader: () => redirect('/ny') },
      { id: 'ny', path: '/ny', loader: () => null, lazy: async () => ({ Component: () => <h1>Ny</h1> }) },
    ]);

  it('answers a redirecting loader with a redirect Response', async () => {
    const result = await createStaticHandler(routes()).query(new Request('https://minside.test/gammel'));
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).headers.get('Location')).toBe('/ny');
  });

  it('answers a page with its matches, its lazy module loaded', async () => {
    const handler = createStaticHandler(routes());
    const context = await handler.query(new Request('https://minside.test/ny?x=1'));
    if (context instanceof Response) throw new Error('expected a page');
    expect(context.errors).toBeNull();
    expect(context.location).toMatchObject({ pathname: '/ny', search: '?x=1' });
    expect(context.matches.map((match) => match.id)).toEqual(['root', 'ny']);
    expect(context.matches.at(-1)?.route.Component).toBeTypeOf('function');
  });
});
