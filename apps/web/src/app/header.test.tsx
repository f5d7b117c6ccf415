import { QueryClient, QueryClientProvider } from '../lib/query/index.ts';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { MemoryRouter } from '../lib/router/index.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdentityProvider } from '../features/auth/index.ts';
import { initialSessionState, sessionStore, setSignedIn } from '../features/auth/session.ts';
import { createFakeIdentity, subscriber, type FakeIdentity } from '../features/auth/testing/fake-identity.ts';
import { adresseavisen } from '../test/fixtures.ts';
import { Header, SIGN_IN_FAILED, SIGN_OUT_FAILED } from './header.tsx';
import { systemClock } from '@minside/domain';

function renderHeader(identity: FakeIdentity = createFakeIdentity(), path = '/kundeservice') {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <IdentityProvider value={identity}>
        <MemoryRouter initialEntries={[path]}>
          <Header title={adresseavisen} />
          <p>Innhold</p>
        </MemoryRouter>
      </IdentityProvider>
    </QueryClientProvider>,
  );
}

function menuButton(): HTMLElement {
  return screen.getByRole('button', { name: 'Meny' });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  act(() => sessionStore.setState(initialSessionState));
});

describe('Header', () => {
  it('links the logo to the title site under the title name', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: 'Adresseavisen' }).getAttribute('href')).toBe('https://www.adressa.no');
    expect(screen.getByRole('link', { name: 'Min Side' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Kundeservice' }).getAttribute('href')).toBe('/kundeservice');
  });

  it('shows "Logg inn" only when signed out and "Logg ut" only when signed in', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: 'Logg inn' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Logg ut' })).toBeNull();

    act(() => setSignedIn(sessionStore, subscriber, systemClock().getTime()));
    expect(screen.getByRole('button', { name: 'Logg ut' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Logg inn' })).toBeNull();
  });

  it('"Logg inn" starts the login back to the current path, query and hash', () => {
    const identity = createFakeIdentity();
    renderHeader(identity, '/kundeservice?sporsmal=faktura#svar');
    const link = screen.getByRole('link', { name: 'Logg inn' });
    // Before the scripts (and for a new tab), the server starts the same login from the link's address:
    // back to the path, the part of the address the server's markup knows.
    const href = new URL(link.getAttribute('href') ?? '', 'http://adresseavisen.localhost');
    expect(href.pathname).toBe('/api/login/start');
    expect(Object.fromEntries(href.searchParams)).toEqual({ returnTo: '/kundeservice', titleCode: adresseavisen.titleCode });
    expect(fireEvent.click(link)).toBe(false);
    expect(identity.logins).toEqual(['/kundeservice?sporsmal=faktura#svar']);
  });

  it('leaves a click with a modifier key to the browser (a new tab follows the link)', () => {
    const identity = createFakeIdentity();
    renderHeader(identity, '/kundeservice');
    expect(fireEvent.click(screen.getByRole('link', { name: 'Logg inn' }), { ctrlKey: true })).toBe(true);
    expect(identity.logins).toEqual([]);
  });

  it('says so when the login could not start', async () => {
    renderHeader(createFakeIdentity({ loginOutcome: false }));
    fireEvent.click(screen.getByRole('link', { name: 'Logg inn' }));
    expect((await screen.findByRole('alert')).textContent).toBe(SIGN_IN_FAILED);
  });

  it('"Logg ut" logs out, after which "Logg inn" shows', async () => {
    const identity = createFakeIdentity({ session: subscriber });
    act(() => setSignedIn(sessionStore, subscriber, systemClock().getTime()));
    renderHeader(identity);
    fireEvent.click(screen.getByRole('button', { name: 'Logg ut' }));
    expect(identity.logouts).toBe(1);
    expect(await screen.findByRole('link', { name: 'Logg inn' })).toBeDefined();
  });

  it('says so when the logout failed, and stays signed in', async () => {
    const identity = createFakeIdentity({ session: subscriber });
    identity.logout = () => Promise.reject(new Error('offline'));
    act(() => setSignedIn(sessionStore, subscriber, systemClock().getTime()));
    renderHeader(identity);
    fireEvent.click(screen.getByRole('button', { name: 'Logg ut' }));
    expect((await screen.findByRole('alert')).textContent).toBe(SIGN_OUT_FAILED);
    expect(screen.getByRole('button', { name: 'Logg ut' })).toBeDefined();
  });

  it('toggles the menu with the hamburger, which controls the navigation', () => {
    renderHeader();
    const button = menuButton();
    const nav = screen.getByRole('navigation', { name: 'Hovedmeny' });
    expect(button.getAttribute('aria-controls')).toBe(nav.id);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the menu on Escape and returns focus to the hamburger', () => {
    renderHeader();
    fireEvent.click(menuButton());
    screen.getByRole('link', { name: 'Kundeservice' }).focus();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menuButton());
  });

  it('closes the menu on a click elsewhere, but not on a click inside it', () => {
    renderHeader();
    fireEvent.click(menuButton());
    fireEvent.pointerDown(screen.getByRole('navigation', { name: 'Hovedmeny' }));
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    fireEvent.pointerDown(screen.getByText('Innhold'));
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  describe('in a browser with popovers (the browser opens and closes the menu; stubbed here, as jsdom has none)', () => {
    const shown = new Set<Element>();
    const toggled = (element: Element, newState: 'open' | 'closed') => element.dispatchEvent(Object.assign(new Event('toggle'), { newState }));
    beforeEach(() => {
      shown.clear();
      const matches = Element.prototype.matches;
      vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
        return selector === ':popover-open' ? shown.has(this) : matches.call(this, selector);
      });
      HTMLElement.prototype.showPopover = vi.fn(function (this: HTMLElement) {
        shown.add(this);
        toggled(this, 'open');
      });
      HTMLElement.prototype.hidePopover = vi.fn(function (this: HTMLElement) {
        shown.delete(this);
        toggled(this, 'closed');
      });
    });
    afterEach(() => {
      delete (HTMLElement.prototype as Partial<HTMLElement>).showPopover;
      delete (HTMLElement.prototype as Partial<HTMLElement>).hidePopover;
    });

    it('the button targets the navigation, and its state follows the popover', () => {
      renderHeader();
      const nav = screen.getByRole('navigation', { name: 'Hovedmeny' });
      expect(menuButton().getAttribute('popovertarget')).toBe(nav.id);
      expect(nav.getAttribute('popover')).toBe('auto');
      // Until the menu first opens, the browser states its state (a popover's invoker), the button not.
      expect(menuButton().hasAttribute('aria-expanded')).toBe(false);
      // The click itself is the browser's to act on: the app does not toggle its own state.
      fireEvent.click(menuButton());
      expect(menuButton().hasAttribute('aria-expanded')).toBe(false);
      act(() => nav.showPopover());
      expect(menuButton().getAttribute('aria-expanded')).toBe('true');
      act(() => nav.hidePopover());
      expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    });

    it('a followed link closes the popover', () => {
      renderHeader();
      const nav = screen.getByRole('navigation', { name: 'Hovedmeny' });
      act(() => nav.showPopover());
      fireEvent.click(screen.getByRole('link', { name: 'Min Side' }));
      expect(nav.hidePopover).toHaveBeenCalled();
      expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    });

    it('a failed logout closes the popover, so its message under the bar is seen', async () => {
      const identity = createFakeIdentity({ session: subscriber });
      identity.logout = () => Promise.reject(new Error('offline'));
      act(() => setSignedIn(sessionStore, subscriber, systemClock().getTime()));
      renderHeader(identity);
      const nav = screen.getByRole('navigation', { name: 'Hovedmeny' });
      act(() => nav.showPopover());
      fireEvent.click(screen.getByRole('button', { name: 'Logg ut' }));
      expect((await screen.findByRole('alert')).textContent).toBe(SIGN_OUT_FAILED);
      // Preact runs effects after the paint: the close follows the message.
      await waitFor(() => expect(shown.size).toBe(0));
      expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    });
  });

  it('closes the menu when a login or logout fails, so its message under the bar is seen', async () => {
    const identity = createFakeIdentity({ session: subscriber });
    identity.logout = () => Promise.reject(new Error('offline'));
    act(() => setSignedIn(sessionStore, subscriber, systemClock().getTime()));
    renderHeader(identity);
    fireEvent.click(menuButton());
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Logg ut' }));
    expect((await screen.findByRole('alert')).textContent).toBe(SIGN_OUT_FAILED);
    await waitFor(() => expect(menuButton().getAttribute('aria-expanded')).toBe('false'));
  });

  it('closes the menu when a link in it is followed', () => {
    renderHeader();
    fireEvent.click(menuButton());
    fireEvent.click(screen.getByRole('link', { name: 'Min Side' }));
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });
});
