import { LOGIN_NOT_STARTED_ERROR, type HandleCodeBody, type HandleCodeResponse } from '@minside/domain';
import { QueryClient, QueryClientProvider } from '../../../lib/query/index.ts';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { createMemoryRouter, RouterProvider } from '../../../lib/router/index.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { adresseavisen, seedTitle } from '../../../test/fixtures.ts';
import { IdentityProvider } from '../identity-context.tsx';
import { authMessages } from '../messages.ts';
import { createIdentityClient, type IdentityClient } from '../identity.ts';
import { createSessionStore } from '../session.ts';
import { createFakeIdentity, subscriber } from '../testing/fake-identity.ts';
import { CallbackPage, LOGIN_FAILED_MESSAGE } from './callback-page.tsx';

function renderCallback(identity: IdentityClient, url: string) {
  const router = createMemoryRouter(
    [
      { path: '/callback', Component: CallbackPage },
      { path: '/fakturaoversikt', element: <h1>Fakturaoversikt</h1> },
      { path: '/kundeservice', element: <h1>Kundeservice</h1> },
    ],
    { initialEntries: ['/kundeservice', url], initialIndex: 1 },
  );
  const queryClient = new QueryClient();
  seedTitle(queryClient, adresseavisen);
  render(
    <QueryClientProvider client={queryClient}>
      <IdentityProvider value={identity}>
        <RouterProvider router={router} />
      </IdentityProvider>
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
});

