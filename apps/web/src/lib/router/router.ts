import { flattenRoutes, matchRoutes, type RouteMatch } from './match.ts';
import type { HistoryAction, Location, NavigateOptions, RouteObject, Router, RouterState, ScrollMemory } from './types.ts';

/** A loader's answer that sends the navigation elsewhere: thrown or returned, as React Router's. */
export function redirect(url: string, status = 302): Response {
  return new Response(null, { status, headers: { Location: url } });
}

/** A Response a loader threw that is not a redirect, or a path no route matches (404). */
export class ErrorResponse {
  constructor(
    readonly status: number,
    readonly statusText: string,
  ) {}
}

export function isRouteErrorResponse(error: unknown): error is ErrorResponse {
  return error instanceof ErrorResponse;
}

const redirectTarget = (value: unknown): string | null => (value instanceof Response && value.status >= 300 && value.status < 400 ? value.headers.get('Location') : null);

export const createPath = ({ pathname, search, hash }: Pick<Location, 'pathname' | 'search' | 'hash'>): string => pathname + search + hash;

export const createKey = (): string => Math.random().toString(36).slice(2, 10);

/** `to` (absolute, or relative to `from`) as a new location. */
export function createLocation(to: string, from: Pick<Location, 'pathname' | 'search' | 'hash'>, state: unknown = null, key = createKey()): Location {
  const url = new URL(to, `http://router${createPath(from)}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash, state, key };
}

const lazyLoads = new WeakMap<RouteObject, Promise<void>>();

/** Loads a route's lazy part once; a failed load (a chunk while offline) is tried again next time. */
function loadLazy(route: RouteObject): Promise<void> | undefined {
  if (!route.lazy) return undefined;
  let loading = lazyLoads.get(route);
  if (!loading) {
    loading = route.lazy().then(
      (props) => void Object.assign(route, props, { lazy: undefined }),
      (error: unknown) => {
        lazyLoads.delete(route);
        throw error;
      },
    );
    lazyLoads.set(route, loading);
  }
  return loading;
}

export interface Settled {
  /** Where the first redirecting loader (outermost first) sends the navigation. */
  redirect: string | null;
  errors: Record<string, unknown> | null;
}

/** The id of the route whose ErrorBoundary shows an error of `matches[index]`: it, or the nearest ancestor with one. */
function boundaryOf(matches: RouteMatch[], index: number): string {
  for (let at = index; at >= 0; at -= 1) if (matches[at]!.route.ErrorBoundary) return matches[at]!.id;
  return matches[0]!.id;
}

/** Runs the matched routes' loaders and lazy modules together, as React Router does. */
export async function settle(matches: RouteMatch[], request: Request): Promise<Settled> {
  const results = await Promise.allSettled(matches.map(async ({ route, params }) => (await Promise.all([route.loader?.({ request, params }), loadLazy(route)]))[0]));
  let target: string | null = null;
  let errors: Record<string, unknown> | null = null;
  results.forEach((result, index) => {
    const value: unknown = result.status === 'fulfilled' ? result.value : result.reason;
    target ??= redirectTarget(value);
    if (result.status === 'fulfilled' || redirectTarget(value) !== null) return;
    const error = value instanceof Response ? new ErrorResponse(value.status, value.statusText) : value;
    errors ??= {};
    errors[boundaryOf(matches, index)] ??= error;
  });
  return { redirect: target, errors };
}

/** No route matches: the first route shows a 404, as React Router's. */
export function notFound(routes: RouteObject[]): { matches: RouteMatch[]; errors: Record<string, unknown> } {
  const route = routes[0]!;
  return { matches: [{ id: route.id!, route, pathname: '', params: {}, handle: route.handle }], errors: { [route.id!]: new ErrorResponse(404, 'Not Found') } };
}

/** Where a router keeps its locations: the browser's history (browser.ts) or an array (memory.ts). */
export interface RouterHistory {
  readonly location: Location;
  /** The origin of the requests the loaders get. */
  readonly origin: string;
  push(location: Location): void;
  replace(location: Location): void;
  /** Calls `onPop` with the location the user went back or forward to. */
  listen(onPop: (location: Location) => void): void;
  createHref(location: Location): string;
}

const idle = { state: 'idle' } as const;

/** More redirects in a row than this is a loop between loaders; the last is shown as an error. */
const MAX_REDIRECTS = 20;

export function createRouter(routes: RouteObject[], history: RouterHistory, scroll?: ScrollMemory): Router {
  const branches = flattenRoutes(routes);
  const listeners = new Set<(state: RouterState) => void>();
  let state: RouterState = { initialized: false, historyAction: 'POP', location: history.location, matches: [], navigation: idle, errors: null };
  let pending: AbortController | undefined;

  function update(next: Partial<RouterState>): void {
    state = { ...state, ...next };
    for (const listener of [...listeners]) listener(state);
  }

  function commit(location: Location, action: HistoryAction, matches: RouteMatch[], errors: Record<string, unknown> | null): void {
    pending = undefined;
    if (action === 'PUSH') history.push(location);
    if (action === 'REPLACE') history.replace(location);
    update({ initialized: true, historyAction: action, location, matches, navigation: idle, errors });
  }

  async function load(location: Location, action: HistoryAction, redirects = 0): Promise<void> {
    pending?.abort();
    const controller = new AbortController();
    pending = controller;
    const current = state.location;
    // A new hash on the same page: nothing to load, the page only scrolls (as React Router's).
    if (state.initialized && location.hash !== '' && location.pathname === current.pathname && location.search === current.search) {
      return commit(location, action, state.matches, state.errors);
    }
    const matches = matchRoutes(branches, location.pathname);
    if (matches.length === 0) {
      const missing = notFound(routes);
      return commit(location, action, missing.matches, missing.errors);
    }
    // Nothing to wait for (a table without loaders, as tests have): the location changes at once.
    if (!matches.some(({ route }) => route.loader || route.lazy)) return commit(location, action, matches, null);
    if (state.initialized) update({ navigation: { state: 'loading', location } });
    const request = new Request(new URL(createPath({ ...location, hash: '' }), history.origin), { signal: controller.signal });
    const { redirect: target, errors } = await settle(matches, request);
    // A newer navigation has started: this one's result is not shown.
    if (pending !== controller) return;
    if (target !== null && redirects < MAX_REDIRECTS) {
      if (!target.startsWith('/')) {
        window.location.assign(target);
        return;
      }
      const next = createLocation(target, location);
      // The first load's redirect replaces the address it was for, so Back does not land on it again.
      const replace = action === 'REPLACE' || !state.initialized || createPath(next) === createPath(current);
      return load(next, replace ? 'REPLACE' : 'PUSH', redirects + 1);
    }
    commit(location, action, matches, errors ?? (target === null ? null : { [matches[0]!.id]: new Error(`Too many redirects (at ${target})`) }));
  }

  history.listen((location) => {
    if (state.initialized) scroll?.save(state.location.key);
    void load(location, 'POP');
  });
  void load(history.location, 'POP');

  return {
    routes,
    get state() {
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    navigate(to, { replace = false, state: locationState = null }: NavigateOptions = {}) {
      if (state.initialized) scroll?.save(state.location.key);
      return load(createLocation(to, state.location, locationState), replace ? 'REPLACE' : 'PUSH');
    },
    createHref: (to) => history.createHref(createLocation(to, state.location)),
    scroll,
  };
}
