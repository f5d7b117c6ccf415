// The app's own data router (docs/decisions/034): the part of React Router's API that Min Side
// uses, with its names, in a few KB.
export { createBrowserRouter } from './browser.ts';
export {
  isPlainClick,
  Link,
  NavLink,
  Outlet,
  RouterProvider,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigate,
  useNavigation,
  useParams,
  useRouteError,
  useSearchParams,
} from './components.tsx';
export { generatePath, matchPath } from './match.ts';
export { createMemoryRouter, MemoryRouter, Route, Routes } from './memory.tsx';
export { isRouteErrorResponse, redirect } from './router.ts';
export { createStaticHandler, createStaticRouter, StaticRouterProvider } from './static.tsx';
export type { LoaderFunction, RouteObject, Router } from './types.ts';
