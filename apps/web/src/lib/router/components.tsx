import { Component, createContext, useCallback, useContext, useLayoutEffect, useMemo, useRef, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import type { RouteMatch } from './match.ts';
import { createPath } from './router.ts';
import type { Location, Navigation, NavigateOptions, Router, RouterState } from './types.ts';

interface RouterContextValue {
  router: Router;
  state: RouterState;
}

const RouterContext = createContext<RouterContextValue | null>(null);

/** The match being rendered (its index in the state's matches) and the error its boundary shows. */
const RouteContext = createContext<{ index: number; error?: unknown }>({ index: -1 });

function useRouterContext(): RouterContextValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('A router hook was used outside a <RouterProvider>');
  return value;
}

/** Renders the router's matches; before the first load has finished, the outermost route's HydrateFallback. */
export function RouterProvider({ router }: { router: Router }) {
  const state = useSyncExternalStore(
    router.subscribe,
    () => router.state,
    () => router.state,
  );
  const value = useMemo(() => ({ router, state }), [router, state]);
  const Fallback = router.routes[0]?.HydrateFallback;
  return <RouterContext.Provider value={value}>{state.initialized ? <Outlet /> : Fallback ? <Fallback /> : null}</RouterContext.Provider>;
}

interface ErrorBoundaryProps {
  location: Location;
  index: number;
  children: ReactNode;
}

/** Catches a route's render errors and shows its ErrorBoundary instead; a new location tries the route again. */
class RenderErrorBoundary extends Component<ErrorBoundaryProps, { caught: { error: unknown } | null; location: Location }> {
  override state = { caught: null, location: this.props.location };

  static getDerivedStateFromError(error: unknown) {
    return { caught: { error } };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: { location: Location }) {
    return props.location === state.location ? null : { caught: null, location: props.location };
  }

  override render() {
    const { caught } = this.state as { caught: { error: unknown } | null };
    return caught ? <RouteBoundary index={this.props.index} error={caught.error} /> : this.props.children;
  }
}

function RouteBoundary({ index, error }: { index: number; error: unknown }) {
  const { state } = useRouterContext();
  const Boundary = state.matches[index]?.route.ErrorBoundary;
  return <RouteContext.Provider value={{ index, error }}>{Boundary ? <Boundary /> : null}</RouteContext.Provider>;
}

function RenderMatch({ index }: { index: number }) {
  const { state } = useRouterContext();
  const match = state.matches[index];
  if (!match) return null;
  const { route } = match;
  if (state.errors && match.id in state.errors) return <RouteBoundary index={index} error={state.errors[match.id]} />;
  const content = route.Component ? <route.Component /> : route.element === undefined ? <Outlet /> : route.element;
  return (
    <RouteContext.Provider value={{ index }}>
      {route.ErrorBoundary ? (
        <RenderErrorBoundary location={state.location} index={index}>
          {content}
        </RenderErrorBoundary>
      ) : (
        content
      )}
    </RouteContext.Provider>
  );
}

/** Where a route renders the route matched below it. */
export function Outlet() {
  return <RenderMatch index={useContext(RouteContext).index + 1} />;
}

export const useLocation = (): Location => useRouterContext().state.location;

export const useNavigation = (): Navigation => useRouterContext().state.navigation;

/** The matched routes, outermost first, each with its id, params and `handle`. */
export const useMatches = (): RouteMatch[] => useRouterContext().state.matches;

export const useParams = <Key extends string = string>(): Readonly<Partial<Record<Key, string>>> => (useRouterContext().state.matches.at(-1)?.params ?? {}) as Readonly<Partial<Record<Key, string>>>;

/** The error the nearest ErrorBoundary shows. */
export const useRouteError = (): unknown => useContext(RouteContext).error;

export function useNavigate(): (to: string, options?: NavigateOptions) => void | Promise<void> {
  const { router } = useRouterContext();
  return useCallback((to: string, options?: NavigateOptions) => router.navigate(to, options), [router]);
}

/** The query string of the location (read only: no page sets it through the router). */
export function useSearchParams(): readonly [URLSearchParams] {
  const { search } = useLocation();
  return useMemo(() => [new URLSearchParams(search)] as const, [search]);
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  /** Default: replace when the link goes where the browser already is (as React Router's). */
  replace?: boolean;
  state?: unknown;
}

/** A plain left click, no modifier key: the one a page may take over; any other (a new tab, a download) stays the browser's. */
export function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/** An `<a>` the router follows itself on a plain click; a click with a modifier key, or another target, stays the browser's. */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const { router, state: routerState } = useRouterContext();
  // Another site's address (a scheme, or `//`): the browser's to follow.
  const external = /^(?:[a-z][\w+.-]*:|\/\/)/i.test(to);
  const href = external ? to : router.createHref(to);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (external || !isPlainClick(event) || (target && target !== '_self')) return;
    event.preventDefault();
    void router.navigate(to, { replace: replace ?? createPath(routerState.location) === href, state });
  };
  return <a {...rest} href={href} target={target} onClick={follow} />;
}

export interface NavLinkProps extends Omit<LinkProps, 'className'> {
  /** Active only on exactly its path, not on the paths below it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string | undefined);
}

/** A Link that knows whether it is the current page (`aria-current="page"`, and the class it is given for that). */
export function NavLink({ to, end = false, className, ...rest }: NavLinkProps) {
  const pathname = useLocation().pathname.toLowerCase();
  const target = new URL(to, 'http://router').pathname.toLowerCase();
  const isActive = pathname === target || (!end && pathname.startsWith(target) && pathname.charAt(target.endsWith('/') ? target.length - 1 : target.length) === '/');
  return <Link {...rest} to={to} aria-current={isActive ? 'page' : undefined} className={typeof className === 'function' ? className({ isActive }) : className} />;
}

/** Scrolls after each navigation: back and forward to where the page was, a hash to its element, anything else to the top. */
export function ScrollRestoration() {
  const { router, state } = useRouterContext();
  const initial = useRef(true);
  useLayoutEffect(() => {
    router.scroll?.restore(state.location, state.historyAction, initial.current);
    initial.current = false;
    // Once per navigation: the location key changes exactly then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.location.key]);
  return null;
}
