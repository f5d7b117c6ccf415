import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { spinner } from '../lib/spinner.ts';

/**
 * SPEC §4 step 6, after each route: stop the spinner (and, with the tracking issue, track a
 * page view except on /callback). Also moves focus to the new page's h1 so screen-reader and
 * keyboard users start at the new content. Render it before the <Outlet/>: its effects then
 * run before the page's own, so a page may start the spinner again as it mounts.
 */
export function AfterEachRoute() {
  const location = useLocation();
  const focusedPath = useRef(location.pathname);

  useEffect(() => {
    spinner.stop();
  }, [location.key]);

  useEffect(() => {
    // Not on first load: the browser's own start position is right there.
    if (focusedPath.current === location.pathname) return;
    focusedPath.current = location.pathname;
    const heading = document.querySelector<HTMLElement>('main h1');
    (heading ?? document.getElementById('main'))?.focus();
  }, [location.pathname]);

  return null;
}
