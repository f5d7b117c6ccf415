import type { HandleCodeBody, HandleCodeResponse, LoginTokenResponse, SessionResponse } from '@minside/domain';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/http.ts';
import { adresseavisen } from '../../test/fixtures.ts';
import { createIdentityClient, LOGIN_LOOP_GUARD_MS, requireLoginToken, type IdentityApi } from './identity.ts';
import { createSessionStore } from './session.ts';
import { subscriber } from './testing/fake-identity.ts';

const authorizationUrl = 'https://idp.example/authorize?client_id=minside&state=tok-1';

/**
 * The client's own dependency seam: what its API module functions resolve with. These tests
 * are about the client's rules (init, token, dedupe, clearing), not about the server.
 */
function setUp(overrides: Partial<IdentityApi> = {}) {
  let time = 1_700_000_000_000;
  const store = createSessionStore();
  const values = new Map<string, string>();
  const storage = {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
  const api = {
    getSession: vi.fn(async (_titleCode: string | undefined): Promise<SessionResponse> => {
      throw new ApiError(401, 'NOT_AUTHENTICATED', 'Du må logge inn for å fortsette.');
    }),
    getLoginToken: vi.fn(async (_returnTo: string, _titleCode: string | undefined): Promise<LoginTokenResponse> => ({ loginToken: 'tok-1', authorizationUrl })),
    handleCode: vi.fn(async (_body: HandleCodeBody): Promise<HandleCodeResponse> => ({ ...subscriber, returnTo: '/fakturaoversikt?a=1#x' })),
    logout: vi.fn(async () => ({ endSessionUrl: 'https://idp.example/logout?post_logout_redirect_uri=x' as string | null })),
    getLoginReturn: vi.fn(async (_state: string): Promise<{ returnTo: string }> => {
      throw new ApiError(400, 'LOGIN_STATE_INVALID', 'Innloggingen er ugyldig.');
    }),
    ...overrides,
  };
  const leaveTo = vi.fn<(url: string) => void>();
  const onSignedOut = vi.fn();
  const client = createIdentityClient({ api, store, now: () => time, leaveTo, storage });
  const init = () => client.init({ titleCode: () => 'ADR', onSignedOut });
  return { client, api, store, leaveTo, onSignedOut, init, values, advance: (ms: number) => (time += ms) };
}

async function settled(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  const result = await Promise.race([
    promise.then(
      () => 'done',
      () => 'done',
    ),
    new Promise((resolve) => setTimeout(() => resolve(marker), 20)),
  ]);
  return result !== marker;
}

describe('identity client', () => {
  it('refuses login, logout and session checks before init (SPEC §8)', async () => {
    const { client, api, leaveTo } = setUp();
    expect(client.isInitialized()).toBe(false);
    await expect(client.login('/')).rejects.toThrow(new Error('Identity not initialized'));
    await expect(client.logout()).rejects.toThrow(new Error('Identity not initialized'));
    await expect(client.checkSession()).rejects.toThrow('Identity not initialized');
    expect(api.getLoginToken).not.toHaveBeenCalled();
    expect(api.logout).not.toHaveBeenCalled();
    expect(leaveTo).not.toHaveBeenCalled();
  });

  it('throws "No login token received" for an answer without a token', () => {
    expect(() => requireLoginToken({ loginToken: '', authorizationUrl })).toThrow(new Error('No login token received'));
    expect(() => requireLoginToken({ loginToken: 'tok', authorizationUrl: '' })).toThrow('No login token received');
    expect(requireLoginToken({ loginToken: 'tok', authorizationUrl }).loginToken).toBe('tok');
  });

  it('sends the browser to the provider with a login token for the return target and title', async () => {
    const { client, api, leaveTo, init } = setUp();
    init();
    const login = client.login('/fakturaoversikt?a=1#x');
    await vi.waitFor(() => expect(leaveTo).toHaveBeenCalledWith(authorizationUrl));
    expect(api.getLoginToken).toHaveBeenCalledWith('/fakturaoversikt?a=1#x', 'ADR');
    // The page is leaving: whoever waits on the login must not go on to render.
    expect(await settled(login)).toBe(false);
  });

  it('starts one login when several ask at once', async () => {
    const { client, api, leaveTo, init } = setUp();
    init();
    void client.login('/kontakt');
    void client.login('/fakturaoversikt');
    await vi.waitFor(() => expect(leaveTo).toHaveBeenCalledTimes(1));
    expect(api.getLoginToken).toHaveBeenCalledTimes(1);
  });

  it('logs a login without a token, then answers with the logged-in check (SPEC §8)', async () => {
    const { client, api, leaveTo, init } = setUp({ getLoginToken: async () => ({ loginToken: '', authorizationUrl }) });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    init();
    await expect(client.login('/')).resolves.toBe(false);
    expect(error).toHaveBeenCalledWith(expect.any(String), new Error('No login token received'));
    expect(api.getSession).toHaveBeenCalledWith('ADR');
    expect(leaveTo).not.toHaveBeenCalled();
  });

  it('falls back to the logged-in check when the login token call fails, and may try again', async () => {
    const getLoginToken = vi.fn(async (): Promise<LoginTokenResponse> => {
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Tjenesten er midlertidig utilgjengelig.');
    });
    const { client, leaveTo, init } = setUp({ getLoginToken, getSession: async () => ({ ...subscriber, title: adresseavisen }) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    init();
    await expect(client.login('/')).resolves.toBe(true);
    await expect(client.login('/')).resolves.toBe(true);
    expect(getLoginToken).toHaveBeenCalledTimes(2);
    expect(leaveTo).not.toHaveBeenCalled();
  });

  it('returns only to paths on this site', async () => {
    const { client, api, init } = setUp();
    init();
    void client.login('https://evil.example/');
    await vi.waitFor(() => expect(api.getLoginToken).toHaveBeenCalledWith('/', 'ADR'));
  });

  it('checks the session for the title and stores who is signed in', async () => {
    const { client, api, store, init } = setUp({ getSession: vi.fn(async () => ({ ...subscriber, title: adresseavisen })) });
    init();
    expect(await client.isLoggedIn()).toBe(true);
    expect(api.getSession).toHaveBeenCalledWith('ADR');
    expect(store.getState()).toMatchObject({ status: 'signedIn', user: subscriber.user, account: subscriber.account, subscription: subscriber.subscription });
  });

  it('completes a login once per code, stores the session and gives the return target', async () => {
    const { client, api, store, init, values } = setUp();
    init();
    values.set('minside:returnTo', '/fakturaoversikt?a=1#x');
    const body = { code: 'code-1', state: 'state-1' };
    const [first, second] = await Promise.all([client.completeLogin(body), client.completeLogin({ ...body })]);
    expect(first).toBe('/fakturaoversikt?a=1#x');
    expect(second).toBe(first);
    expect(api.handleCode).toHaveBeenCalledTimes(1);
    expect(api.handleCode).toHaveBeenCalledWith(body);
    expect(store.getState()).toMatchObject({ status: 'signedIn', user: subscriber.user });
    expect(values.has('minside:returnTo')).toBe(false);
  });

  it('does not follow a return target off this site', async () => {
    const { client, init } = setUp({ handleCode: async () => ({ ...subscriber, returnTo: '//evil.example/' }) });
    init();
    expect(await client.completeLogin({ code: 'c', state: 's' })).toBe('/');
  });

  it('logs out: ends the server session, clears session and title, leaves for the provider', async () => {
    const { client, api, store, leaveTo, onSignedOut, init } = setUp();
    init();
    await client.completeLogin({ code: 'c', state: 's' });
    await client.logout();
    expect(api.logout).toHaveBeenCalledTimes(1);
    expect(store.getState()).toMatchObject({ status: 'signedOut', user: null, account: null, subscription: null });
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(leaveTo).toHaveBeenCalledWith('https://idp.example/logout?post_logout_redirect_uri=x');
  });

  it('goes to /kundeservice after logout when the provider has no logout page', async () => {
    const { client, leaveTo, init } = setUp({ logout: async () => ({ endSessionUrl: null }) });
    init();
    await client.logout();
    expect(leaveTo).toHaveBeenCalledWith('/kundeservice');
  });

  it('counts a 401 from logout as logged out', async () => {
    const { client, leaveTo, store, init } = setUp({
      logout: async () => {
        throw new ApiError(401, 'NOT_AUTHENTICATED', 'Du må logge inn for å fortsette.');
      },
    });
    init();
    await client.logout();
    expect(store.getState().status).toBe('signedOut');
    expect(leaveTo).toHaveBeenCalledWith('/kundeservice');
  });

  it('keeps the session when logout fails, so the user is not told they are out', async () => {
    const { client, store, leaveTo, onSignedOut, init } = setUp({
      logout: async () => {
        throw new ApiError(0, 'NETWORK_ERROR', 'Kunne ikke kontakte Min Side.');
      },
    });
    init();
    await client.completeLogin({ code: 'c', state: 's' });
    await expect(client.logout()).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(store.getState().status).toBe('signedIn');
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(leaveTo).not.toHaveBeenCalled();
  });

  it('on a 401/406 elsewhere, clears the session and logs in again to where the user was', async () => {
    const { client, api, store, leaveTo, init, advance } = setUp();
    init();
    await client.completeLogin({ code: 'c', state: 's' });
    advance(LOGIN_LOOP_GUARD_MS);
    client.handleUnauthenticated('/kontakt?fane=2#familie');
    expect(store.getState().status).toBe('signedOut');
    await vi.waitFor(() => expect(leaveTo).toHaveBeenCalledWith(authorizationUrl));
    expect(api.getLoginToken).toHaveBeenCalledWith('/kontakt?fane=2#familie', 'ADR');
  });

  it('does not start another login for a 401 right after a completed login (no loop)', async () => {
    const { client, api, store, init, advance } = setUp();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    init();
    await client.completeLogin({ code: 'c', state: 's' });
    advance(LOGIN_LOOP_GUARD_MS - 1);
    client.handleUnauthenticated('/kontakt');
    expect(api.getLoginToken).not.toHaveBeenCalled();
    expect(store.getState().status).toBe('signedIn');
  });

  it('remembers where the last login started, for "Prøv igjen"', async () => {
    const { client, leaveTo, init } = setUp();
    init();
    expect(client.lastReturnTarget()).toBe('/');
    void client.login('/endre-profil?felt=telefon');
    await vi.waitFor(() => expect(leaveTo).toHaveBeenCalled());
    expect(client.lastReturnTarget()).toBe('/endre-profil?felt=telefon');
  });

  it('finds where an unfinished login was to return to: the server by its state first, then what the server sent, then the tab', async () => {
    const getLoginReturn = vi.fn(async (state: string) => {
      if (state === 'link-login') return { returnTo: '/vilkaar?del=2' };
      throw new ApiError(400, 'LOGIN_STATE_INVALID', 'Innloggingen er ugyldig.');
    });
    const { client, leaveTo, init } = setUp({ getLoginReturn });
    init();
    void client.login('/kundeservice');
    await vi.waitFor(() => expect(leaveTo).toHaveBeenCalled());
    // A login the header's link started: the tab knows nothing of it, the server does.
    expect(await client.returnTargetOfLogin('link-login')).toBe('/vilkaar?del=2');
    expect(getLoginReturn).toHaveBeenCalledWith('link-login');
    // The server does not know the state (or cannot be reached): the tab's own target.
    expect(await client.returnTargetOfLogin('forgotten')).toBe('/kundeservice');
    // No state (the link's login could not start): the path the server sent along, checked as any return target.
    expect(await client.returnTargetOfLogin(null, '/personvern')).toBe('/personvern');
    expect(await client.returnTargetOfLogin(null, '//evil.example/')).toBe('/');
    // Not an address at all: no target, and no rejection.
    expect(await client.returnTargetOfLogin(null, '/\\[')).toBe('/');
    expect(await client.returnTargetOfLogin(null)).toBe('/kundeservice');
  });
});
