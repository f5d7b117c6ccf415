import { QueryClient } from '../lib/query/index.ts';
import { RouterContextProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialSessionState, sessionStore, type SignedInSession } from '../features/auth/session.ts';
import { createFakeIdentity, subscriber, withoutSubscription, type FakeIdentity } from '../features/auth/testing/fake-identity.ts';
import { adresseavisen, seedTitle } from '../test/fixtures.ts';
import { guardLoader, hashOfLocation, runGuard, type GuardContext } from './guard.ts';
import type { PageKey } from './paths.ts';

let queryClient: QueryClient;
let initTracking: ReturnType<typeof vi.fn<(session: SignedInSession) => void>>;

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  seedTitle(queryClient, adresseavisen);
  initTracking = vi.fn<(session: SignedInSession) => void>();
});

afterEach(() => {
  sessionStore.setState(initialSessionState);
});

function context(identity: FakeIdentity): GuardContext {
  return { queryClient, identity, initTracking };
}

function guard(identity: FakeIdentity, key: PageKey, url: string): Promise<void> {
  return runGuard(context(identity), { key, url: new URL(url, 'https://minside.adressa.no') });
}

/** Settled within a moment, or still waiting (a login on its way to the provider). */
async function outcome(promise: Promise<unknown>): Promise<'resolved' | 'rejected' | 'pending'> {
  return Promise.race([
    promise.then(
      () => 'resolved' as const,
      () => 'rejected' as const,
    ),
    new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 20)),
  ]);
}

async function redirectOf(promise: Promise<unknown>): Promise<string | null> {
  const thrown = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  return thrown instanceof Response ? thrown.headers.get('Location') : null;
}

describe('route guard (SPEC §4 steps 3–5)', () => {
  it('3. starts the login with the full URL and never lets a guarded page render when signed out', async () => {
    const identity = createFakeIdentity({ session: null });
    expect(await outcome(guard(identity, 'invoiceOverview', '/fakturaoversikt?a=1#x'))).toBe('pending');
    expect(identity.checks).toEqual(['required']);
    expect(identity.logins).toEqual(['/fakturaoversikt?a=1#x']);
    expect(initTracking).not.toHaveBeenCalled();
  });

  it('3. fails the route, without a loop, when the login cannot start and nobody is signed in', async () => {
    const identity = createFakeIdentity({ session: null, loginOutcome: false });
    await expect(guard(identity, 'contact', '/kontakt')).rejects.toThrow('login could not be started');
    expect(identity.logins).toHaveLength(1);
  });

  it('3. lets the page through when the failed login falls back to a signed-in check', async () => {
    const identity = createFakeIdentity({ session: null, loginOutcome: true });
    identity.login = (returnTo) => {
      identity.logins.push(returnTo);
      identity.session = subscriber;
      return Promise.resolve(true);
    };
    expect(await outcome(guard(identity, 'contact', '/kontakt'))).toBe('resolved');
  });

  it('4. sends a signed-in user without a subscription to /ingen-abonnement', async () => {
    const identity = createFakeIdentity({ session: withoutSubscription });
    expect(await redirectOf(guard(identity, 'invoiceOverview', '/fakturaoversikt'))).toBe('/ingen-abonnement');
    expect(identity.logins).toEqual([]);
  });

  it('4. lets a user without a subscription reach auth-only routes', async () => {
    const identity = createFakeIdentity({ session: withoutSubscription });
    for (const [key, path] of [
      ['noSubscription', '/ingen-abonnement'],
      ['connectSubscription', '/koble-bruker'],
      ['privacySettings', '/personverninnstillinger'],
    ] as const) {
      await expect(guard(identity, key, path)).resolves.toBeUndefined();
    }
  });

  it('4. lets a subscriber through', async () => {
    const identity = createFakeIdentity({ session: subscriber });
    await expect(guard(identity, 'invoiceOverview', '/fakturaoversikt')).resolves.toBeUndefined();
    expect(identity.logins).toEqual([]);
  });

  it('5. initialises tracking with the signed-in session', async () => {
    const identity = createFakeIdentity({ session: subscriber });
    await guard(identity, 'home', '/');
    expect(initTracking).toHaveBeenCalledWith(subscriber);
  });

  it('checks a public route only opportunistically and never redirects from it', async () => {
    const signedOut = createFakeIdentity({ session: null });
    await expect(guard(signedOut, 'customerService', '/kundeservice')).resolves.toBeUndefined();
    expect(signedOut.checks).toEqual(['opportunistic']);
    expect(signedOut.logins).toEqual([]);

    const signedIn = createFakeIdentity({ session: withoutSubscription });
    await expect(guard(signedIn, 'newPrices', '/nye-priser')).resolves.toBeUndefined();
    expect(sessionStore.getState().user).toEqual(withoutSubscription.user);
    expect(initTracking).toHaveBeenCalledWith(withoutSubscription);
  });

  it('does not fail a public route when the session check throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const identity = createFakeIdentity();
    identity.checkSession = () => Promise.reject(new Error('Identity not initialized'));
    await expect(guard(identity, 'student', '/student')).resolves.toBeUndefined();
  });

  it('leaves /callback alone: the login is being completed there', async () => {
    const identity = createFakeIdentity({ session: null });
    await expect(guard(identity, 'callback', '/callback?code=c&state=s')).resolves.toBeUndefined();
    expect(identity.checks).toEqual([]);
    expect(identity.logins).toEqual([]);
  });

  it('sends every route to /maintenance first, before any login', async () => {
    seedTitle(queryClient, adresseavisen, true);
    const identity = createFakeIdentity({ session: null });
    expect(await redirectOf(guard(identity, 'invoiceOverview', '/fakturaoversikt'))).toBe('/maintenance');
    expect(identity.logins).toEqual([]);
  });
});

describe('guardLoader', () => {
  it('puts the pending navigation’s hash back on the return target (loader requests have none)', async () => {
    const identity = createFakeIdentity({ session: null });
    const loader = guardLoader({ ...context(identity), pendingHash: () => '#faktura-7' }, 'invoiceOverview');
    const url = new URL('https://minside.adressa.no/fakturaoversikt?a=1');
    void loader({ request: new Request(url), url, pattern: '/fakturaoversikt', params: {}, context: new RouterContextProvider() });
    await vi.waitFor(() => expect(identity.logins).toEqual(['/fakturaoversikt?a=1#faktura-7']));
  });
});

describe('hashOfLocation', () => {
  const url = new URL('https://minside.adressa.no/fakturaoversikt?a=1');

  it('takes the hash of the first candidate that is the URL being loaded', () => {
    expect(
      hashOfLocation(url, [
        undefined,
        { pathname: '/kontakt', search: '', hash: '#other' },
        { pathname: '/fakturaoversikt', search: '?a=1', hash: '#x' },
        { pathname: '/fakturaoversikt', search: '?a=1', hash: '#y' },
      ]),
    ).toBe('#x');
  });

  it('is empty when no candidate matches path and query', () => {
    expect(hashOfLocation(url, [{ pathname: '/fakturaoversikt', search: '?a=2', hash: '#x' }, null])).toBe('');
  });
});