describe('/callback', () => {
  it('shows that it is logging in, then replaces itself with the return target', async () => {
    let finish: (returnTo: string) => void = () => {};
    const identity = createFakeIdentity();
    identity.completeLogin = (body) => {
      identity.completions.push(body);
      return new Promise((resolve) => (finish = resolve));
    };
    const router = renderCallback(identity, '/callback?code=code-1&state=state-1&iss=https%3A%2F%2Fidp.example');
    expect(screen.getByRole('status').textContent).toContain('Logger inn');
    expect(identity.completions).toEqual([{ code: 'code-1', state: 'state-1', iss: 'https://idp.example' }]);

    await act(async () => finish('/fakturaoversikt?a=1#x'));
    expect(await screen.findByRole('heading', { name: 'Fakturaoversikt' })).toBeDefined();
    expect(router.state.location).toMatchObject({ pathname: '/fakturaoversikt', search: '?a=1', hash: '#x' });
    expect(router.state.historyAction).toBe('REPLACE');
  });

  // The page must post a code once even when it is mounted twice at once (React's StrictMode
  // did that in development; Preact's, the runtime since ADR 021, does not run effects twice,
  // so two pages completing the same code stand in for it).
  it('posts the code once when two pages complete it at the same time', async () => {
    const handleCode = vi.fn(async (_body: HandleCodeBody): Promise<HandleCodeResponse> => ({ ...subscriber, returnTo: '/fakturaoversikt' }));
    const identity = createIdentityClient({
      api: { handleCode, getSession: vi.fn(), getLoginToken: vi.fn(), logout: vi.fn(), getLoginReturn: vi.fn() },
      store: createSessionStore(),
      storage: null,
      leaveTo: vi.fn(),
    });
    identity.init({ titleCode: () => 'ADR' });
    renderCallback(identity, '/callback?code=code-1&state=state-1');
    renderCallback(identity, '/callback?code=code-1&state=state-1');
    expect(await screen.findAllByRole('heading', { name: 'Fakturaoversikt' })).toHaveLength(2);
    expect(handleCode).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['/callback?error=invalid_request&error_description=Bad+request', LOGIN_FAILED_MESSAGE],
    ['/callback?error=server_error', LOGIN_FAILED_MESSAGE],
    ['/callback?state=state-1', LOGIN_FAILED_MESSAGE],
    // The header's link could not start the login (GET /api/login/start).
    [`/callback?error=${LOGIN_NOT_STARTED_ERROR}`, authMessages.loginNotStarted],
  ])('shows an error panel for %s without posting anything', async (url, message) => {
    const identity = createFakeIdentity();
    renderCallback(identity, url);
    expect(screen.getByRole('heading', { level: 1, name: 'Du ble ikke logget inn' })).toBeDefined();
    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(screen.getByRole('link', { name: 'Kundeservice' }).getAttribute('href')).toBe('/kundeservice');
    expect(identity.completions).toEqual([]);
  });

  it("shows the server's message when the login is refused", async () => {
    const refused = new ApiError(400, 'LOGIN_EXPIRED', 'Innloggingen tok for lang tid. Prøv å logge inn på nytt.');
    renderCallback(createFakeIdentity({ completion: { error: refused } }), '/callback?code=c&state=s');
    expect((await screen.findByRole('alert')).textContent).toBe('Innloggingen tok for lang tid. Prøv å logge inn på nytt.');
  });

  it('shows the generic message when the server failed', async () => {
    const failed = new ApiError(500, 'INTERNAL_ERROR', 'Noe gikk galt hos oss. Prøv igjen om litt.');
    renderCallback(createFakeIdentity({ completion: { error: failed } }), '/callback?code=c&state=s');
    expect((await screen.findByRole('alert')).textContent).toBe(LOGIN_FAILED_MESSAGE);
  });

  // Issue 25.9: "Avbryt" on the login page ended on this error panel.
  it('after "Avbryt" goes back to the public page the login started from, with no error and nothing posted', async () => {
    const identity = createFakeIdentity();
    identity.lastReturnTarget = () => '/kundeservice?q=ferie';
    const router = renderCallback(identity, '/callback?error=access_denied&error_description=End-User+aborted+interaction&state=s');
    expect(await screen.findByRole('heading', { name: 'Kundeservice' })).toBeDefined();
    expect(router.state.location).toMatchObject({ pathname: '/kundeservice', search: '?q=ferie' });
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(identity.completions).toEqual([]);
    expect(identity.logins).toEqual([]);
  });

  it('after "Avbryt" from a page behind the login leaves for the title\'s front page instead of asking again', async () => {
    const identity = createFakeIdentity();
    identity.lastReturnTarget = () => '/fakturaoversikt';
    const targets = vi.spyOn(identity, 'returnTargetOfLogin');
    const router = renderCallback(identity, '/callback?error=access_denied&state=s');
    expect(screen.getByRole('heading', { level: 1, name: 'Innloggingen ble avbrutt' })).toBeDefined();
    expect(screen.getByRole('status').textContent).toContain('Du sendes tilbake');
    // The login's target is asked for by its state; once known, the page behind the login is not opened in the app (it would ask again).
    await waitFor(() => expect(targets).toHaveBeenCalledWith('s'));
    await expect(targets.mock.results[0]?.value).resolves.toBe('/fakturaoversikt');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(router.state.location.pathname).toBe('/callback');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(identity.logins).toEqual([]);
  });

  it('"Prøv igjen" starts a fresh login', async () => {
    const identity = createFakeIdentity();
    identity.lastReturnTarget = () => '/fakturaoversikt?a=1';
    renderCallback(identity, '/callback?error=server_error');
    fireEvent.click(screen.getByRole('button', { name: 'Prøv igjen' }));
    await waitFor(() => expect(identity.logins).toEqual(['/fakturaoversikt?a=1']));
  });

  it('"Prøv igjen" after the header\'s link could not start the login starts it for the page it was clicked on', async () => {
    const identity = createFakeIdentity();
    identity.lastReturnTarget = () => '/fakturaoversikt';
    renderCallback(identity, `/callback?error=${LOGIN_NOT_STARTED_ERROR}&returnTo=%2Fvilkaar`);
    fireEvent.click(screen.getByRole('button', { name: 'Prøv igjen' }));
    await waitFor(() => expect(identity.logins).toEqual(['/vilkaar']));
  });

  it('says so when the fresh login cannot start either', async () => {
    const identity = createFakeIdentity({ loginOutcome: false });
    renderCallback(identity, '/callback?error=server_error');
    fireEvent.click(screen.getByRole('button', { name: 'Prøv igjen' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Vi fikk ikke startet innloggingen');
    expect(screen.getByRole('button', { name: 'Prøv igjen' })).toBeDefined();
  });
});
