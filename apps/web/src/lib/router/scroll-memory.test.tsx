import { act, cleanup, render, screen } from '@testing-library/preact';
import { useState, type ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createBrowserRouter, Outlet, RouterProvider, ScrollRestoration } from './index.ts';

const SCROLL_STORAGE_KEY = 'minside-scroll-positions';

function DefaultLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** A browser router on `/start` and `/a`, rendered with `Layout` around the pages. */
function startRouter(Layout: () => ReactElement = DefaultLayout) {
  const router = createBrowserRouter([
    {
      Component: Layout,
      children: [
        { path: '/start', loader: () => null, element: <h1>Start</h1> },
        { path: '/a', loader: () => null, element: <h1>A</h1> },
      ],
    },
  ]);
  render(<RouterProvider router={router} />);
  return router;
}

let scrollTo: MockInstance<typeof window.scrollTo>;
beforeEach(() => {
  scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('the scroll memory on a page load', () => {
  it('returns a reloaded page to where it was scrolled, from the positions kept in sessionStorage', async () => {
    sessionStorage.setItem(SCROLL_STORAGE_KEY, JSON.stringify({ lest: 640 }));
    window.history.replaceState({ key: 'lest' }, '', '/start');
    startRouter();
    await screen.findByRole('heading', { name: 'Start' });
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640);
  });

  it('does not open sessionStorage for a page loaded into a new history entry, which has no position yet', async () => {
    sessionStorage.setItem(SCROLL_STORAGE_KEY, JSON.stringify({ lest: 640 }));
    window.history.replaceState(null, '', '/start');
    const getItem = vi.spyOn(Storage.prototype, 'getItem');
    startRouter();
    await screen.findByRole('heading', { name: 'Start' });
    expect(getItem).not.toHaveBeenCalledWith(SCROLL_STORAGE_KEY);
    expect(scrollTo).not.toHaveBeenCalled();
    // Leaving the page still keeps its position, beside the others, for a reload or Back.
    window.dispatchEvent(new Event('pagehide'));
    expect(Object.keys(JSON.parse(sessionStorage.getItem(SCROLL_STORAGE_KEY)!) as object)).toEqual(['lest', window.history.state.key]);
  });

  it('returns a page to where it was scrolled on Back when the layout, with its scroll restoration, is mounted again', async () => {
    // As when an error page replaced the layout, and Back brings the layout back.
    let setShown = (_shown: boolean) => {};
    function Layout() {
      const [shown, set] = useState(true);
      setShown = set;
      return (
        <>
          <Outlet />
          {shown ? <ScrollRestoration /> : null}
        </>
      );
    }
    window.history.replaceState(null, '', '/start');
    const router = startRouter(Layout);
    await screen.findByRole('heading', { name: 'Start' });
    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(400);
    await act(() => router.navigate('/a'));
    await screen.findByRole('heading', { name: 'A' });
    act(() => setShown(false));
    await act(async () => {
      window.history.back();
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/start'));
    });
    scrollTo.mockClear();
    act(() => setShown(true));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 400);
  });
});
