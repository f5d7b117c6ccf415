import { systemClock, type HandleCodeBody, type HandleCodeResponse, type LoginReturnResponse, type LoginTokenResponse, type SessionResponse, type User } from '@minside/domain';
import { pathTo } from '../../app/paths.ts';
import { isApiError } from '../../lib/http.ts';
import { perPage } from '../../lib/page-scope.ts';
import { getLoginReturn } from './api/get-login-return.ts';
import { getLoginToken, type LoginTokenOptions } from './api/get-login-token.ts';
import { getSession } from './api/get-session.ts';
import { handleCode } from './api/handle-code.ts';
import { postLogout, type LogoutResponse } from './api/logout.ts';
import { returnTargetOf } from './return-target.ts';
import { createSessionChecker, type CheckPurpose } from './session-cache.ts';
import { sessionStore, type SessionStore, type SignedInSession } from './session.ts';

/** The identity calls of SPEC §7, as the client uses them, and where an unfinished login returns to (docs/decisions/032). */
export interface IdentityApi {
  getSession(titleCode: string | undefined): Promise<SessionResponse>;
  getLoginToken(returnTo: string, titleCode: string | undefined, options?: LoginTokenOptions): Promise<LoginTokenResponse>;
  handleCode(body: HandleCodeBody): Promise<HandleCodeResponse>;
  logout(): Promise<LogoutResponse>;
  getLoginReturn(state: string): Promise<LoginReturnResponse>;
}

interface IdentityInitOptions {
  /** The title code of the site (resolved by the titles area). Read at each call. */
  titleCode: () => string | undefined;
  /** SPEC §4: logout clears the title too; the app knows where the title is kept. */
  onSignedOut?: () => void;
}

/** A storage for one small value that survives the trip to the provider (sessionStorage). */
type ReturnTargetStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface IdentityClientOptions {
  api?: IdentityApi;
  store?: SessionStore;
  now?: () => number;
  /** Full-page navigation away from the app (to the provider, or to end its session). */
  leaveTo?: (url: string) => void;
  storage?: ReturnTargetStorage | null;
}

export interface IdentityClient {
  /** Must run before `login` and `logout`, and before any session check. */
  init(options: IdentityInitOptions): void;
  isInitialized(): boolean;
  /**
   * SPEC §4 login check: the signed-in session or null. Uses the SPEC §9 cache (300 s) and
   * block (5 min after a failed call). Never rejects once initialised.
   */
  checkSession(purpose?: CheckPurpose): Promise<SignedInSession | null>;
  isLoggedIn(): Promise<boolean>;
  /**
   * Starts the login: fetches a login token and sends the browser to the provider. The
   * promise then stays pending, as the page is going away. If the login cannot start, the
   * error is logged and it resolves with the logged-in check instead (SPEC §8).
   */
  login(returnTo: string): Promise<boolean>;
  /**
   * Sends the signed-in user to another issuer to add its login to their own ("Koble til Vipps",
   * "Bekreft alderen med Vipps"; issue 24), then back to `returnTo`. Rejects if it cannot start.
   */
  link(issuer: string, returnTo: string): Promise<void>;
  /** Ends the server session, clears the session and title, and leaves for the provider's logout (or /kundeservice). */
  logout(): Promise<void>;
  /**
   * Completes a login at /callback: posts code and state once per code (so StrictMode and
   * remounts cannot spend it twice), stores the session, and resolves with the return target.
   */
  completeLogin(body: HandleCodeBody): Promise<string>;
  /** SPEC §8 401/406 rule: clear the session and start a login back to `returnTo`. */
  handleUnauthenticated(returnTo: string): void;
  /** Where the last login started from in this tab, or `/`: the fallback of `returnTargetOfLogin`. */
  lastReturnTarget(): string;
  /**
   * Where the login that came back to /callback unfinished ("Avbryt", a failure) was to return to:
   * the server's record of it by its `state` (a login the header's link started, before the
   * scripts, left none in this tab), else `sent` (a path the server sent along), else
   * `lastReturnTarget()`. Never rejects.
   */
  returnTargetOfLogin(state: string | null, sent?: string | null): Promise<string>;
  /**
   * Records a session the app learnt of otherwise, as fresh as a check: areas that change the
   * session's subscription call it with the new state (docs/decisions/005).
   */
  remember(session: SignedInSession): void;
  /** Records the signed-in user's new details (a profile change), keeping the rest of the session and when it was checked. */
  rememberUser(user: User): void;
  /**
   * Records who the server said is signed in when it served the page (app/bootstrap.ts,
   * docs/decisions/022): the page load's first check uses it instead of a session call.
   */
  seed(session: SignedInSession | null): void;
}

