import { useEffect, useRef } from 'react';
import { useLocation, useMatches } from '../lib/router/index.ts';
import { spinner } from '../lib/spinner.ts';
import { pageTypeOf, shouldTrackPageView, trackPageView } from '../lib/tracking/index.ts';

/**
 * SPEC §4 step 6, after each route: stop the spinner and track a page view with the
 * lowercased page type (the route's key), except on /callback. Analytics holds the view
 * until analytics consent (lib/tracking). Also moves focus to the new page's h1 so screen-reader and
 * keyboard users start at the new content. Render it before the <Outlet/>: its effects then
 * run before the page's own, so a page may start the spinner again as it mounts.
 */
export function AfterEachRoute() {
  const location = useLocation();
  const matches = useMatches();
  const focusedPath = useRef(location.pathname);
  const page = matches.at(-1);

  useEffect(() => {
    spinner.stop();
    if (!shouldTrackPageView(location.pathname)) return;
    trackPageView(pageTypeOf(page?.id ?? 'unknown'), { href: window.location.href, search: location.search, params: page?.params ?? {} });
    // One view per navigation: the location key changes exactly then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);

  useEffect(() => {
    // Not on first load: the browser's own start position is right there.
    if (focusedPath.current === location.pathname) return;
    focusedPath.current = location.pathname;
    const heading = document.querySelector<HTMLElement>('main h1');
    // Without scrolling: <ScrollRestoration> has put the page where it belongs (back to where it was, on Back).
    (heading ?? document.getElementById('main'))?.focus({ preventScroll: true });
  }, [location.pathname]);

  return null;
}
