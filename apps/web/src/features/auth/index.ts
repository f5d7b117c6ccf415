// Public API of the auth area. Its pages are in routes.ts (loaded lazily).
export { identity, createIdentityClient } from './identity.ts';
export type { IdentityApi, IdentityClient } from './identity.ts';
export { IdentityProvider, useIdentity } from './identity-context.tsx';
export { returnTargetOf } from './return-target.ts';
export type { LocationParts } from './return-target.ts';
export { sessionStore, useSessionUser, useSessionAccount, useSessionSubscription } from './session.ts';
export type { SignedInSession } from './session.ts';
export { authMessages } from './messages.ts';
export { loginStartHref } from './api/get-login-token.ts';
export { loginIssuersQueryOptions, profileLoginsKey, profileLoginsQueryOptions, unlinkLogin } from './api/logins.ts';
export { loginIssuerName } from './issuer-name.ts';