/**
 * A 401/406 this soon after a completed login means the server does not honour the session
 * it just created; another login would only come back to the same answer, so none is started.
 */
export const LOGIN_LOOP_GUARD_MS = 30_000;

const RETURN_TARGET_KEY = 'minside:returnTo';

const defaultApi: IdentityApi = { getSession, getLoginToken, handleCode, logout: postLogout, getLoginReturn };

function leaveApp(url: string): void {
  // Back from the provider, a page restored from the back-forward cache would still wait on
  // the login that left it: load it afresh instead.
  window.addEventListener(
    'pageshow',
    (event) => {
      if (event.persisted) window.location.reload();
    },
    { once: true },
  );
  window.location.assign(url);
}

function defaultStorage(): ReturnTargetStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** SPEC §8 "No login token received": the server answered without a token to log in with. */
export function requireLoginToken(response: LoginTokenResponse): LoginTokenResponse {
  if (!response.loginToken || !response.authorizationUrl) throw new Error('No login token received');
  return response;
}

export function createIdentityClient(options: IdentityClientOptions = {}): IdentityClient {
  const api = options.api ?? defaultApi;
  const store = options.store ?? sessionStore;
  const now = options.now ?? (() => systemClock().getTime());
  const leaveTo = options.leaveTo ?? leaveApp;
  // Opened when first used (a login, or the way back from one), not at start-up: the first touch
  // of sessionStorage costs milliseconds of the page's first task (docs/performance.md).
  let storage = options.storage;
  const returnTargetStorage = () => (storage === undefined ? (storage = defaultStorage()) : storage);

  let config: IdentityInitOptions | null = null;
  let loginInProgress: Promise<boolean> | null = null;
  let lastLoginCompletedAt: number | null = null;
  const completions = new Map<string, Promise<string>>();

  function requireInit(): IdentityInitOptions {
    if (!config) throw new Error('Identity not initialized');
    return config;
  }

  const checker = createSessionChecker({
    store,
    now,
    fetchSession: async () => {
      const { user, account, subscription } = await api.getSession(requireInit().titleCode());
      return { user, account, subscription };
    },
  });

  function saveReturnTarget(value: string | null): void {
    try {
      if (value === null) returnTargetStorage()?.removeItem(RETURN_TARGET_KEY);
      else returnTargetStorage()?.setItem(RETURN_TARGET_KEY, value);
    } catch {
      // Storage full or forbidden: only the "Prøv igjen" target is lost.
    }
  }

  async function checkSession(purpose: CheckPurpose = 'required'): Promise<SignedInSession | null> {
    requireInit();
    return checker.check(purpose);
  }

  async function isLoggedIn(): Promise<boolean> {
    return (await checkSession('required')) !== null;
  }

  async function startLogin(returnTo: string, titleCode: string | undefined): Promise<boolean> {
    try {
      const { authorizationUrl } = requireLoginToken(await api.getLoginToken(returnTo, titleCode));
      saveReturnTarget(returnTo);
      leaveTo(authorizationUrl);
    } catch (error) {
      console.error('The login could not be started', error);
      return isLoggedIn();
    }
    return new Promise<boolean>(() => {});
  }

  function login(returnTo: string): Promise<boolean> {
    let init: IdentityInitOptions;
    try {
      init = requireInit();
    } catch (error) {
      return Promise.reject(error);
    }
    // The guard and a 401 elsewhere may both ask at once: one login token, one redirect.
    if (loginInProgress) return loginInProgress;
    const attempt = startLogin(returnTargetOf(toLocation(returnTo)), init.titleCode());
    loginInProgress = attempt;
    // Settling means the redirect did not happen: a later login may try again.
    const settle = () => {
      if (loginInProgress === attempt) loginInProgress = null;
    };
    attempt.then(settle, settle);
    return attempt;
  }

  async function link(issuer: string, returnTo: string): Promise<void> {
    const target = returnTargetOf(toLocation(returnTo));
    const { authorizationUrl } = requireLoginToken(await api.getLoginToken(target, requireInit().titleCode(), { issuer, purpose: 'link' }));
    saveReturnTarget(target);
    leaveTo(authorizationUrl);
    await new Promise<never>(() => {});
  }

  async function logout(): Promise<void> {
    const { onSignedOut } = requireInit();
    let endSessionUrl: string | null = null;
    try {
      ({ endSessionUrl } = await api.logout());
    } catch (error) {
      // 401: the server session is already gone, which is what logging out wants.
      if (!(isApiError(error) && error.status === 401)) throw error;
    }
    checker.forget();
    saveReturnTarget(null);
    onSignedOut?.();
    leaveTo(endSessionUrl ?? pathTo('customerService'));
  }

  function completeLogin(body: HandleCodeBody): Promise<string> {
    const existing = completions.get(body.code);
    if (existing) return existing;
    const completion = api.handleCode(body).then(({ user, account, subscription, returnTo }) => {
      checker.remember({ user, account, subscription });
      lastLoginCompletedAt = now();
      saveReturnTarget(null);
      return returnTargetOf(toLocation(returnTo));
    });
    completions.set(body.code, completion);
    return completion;
  }

  function handleUnauthenticated(returnTo: string): void {
    if (lastLoginCompletedAt !== null && now() - lastLoginCompletedAt < LOGIN_LOOP_GUARD_MS) {
      console.error('A call was refused right after a completed login; not starting another login');
      return;
    }
    checker.forget();
    login(returnTo).catch((error: unknown) => console.error('The login could not be started', error));
  }

  async function returnTargetOfLogin(state: string | null, sent?: string | null): Promise<string> {
    if (state) {
      try {
        return returnTargetOf(toLocation((await api.getLoginReturn(state)).returnTo));
      } catch {
        // Unknown to the server, forgotten, or the network: the tab's own target.
      }
    }
    if (sent) return returnTargetOf(toLocation(sent));
    return lastReturnTarget();
  }

  function lastReturnTarget(): string {
    try {
      return returnTargetOf(toLocation(returnTargetStorage()?.getItem(RETURN_TARGET_KEY) ?? '/'));
    } catch {
      return '/';
    }
  }

  return {
    init(initOptions) {
      config = initOptions;
    },
    isInitialized: () => config !== null,
    checkSession,
    isLoggedIn,
    login,
    link,
    logout,
    completeLogin,
    handleUnauthenticated,
    lastReturnTarget,
    returnTargetOfLogin,
    remember: (session) => checker.remember(session),
    rememberUser: (user) => checker.rememberUser(user),
    seed: (session) => checker.seed(session),
  };
}

/** Splits a path with query and hash into its parts (relative to this site only). */
function toLocation(target: string): { pathname: string; search: string; hash: string } | null {
  if (!/^\/(?![/\\])/.test(target)) return null;
  try {
    const url = new URL(target, 'http://return.invalid');
    return { pathname: url.pathname, search: url.search, hash: url.hash };
  } catch {
    // Not an address at all (a path from the URL of /callback, say): no target.
    return null;
  }
}

/**
 * The app's one identity client. `init` runs at start-up (main.tsx), once the title is known. In
 * the server render, the request's own (its session cache and login state are the visitor's).
 */
export const identity: IdentityClient = perPage(() => createIdentityClient());
