import { z } from 'zod';
import { introductoryPriceSchema } from '../subscription/price-terms.ts';
import { billingPeriods, featureSetSchema, instStatusCodeSchema, paymentMethods, planProductTypes } from '../subscription/subscription.ts';
import { titleSchema } from '../title/title.ts';

/**
 * SPEC §3 User: the identity id is a field named after the identity provider plus `Id`
 * (`spidId` with the default provider `spid`). The name is configuration, so the contracts
 * keep it out of their fixed shape: read it with `identityIdOf`.
 */
export function identityIdKey(identityProviderName: string): string {
  return `${identityProviderName}Id`;
}

export function identityIdOf(record: Record<string, unknown>, identityProviderName: string): string | undefined {
  const value = record[identityIdKey(identityProviderName)];
  return typeof value === 'string' ? value : undefined;
}

/** SPEC §3 User. `sp_id` is the portal's own id of the user. */
export const userSchema = z.looseObject({
  sp_id: z.string(),
  displayName: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  phoneNumber: z.string().nullable(),
  email: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** SPEC §3 Account. Money in the API is øre (integers), like in storage. */
export const accountSchema = z.looseObject({
  ariaAccountNo: z.number().int(),
  /** Øre. Negative means the subscriber owes money. */
  accountBalance: z.number().int(),
  firstTitleCode: z.string(),
});
export type Account = z.infer<typeof accountSchema>;

const isoDate = z.iso.date();

/** SPEC §3 Subscription, with what the portal shows about it. */
export const subscriptionSchema = z.object({
  id: z.string(),
  ariaAccountNo: z.number().int(),
  titleCode: z.string(),
  ariaPlanID: z.string(),
  planName: z.string(),
  planProductType: z.enum(planProductTypes),
  eligibleForSharing: z.boolean(),
  instStatusCode: instStatusCodeSchema,
  subsRetrieveSubscriptionAddInfo: z.object({ subscriptionInfo1: z.string().nullable() }),
  billingPeriod: z.enum(billingPeriods as [string, ...string[]]),
  /** The regular price per billing period, øre; the introductory offer, while it runs, is `introductoryPrice` (price-terms.ts). */
  priceOre: z.number().int(),
  introductoryPrice: introductoryPriceSchema.nullable(),
  paymentMethod: z.enum(paymentMethods),
  features: featureSetSchema,
  startedOn: isoDate,
  /** The renewal day: the first day after the paid period (paid-period.ts). The last day with access is the day before. */
  currentPeriodEnd: isoDate,
  cancelledAt: z.string().nullable(),
  pendingChange: z.object({ ariaPlanID: z.string(), planName: z.string(), on: isoDate }).nullable(),
  /** Set for family members and business employees: whose subscription the access comes from. */
  sharedFrom: z.object({ ownerName: z.string() }).nullable(),
  companyDomain: z.string().nullable(),
  maxMembers: z.number().int(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** GET /api/session: who is signed in, on which title. 401 when nobody is. */
export const sessionResponseSchema = z.object({
  user: userSchema,
  account: accountSchema.nullable(),
  subscription: subscriptionSchema.nullable(),
  title: titleSchema,
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** A path on this site to come back to after login: starts with one slash, never `//`. */
export const returnToSchema = z
  .string()
  .max(2048)
  .regex(/^\/(?![/\\])/, 'must be a path on this site');

/** Title code the browser resolved (retrieveTitleCode); the server checks it. */
const titleCodeParam = z
  .string()
  .min(1)
  .max(16)
  .regex(/^[A-Za-z0-9]+$/);

/** A configured issuer's key (config OIDC_KEY / OIDC2_KEY): `account`, `vipps`. */
export const loginIssuerKeySchema = z.string().regex(/^[a-z][a-z0-9-]{0,30}$/);

/**
 * The `error` that GET /api/login/start sends the browser to /callback with when it could not start
 * the login (the header's "Logg inn" link, docs/decisions/032), beside `returnTo`, the path it was
 * started from: the page says the login did not start, and "Prøv igjen" starts it for that path.
 */
export const LOGIN_NOT_STARTED_ERROR = 'login_not_started';

export const loginTokenQuerySchema = z.object({
  returnTo: returnToSchema.optional(),
  titleCode: titleCodeParam.optional(),
  /**
   * Which issuer to log in with (issue 24). Without it, and with more than one issuer, the
   * authorization URL is the portal's own login page, which lists them.
   */
  issuer: loginIssuerKeySchema.optional(),
  /** `link`: the signed-in user adds this issuer's login to their own ("Koble til Vipps", "Bekreft alderen med Vipps"). */
  purpose: z.enum(['login', 'link']).optional(),
});

/** One way to log in, as the login page and the profile list it. */
const loginIssuerSchema = z.object({
  key: loginIssuerKeySchema,
  /** "Vipps", "Adresseavisen-konto": what the button and the profile call it. */
  label: z.string(),
  /** `vipps` gets Vipps' own button; `oidc` the title's. */
  style: z.enum(['oidc', 'vipps']),
  /** It verifies birthdates (Vipps: BankID): "Bekreft alderen med …" uses it. */
  verifiesAge: z.boolean(),
});
export type LoginIssuer = z.infer<typeof loginIssuerSchema>;

/** GET /api/login/issuers: the ways to log in, the first the main one. */
export const loginIssuersResponseSchema = z.object({ issuers: z.array(loginIssuerSchema).min(1) });

/** POST /api/login/choose: the person picked an issuer on the portal's login page. */
export const chooseLoginIssuerBodySchema = z.object({ loginToken: z.string().min(1).max(512), issuer: loginIssuerKeySchema });
export const chooseLoginIssuerResponseSchema = z.object({ authorizationUrl: z.string() });

/** GET /api/profile/logins: each configured issuer, and whether this user's login with it is linked. */
export const profileLoginsResponseSchema = z.object({
  logins: z.array(
    loginIssuerSchema.extend({
      linkedAt: z.string().nullable(),
      /** False for the last linked login: a user always keeps one way in. */
      canUnlink: z.boolean(),
    }),
  ),
});
export type ProfileLogins = z.infer<typeof profileLoginsResponseSchema>;

/** GET /api/loginToken: a one-time login token bound to this browser, and where to go with it. */
export const loginTokenResponseSchema = z.object({
  loginToken: z.string(),
  /** The provider's authorization URL: scope, PKCE challenge, state and nonce already set. */
  authorizationUrl: z.string(),
});
export type LoginTokenResponse = z.infer<typeof loginTokenResponseSchema>;

/** POST /api/handlecode and /api/handleLoginToken: what the provider sent back to /callback. */
export const handleCodeBodySchema = z.object({
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(512),
  /** The provider's `iss` response parameter (RFC 9207), when it sent one: pass it on as received. */
  iss: z.string().max(2048).optional(),
  /** The identity id if the browser knows it; when given it must match the ID token's subject. */
  identityId: z.string().min(1).max(256).optional(),
});
export type HandleCodeBody = z.infer<typeof handleCodeBodySchema>;

/** GET /api/login/return: the login's state, as the provider sent it back to /callback. */
export const loginReturnQuerySchema = z.object({ state: handleCodeBodySchema.shape.state });
export const loginReturnResponseSchema = z.object({ returnTo: returnToSchema });
export type LoginReturnResponse = z.infer<typeof loginReturnResponseSchema>;

export const handleCodeResponseSchema = z.object({
  user: userSchema,
  account: accountSchema.nullable(),
  subscription: subscriptionSchema.nullable(),
  /** The path the login started from. */
  returnTo: z.string(),
});
export type HandleCodeResponse = z.infer<typeof handleCodeResponseSchema>;

export const sessionQuerySchema = z.object({ titleCode: titleCodeParam.optional() });

/** POST /api/logout: where to send the browser to end the provider's session too. */
export const logoutResponseSchema = z.object({
  endSessionUrl: z.string().nullable(),
});

export const accountParamsSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** POST /api/account (SPEC §7): create the signed-in user's account. Returns ariaAccountNo. */
export const createAccountBodySchema = z.looseObject({
  accountBalance: z.number().int(),
  firstTitleCode: titleCodeParam,
});
export const createAccountResponseSchema = z.object({ ariaAccountNo: z.number().int() });

/** PUT /api/account: what a subscriber may change on their account. */
export const updateAccountBodySchema = z.object({
  ariaAccountNo: z.number().int(),
  firstTitleCode: titleCodeParam,
});

/** GET /api/subscription/{accountNo}/{titleCode}: order recorded in docs/decisions/004. */
export const subscriptionParamsSchema = z.object({
  accountNo: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  titleCode: titleCodeParam,
});

export const authErrorCodes = {
  notAuthenticated: 'NOT_AUTHENTICATED',
  loginStateInvalid: 'LOGIN_STATE_INVALID',
  loginExpired: 'LOGIN_EXPIRED',
  loginFailed: 'LOGIN_FAILED',
  identityMismatch: 'IDENTITY_MISMATCH',
  providerUnavailable: 'IDENTITY_PROVIDER_UNAVAILABLE',
  unknownPortalHost: 'UNKNOWN_PORTAL_HOST',
  unknownIssuer: 'UNKNOWN_LOGIN_ISSUER',
  loginLinkedElsewhere: 'LOGIN_LINKED_TO_OTHER_USER',
  issuerAlreadyLinked: 'LOGIN_ISSUER_ALREADY_LINKED',
  loginNotLinked: 'LOGIN_NOT_LINKED',
  lastLogin: 'LAST_LOGIN',
} as const;

export const authErrorMessages = {
  notAuthenticated: 'Du må logge inn for å fortsette.',
  loginStateInvalid: 'Innloggingen kunne ikke bekreftes. Prøv å logge inn på nytt.',
  loginExpired: 'Innloggingen tok for lang tid. Prøv å logge inn på nytt.',
  loginFailed: 'Innloggingen mislyktes. Prøv å logge inn på nytt.',
  identityMismatch: 'Innloggingen hører til en annen bruker. Prøv å logge inn på nytt.',
  providerUnavailable: 'Innloggingen er ikke tilgjengelig akkurat nå. Prøv igjen om litt.',
  unknownPortalHost: 'Min Side er ikke tilgjengelig på denne adressen.',
  unknownIssuer: 'Denne måten å logge inn på finnes ikke her.',
  loginLinkedElsewhere: 'Denne innloggingen hører allerede til en annen bruker på Min Side. Logg inn med den for å bruke den brukeren.',
  issuerAlreadyLinked: 'Du har allerede koblet til en annen konto av denne typen. Koble den fra først.',
  loginNotLinked: 'Denne innloggingen er ikke koblet til deg.',
  lastLogin: 'Du kan ikke koble fra den eneste måten du logger inn på.',
} as const;

export const accountErrorCodes = {
  accountExists: 'ACCOUNT_EXISTS',
  invalidAccountBalance: 'INVALID_ACCOUNT_BALANCE',
  unknownTitle: 'UNKNOWN_TITLE',
} as const;

export const accountErrorMessages = {
  accountExists: 'Du har allerede en kundekonto.',
  invalidAccountBalance: 'En ny kundekonto starter med saldo 0.',
  unknownTitle: 'Fant ingen avis med denne koden.',
} as const;
