import { createStore, useStore } from '../../lib/create-store.ts';

/** SPEC §3 User, as far as the shell needs it. The login issue replaces this with the domain contract. */
export interface SessionUser {
  displayName: string;
}

export interface SessionState {
  user: SessionUser | null;
}

/**
 * The one place that knows whether someone is signed in. The login check (SPEC §4 step 3)
 * fills it; logout empties it. Nothing else keeps a copy.
 */
export const sessionStore = createStore<SessionState>({ user: null });

export function useSessionUser(): SessionUser | null {
  return useStore(sessionStore, (state) => state.user);
}

export function setSessionUser(user: SessionUser | null): void {
  sessionStore.setState((state) => ({ ...state, user }));
}
