import { isApiError } from '../../lib/http.ts';
import { sessionOf, setSignedIn, setSignedOut, type SessionState, type SessionStore, type SignedInSession } from './session.ts';

/** SPEC §9: "Identity session cache 300 seconds by default". */
export const SESSION_CACHE_MS = 300_000;
/** SPEC §9: "Session-call block 5 minutes", after a failed session call. */
export const SESSION_CALL_BLOCK_MS = 5 * 60_000;

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
export function decideSessionCheck(
  state: Pick<SessionState, 'status' | 'checkedAt'>,
  now: number,
  purpose: CheckPurpose,
  times: SessionCacheTimes = defaultTimes,
): 'reuse' | 'ask' {
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
  /** Records that nobody is signed in (logout, a 401/406). A check in flight is discarded. */
  forget(): void;
}

export function createSessionChecker({ store, fetchSession, now = Date.now, times = defaultTimes }: SessionCheckerOptions): SessionChecker {
  let inFlight: Promise<SignedInSession | null> | null = null;
  // Bumped by remember/forget, so an older answer arriving late cannot overwrite a newer one.
  let generation = 0;

  async function ask(): Promise<SignedInSession | null> {
    const started = generation;
    try {
      const session = await fetchSession();
      if (started === generation) setSignedIn(store, session, now());
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
      if (decideSessionCheck(state, now(), purpose, times) === 'reuse') return Promise.resolve(sessionOf(state));
      // The root and page loaders, and StrictMode, ask at the same moment: one call serves all.
      if (inFlight) return inFlight;
      const pending = ask().finally(() => {
        if (inFlight === pending) inFlight = null;
      });
      inFlight = pending;
      return pending;
    },
    remember(session) {
      generation += 1;
      inFlight = null;
      setSignedIn(store, session, now());
    },
    forget() {
      generation += 1;
      inFlight = null;
      setSignedOut(store, now());
    },
  };
}
