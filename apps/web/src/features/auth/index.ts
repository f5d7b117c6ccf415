// Public API of the auth area. Its pages are in routes.ts (loaded lazily).
export { identity, createIdentityClient, requireLoginToken, LOGIN_LOOP_GUARD_MS } from './identity.ts';
export type { IdentityApi, IdentityClient, IdentityClientOptions, IdentityInitOptions } from './identity.ts';
export { IdentityProvider, useIdentity } from './identity-context.tsx';
export { returnTargetOf } from './return-target.ts';
export type { LocationParts } from './return-target.ts';
export { SESSION_CACHE_MS, SESSION_CALL_BLOCK_MS } from './session-cache.ts';
export type { CheckPurpose } from './session-cache.ts';
export { sessionStore, useSessionUser, useSessionAccount, useSessionSubscription } from './session.ts';
export type { SessionState, SessionStatus, SignedInSession } from './session.ts';
export { authMessages } from './messages.ts';
export { loginIssuersQueryOptions, profileLoginsKey, profileLoginsQueryOptions, unlinkLogin } from './api/logins.ts';
export { loginIssuerName } from './issuer-name.ts';
