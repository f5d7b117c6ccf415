import { systemClock, type User } from '@minside/domain';
import { isApiError } from '../../lib/http.ts';
import { sessionOf, setSignedIn, setSignedOut, type SessionState, type SessionStore, type SignedInSession } from './session.ts';

/** SPEC §9: "Identity session cache 300 seconds by default". */
export const SESSION_CACHE_MS = 300_000;
/** SPEC §9: "Session-call block 5 minutes", after a failed session call. */
export const SESSION_CALL_BLOCK_MS = 5 * 60_000;
/**
 * How long the "signed out" the server put into the page (docs/decisions/022) answers the
 * first required check too. It is read within milliseconds of that check; the limit only
 * keeps an answer from a long-open page from being taken for a fresh one.
 */
export const SEEDED_ANSWER_MS = 10_000;

/**
 * - required: a guarded route needs the answer. A recent "signed out" is asked again: the
 *   user may have logged in in another tab, and the alternative is a needless login round trip.
 * - opportunistic: a public route only wants the header right, so any recent answer will do.
 */
export type CheckPurpose = 'required' | 'opportunistic';

export interface SessionCacheTimes {
  cacheMs: number;
  blockMs: number;
}

const defaultTimes: SessionCacheTimes = { cacheMs: SESSION_CACHE_MS, blockMs: SESSION_CALL_BLOCK_MS };

/** Whether the answer in `state` may be reused at `now` ('reuse') or the server must be asked ('ask'). */
export function decideSessionCheck(state: Pick<SessionState, 'status' | 'checkedAt'>, now: number, purpose: CheckPurpose, times: SessionCacheTimes = defaultTimes): 'reuse' | 'ask' {
  if (state.checkedAt === null) return 'ask';
  const age = now - state.checkedAt;
  // A clock that went backwards makes every age meaningless: ask.
  if (age < 0) return 'ask';
  switch (state.status) {
    case 'signedIn':
      return age < times.cacheMs ? 'reuse' : 'ask';
    case 'unavailable':
      return age < times.blockMs ? 'reuse' : 'ask';
    case 'signedOut':
      return purpose === 'opportunistic' && age < times.cacheMs ? 'reuse' : 'ask';
    case 'unknown':
      return 'ask';
  }
}

export interface SessionCheckerOptions {
  store: SessionStore;
  /** Resolves with the session; rejects with an ApiError of status 401 when nobody is signed in. */
  fetchSession: () => Promise<SignedInSession>;
  now?: () => number;
  times?: SessionCacheTimes;
}

export interface SessionChecker {
  /** The signed-in session, or null when signed out or while the session call is blocked. Never rejects. */
  check(purpose?: CheckPurpose): Promise<SignedInSession | null>;
  /** Records a session the app learnt of otherwise (handlecode), as fresh as a check. */
  remember(session: SignedInSession): void;
  /**
   * Records the signed-in user's new details (a profile change). The rest of the session, and
   * when it was checked, stay as they were: the subscription in it is no fresher than before.
   */
  rememberUser(user: User): void;
  /**
   * Records the answer the server put into the page for this very request (app/bootstrap.ts),
   * as fresh as a check. A "signed out" there answers the page load's first check even when
   * it is a required one: asking again at once would only delay the login by a round trip.
   */
  seed(session: SignedInSession | null): void;
  /** Records that nobody is signed in (logout, a 401/406). A check in flight is discarded. */
  forget(): void;
}

export function createSessionChecker({ store, fetchSession, now = () => systemClock().getTime(), times = defaultTimes }: SessionCheckerOptions): SessionChecker {
  let inFlight: Promise<SignedInSession | null> | null = null;
  // Bumped by remember/forget, so an older answer arriving late cannot overwrite a newer one.
  let generation = 0;
  // When the page's own "signed out" was seeded, until the first check has used it.
  let seededSignedOutAt: number | null = null;
  // The user's details as a profile change left them, for an answer asked for before it (rememberUser).
  let changedUser: User | null = null;

  function remember(session: SignedInSession): void {
    generation += 1;
    inFlight = null;
    seededSignedOutAt = null;
    setSignedIn(store, session, now());
  }

  function rememberUser(user: User): void {
    const state = store.getState();
    if (state.status !== 'signedIn') return;
    // A check in flight was asked before the change: its answer still counts, with these details over its own.
    changedUser = user;
    store.setState({ ...state, user });
  }

  function forget(): void {
    generation += 1;
    inFlight = null;
    seededSignedOutAt = null;
    setSignedOut(store, now());
  }

  async function ask(): Promise<SignedInSession | null> {
    const started = generation;
    changedUser = null;
    try {
      const session = await fetchSession();
      // Set by rememberUser while this was asked for (the await hides the change from TypeScript's narrowing).
      const changed = changedUser as User | null;
      changedUser = null;
      // Another user's answer cannot come here: a login goes through remember, which starts a new generation.
      if (started === generation) setSignedIn(store, changed ? { ...session, user: changed } : session, now());
    } catch (error) {
      if (started === generation) {
        // 401 is a definite answer; anything else is a failed call and starts the block.
        const signedOut = isApiError(error) && error.status === 401;
        if (!signedOut) console.error('The session check failed; not asking again for a while', error);
        setSignedOut(store, now(), signedOut ? 'signedOut' : 'unavailable');
      }
    }
    return sessionOf(store.getState());
  }

  return {
    check(purpose = 'required') {
      const state = store.getState();
      const seededAt = seededSignedOutAt;
      seededSignedOutAt = null;
      if (seededAt !== null && state.status === 'signedOut' && state.checkedAt === seededAt && now() - seededAt < SEEDED_ANSWER_MS) return Promise.resolve(null);
      if (decideSessionCheck(state, now(), purpose, times) === 'reuse') return Promise.resolve(sessionOf(state));
      // The root and page loaders, and StrictMode, ask at the same moment: one call serves all.
      if (inFlight) return inFlight;
      const pending = ask().finally(() => {
        if (inFlight === pending) inFlight = null;
      });
      inFlight = pending;
      return pending;
    },
    remember,
    rememberUser,
    forget,
    seed(session) {
      if (session) {
        remember(session);
        return;
      }
      forget();
      seededSignedOutAt = store.getState().checkedAt;
    },
  };
}
