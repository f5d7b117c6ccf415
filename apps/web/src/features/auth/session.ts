import type { Account, Subscription, User } from '@minside/domain';
import { createStore, useStore, type Store } from '../../lib/create-store.ts';
import { perPage } from '../../lib/page-scope.ts';

/** SPEC §4 session: what a successful login check (or handlecode) tells about the user. */
export interface SignedInSession {
  user: User;
  account: Account | null;
  /** Null when the user has no subscription on this title. */
  subscription: Subscription | null;
}

/**
 * - unknown: not asked yet in this page load.
 * - signedIn / signedOut: the server's answer at `checkedAt`.
 * - unavailable: the session call failed at `checkedAt` (network, 5xx); counts as signed out
 *   while the SPEC §9 block lasts.
 */
export type SessionStatus = 'unknown' | 'signedIn' | 'signedOut' | 'unavailable';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  account: Account | null;
  subscription: Subscription | null;
  /** Epoch milliseconds of the answer behind `status`; null while unknown. */
  checkedAt: number | null;
}

export const initialSessionState: SessionState = { status: 'unknown', user: null, account: null, subscription: null, checkedAt: null };

export type SessionStore = Store<SessionState>;

export function createSessionStore(initial: SessionState = initialSessionState): SessionStore {
  return createStore<SessionState>(initial);
}

/**
 * The one place that knows whether someone is signed in. The login check (SPEC §4 step 3)
 * and the login callback fill it; logout and the 401/406 rule empty it. The timing of the
 * SPEC §9 cache lives beside the answer it belongs to, so the two cannot disagree.
 * One per page: in the server render, the session of the request being rendered.
 */
export const sessionStore: SessionStore = perPage(() => createSessionStore());

export function setSignedIn(store: SessionStore, session: SignedInSession, at: number): void {
  store.setState({ status: 'signedIn', user: session.user, account: session.account, subscription: session.subscription, checkedAt: at });
}

/** SPEC §4: the user, account and subscription are cleared. */
export function setSignedOut(store: SessionStore, at: number, status: 'signedOut' | 'unavailable' = 'signedOut'): void {
  store.setState({ status, user: null, account: null, subscription: null, checkedAt: at });
}

/** The signed-in session held in the state, or null. */
export function sessionOf(state: SessionState): SignedInSession | null {
  if (state.status !== 'signedIn' || !state.user) return null;
  return { user: state.user, account: state.account, subscription: state.subscription };
}

export function useSessionUser(): User | null {
  return useStore(sessionStore, (state) => state.user);
}

export function useSessionSubscription(): Subscription | null {
  return useStore(sessionStore, (state) => state.subscription);
}

export function useSessionAccount(): Account | null {
  return useStore(sessionStore, (state) => state.account);
}
