// Public API of the auth area. Its pages are in routes.ts (loaded lazily).
export { sessionStore, useSessionUser, setSessionUser } from './session.ts';
export type { SessionUser, SessionState } from './session.ts';
