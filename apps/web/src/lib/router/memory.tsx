import { Children, createContext, useContext, useState, type ReactElement, type ReactNode } from 'react';
import { RouterProvider, useLocation } from './components.tsx';
import { matchPath } from './match.ts';
import { createLocation, createPath, createRouter, type RouterHistory } from './router.ts';
import type { Location, RouteObject, Router } from './types.ts';

export interface MemoryRouterOptions {
  /** The history's entries (default `['/']`). */
  initialEntries?: string[];
  /** The entry the router starts on (default the last). */
  initialIndex?: number;
}

/** History in an array, for tests: push and replace; nothing goes back (no test does). */
function memoryHistory({ initialEntries = ['/'], initialIndex }: MemoryRouterOptions): RouterHistory {
  const root = { pathname: '/', search: '', hash: '' };
  let entries: Location[] = initialEntries.map((entry) => createLocation(entry, root));
  let at = initialIndex ?? entries.length - 1;
  return {
    get location() {
      return entries[at]!;
    },
    origin: 'http://localhost',
    push(location) {
      entries = [...entries.slice(0, at + 1), location];
      at = entries.length - 1;
    },
    replace: (location) => void (entries[at] = location),
    listen: () => {},
    createHref: createPath,
  };
}

/** A router for tests: the app's routes, loaders and all, without the browser's address. */
export function createMemoryRouter(routes: RouteObject[], options: MemoryRouterOptions = {}): Router {
  return createRouter(routes, memoryHistory(options));
}

const ChildrenContext = createContext<ReactNode>(null);

function RouterChildren() {
  return <>{useContext(ChildrenContext)}</>;
}

/** Renders its children at a location, for tests of a component that links, navigates or reads the address. */
export function MemoryRouter({ initialEntries, children }: { initialEntries?: string[]; children?: ReactNode }) {
  const [router] = useState(() => createMemoryRouter([{ path: '*', Component: RouterChildren }], { initialEntries }));
  return (
    <ChildrenContext.Provider value={children}>
      <RouterProvider router={router} />
    </ChildrenContext.Provider>
  );
}

interface RouteProps {
  path: string;
  element: ReactNode;
}

/** One path of a <Routes>: it renders nothing itself. */
export function Route(props: RouteProps): null {
  void props;
  return null;
}

/** Renders the element of the first <Route> whose path matches the location (tests that navigate between two pages). */
export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const match = (Children.toArray(children) as Array<ReactElement<RouteProps>>).find((route) => matchPath(route.props.path, pathname));
  return match ? <>{match.props.element}</> : null;
}
