import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createBrowserRouter, Link, Outlet, RouterProvider, ScrollRestoration, type Router } from './index.ts';

function Layout() {
  return (
    <>
      <Link to="/a">Til A</Link>
      <Link to="/b#svar">Til svaret på B</Link>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

const scrollIntoView = vi.fn();
window.HTMLElement.prototype.scrollIntoView = scrollIntoView;
let scrollY = 0;
let scrollTo: MockInstance<typeof window.scrollTo>;
// Each test: the config restores mocks before each.
beforeEach(() => {
  scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => scrollY);
});

/** Goes back in the browser's history and waits for the router to have loaded the entry. */
async function back(router: Router, pathname: string) {
  await act(async () => {
    window.history.back();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(pathname));
  });
}

afterAll(cleanup);

describe('the browser router', () => {
  window.history.replaceState(null, '', '/start');
  const router = createBrowserRouter([
    {
      Component: Layout,
      children: [
        { path: '/start', loader: () => null, element: <h1>Start</h1> },
        { path: '/a', loader: () => null, element: <h1>A</h1> },
        { path: '/b', loader: () => null, element: <h1 id="svar">B</h1> },
      ],
    },
  ]);
  render(<RouterProvider router={router} />);

  it('starts on the address, leaves the first page where the browser has it, and hands scrolling to the router', async () => {
    await screen.findByRole('heading', { name: 'Start' });
    expect(window.history.scrollRestoration).toBe('manual');
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('puts a followed link in the address bar and history, and scrolls the new page to the top', async () => {
    scrollY = 400;
    fireEvent.click(screen.getByRole('link', { name: 'Til A' }));
    await screen.findByRole('heading', { name: 'A' });
    expect(window.location.pathname).toBe('/a');
    expect(window.history.length).toBe(2);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
  });

  it('scrolls to the element a hash names', async () => {
    scrollY = 250;
    fireEvent.click(screen.getByRole('link', { name: 'Til svaret på B' }));
    await screen.findByRole('heading', { name: 'B' });
    expect(window.location.hash).toBe('#svar');
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
  });

  it('goes back on the browser’s Back, to where each page was scrolled', async () => {
    await back(router, '/a');
    expect(await screen.findByRole('heading', { name: 'A' })).toBeDefined();
    expect(router.state.historyAction).toBe('POP');
    expect(scrollTo).toHaveBeenLastCalledWith(0, 250);
    await back(router, '/start');
    expect(scrollTo).toHaveBeenLastCalledWith(0, 400);
  });

  it('keeps a location’s state in the history entry', async () => {
    await act(() => router.navigate('/a', { state: { notice: 'Lagret' } }));
    expect(window.history.state).toMatchObject({ usr: { notice: 'Lagret' }, key: router.state.location.key });
  });
});
