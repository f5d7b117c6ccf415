import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, date, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Per-title maintenance switch. MAINTENANCE=on in the environment takes every title down
 * at once; a row here takes one title down (an operator tool sets it).
 */
export const titleMaintenance = pgTable('title_maintenance', {
  titleCode: text('title_code').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  message: text('message'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The title catalogue as operators stored it (ADR 019): one row per version, the highest is
 * the active one. Without rows the server uses TITLES_FILE or the built-in data. The version
 * is the primary key, so two operators storing "the next version" at once cannot both win.
 */
export const titleCatalogueVersion = pgTable('title_catalogue_version', {
  version: integer('version').primaryKey(),
  /** The raw catalogue (the titles.json shape, defaults not applied), as `catalogue export` writes it. */
  document: jsonb('document').$type<Record<string, unknown>>().notNull(),
  /** What made it, e.g. "import titles.json" or "contacts set ADR". */
  source: text('source').notNull(),
  /** The difference to the version before, one line per change, as the command printed it. */
  changes: jsonb('changes').$type<string[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------------------
// Embedded identity provider (apps/server/src/identity/provider). A separate system in
// spirit: the portal's own tables never join these; they meet only through the OIDC `sub`.
// ---------------------------------------------------------------------------------------

/** The provider's user accounts: e-mail and a scrypt password hash. `id` is the OIDC `sub`. */
export const idpAccount = pgTable('idp_account', {
  id: text('id').primaryKey(),
  /** Stored lower-cased; the login form lower-cases what is typed. */
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(true),
  passwordHash: text('password_hash').notNull(),
  givenName: text('given_name').notNull(),
  familyName: text('family_name').notNull(),
  phoneNumber: text('phone_number'),
  createdAt: createdAt(),
});

/**
 * A sign-up waiting for the code mailed to its address (issue 20): nothing of it is a login
 * until the code is typed in the same login interaction (`interactionUid`), when the
 * `idp_account` is made from it. `mailed` false: the address had a login already, so no
 * code went out (its owner got a notice instead) and every code is wrong. Rows die at
 * `expiresAt` and are swept.
 */
export const idpSignup = pgTable(
  'idp_signup',
  {
    id: text('id').primaryKey(),
    interactionUid: text('interaction_uid').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    givenName: text('given_name').notNull(),
    familyName: text('family_name').notNull(),
    codeHash: text('code_hash').notNull(),
    mailed: boolean('mailed').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('idp_signup_expires_idx').on(table.expiresAt)],
);

/**
 * "Glemt passord?" at the embedded provider: a six-digit code mailed to the address, typed in the
 * same login interaction (`interactionUid`) with the new password. A row is made for every
 * request, whether or not the address has a login (`accountId` null, `mailed` false: its
 * owner got a notice instead of a code and every code is wrong), so the answer and the limits
 * say nothing about who has a login. Kept a day for the limits per address, then swept.
 */
export const idpPasswordReset = pgTable(
  'idp_password_reset',
  {
    id: text('id').primaryKey(),
    interactionUid: text('interaction_uid').notNull(),
    email: text('email').notNull(),
    accountId: text('account_id'),
    codeHash: text('code_hash').notNull(),
    mailed: boolean('mailed').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  // email_created serves the limits per address; created the daily sweep.
  (table) => [index('idp_password_reset_email_created_idx').on(table.email, table.createdAt), index('idp_password_reset_created_idx').on(table.createdAt)],
);

/** oidc-provider's storage adapter: one row per model instance (sessions, codes, grants …). */
export const idpPayload = pgTable(
  'idp_payload',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('idp_payload_grant_id_idx').on(table.grantId),
    index('idp_payload_uid_idx').on(table.uid),
    index('idp_payload_expires_at_idx').on(table.expiresAt),
  ],
);

/** The provider's persistent secrets: signing keys (JWKS) and cookie keys, created once. */
export const idpSecret = pgTable('idp_secret', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
});

/** Failed password attempts, per account e-mail and per client IP: the login throttle counts these. */
export const idpLoginFailure = pgTable(
  'idp_login_failure',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `email:<address>` or `ip:<address>`. */
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  // key_at serves the throttle's count; at alone the sweep of old failures on every login (issue 11: no full index scans).
  (table) => [index('idp_login_failure_key_at_idx').on(table.key, table.at), index('idp_login_failure_at_idx').on(table.at)],
);

// ---------------------------------------------------------------------------------------
// The portal: users known by their identity `sub`, their accounts and subscriptions.
// ---------------------------------------------------------------------------------------

/** SPEC §3 User. `identitySub` is the identity id (`spidId` when the provider is spid). */
export const appUser = pgTable('app_user', {
  id: text('id').primaryKey(),
  /** The OIDC `sub` of the configured issuer. One issuer per deployment, so it is unique. */
  identitySub: text('identity_sub').notNull().unique(),
  email: text('email').notNull(),
  givenName: text('given_name').notNull().default(''),
  familyName: text('family_name').notNull().default(''),
  phoneNumber: text('phone_number'),
  birthdate: date('birthdate', { mode: 'string' }),
  /**
   * Since when this user has proven `email` (a sign-up code, a confirmed e-mail change, an
   * issuer's email_verified). Null: never. The data export lists mail to the address only
   * from then on (issue 20): mail to the same string before that was not theirs.
   */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (table) => [index('app_user_email_idx').on(table.email)]);

/**
 * The logins that reach a user (issue 24): one row per issuer and subject. A person may sign in with
 * the group's account and with Vipps and reach the same subscriber; `issuer` is the configured key
 * (`account`, `vipps`), not the issuer's URL, so a moved issuer keeps its people.
 */
export const userLogin = pgTable(
  'user_login',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id').notNull().references(() => appUser.id),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.issuer, table.subject] }),
    // One login per issuer and user: a second Vipps account is linked only after the first is unlinked.
    uniqueIndex('user_login_user_issuer_idx').on(table.userId, table.issuer),
  ],
);

/**
 * Where each of a user's profile fields came from (issue 24): the issuer (with its word on whether
 * it verified the value), the user, the user's own declaration at a purchase with an age limit,
 * or customer service. A verified or declared field is locked against the user's own edits. No
 * row: the user's own (typed before provenance was kept).
 */
export const profileFieldSource = pgTable(
  'profile_field_source',
  {
    userId: text('user_id').notNull().references(() => appUser.id),
    /** givenName, familyName, email, phoneNumber or birthdate. */
    field: text('field').notNull(),
    /** ISSUER, USER, DECLARED or CUSTOMER_SERVICE. */
    source: text('source').notNull(),
    /** The issuer as the profile names it ("Vipps"), for ISSUER. */
    issuerLabel: text('issuer_label'),
    verified: boolean('verified').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.field] })],
);

/** SPEC §3 Account. Money is øre. One account per user. */
export const account = pgTable('account', {
  // New accounts count up from 50 000 000; the demo data uses numbers below that.
  ariaAccountNo: bigint('aria_account_no', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity({ startWith: 50_000_000 }),
  userId: text('user_id').notNull().unique().references(() => appUser.id),
  firstTitleCode: text('first_title_code').notNull(),
  accountBalanceOre: integer('account_balance_ore').notNull().default(0),
  createdAt: createdAt(),
});

/** SPEC §3 Subscription, one per account and title. */
export const subscription = pgTable(
  'subscription',
  {
    id: text('id').primaryKey(),
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' }).notNull().references(() => account.ariaAccountNo),
    titleCode: text('title_code').notNull(),
    ariaPlanId: text('aria_plan_id').notNull(),
    planName: text('plan_name').notNull(),
    /** COMBO (paper + digital) or DIGITAL. */
    planProductType: text('plan_product_type').notNull(),
    eligibleForSharing: boolean('eligible_for_sharing').notNull(),
    instStatusCode: integer('inst_status_code').notNull(),
    /** subsRetrieveSubscriptionAddInfo.subscriptionInfo1: business role ("admin"/"employee") or null. */
    subscriptionInfo1: text('subscription_info1'),
    /** YEAR, QUARTER, MONTH or MONTH_PREMIUM. */
    billingPeriod: text('billing_period').notNull(),
    /** The regular price per billing period, øre: what is charged once any introductory offer is over. */
    priceOre: integer('price_ore').notNull(),
    /**
     * An introductory offer bought with the subscription (the 1 kr month, the campaign, the
     * winback; issue 25.1): what the first period cost, how many months it covers, and the
     * renewal day from which `priceOre` applies. All three or none.
     */
    introPriceOre: integer('intro_price_ore'),
    introMonths: integer('intro_months'),
    introEndsOn: date('intro_ends_on', { mode: 'string' }),
    /** AVTALEGIRO, CARD, VIPPS, INVOICE or NONE. */
    paymentMethod: text('payment_method').notNull(),
    /** Title feature set (SPEC §3). */
    features: jsonb('features').$type<{ plusContent: boolean; ePaper: boolean; paper: boolean; familySharing: boolean; thirdPartyBundle: boolean }>().notNull(),
    startedOn: date('started_on', { mode: 'string' }).notNull(),
    /** End of the paid period: next renewal, or the end date once cancelled. */
    currentPeriodEnd: date('current_period_end', { mode: 'string' }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    pendingPlanId: text('pending_plan_id'),
    pendingPlanName: text('pending_plan_name'),
    pendingChangeOn: date('pending_change_on', { mode: 'string' }),
    /** Family member or business employee: the owner's subscription this access comes from. */
    sharedFromSubscriptionId: text('shared_from_subscription_id'),
    /** Business subscriptions: invitations must use this e-mail domain. */
    companyDomain: text('company_domain'),
    /** Family sharing and business: how many members may be invited. */
    maxMembers: integer('max_members').notNull().default(0),
    /** While cancelled: the status an undone cancellation returns to (ACTIVE or TRIAL). */
    resumeStatusCode: integer('resume_status_code'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('subscription_account_title_idx').on(table.ariaAccountNo, table.titleCode)],
);

/** Family and business members invited to share a subscription (SPEC §3 Family share, Business invitation). */
export const subscriptionMember = pgTable(
  'subscription_member',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    /** family or business. */
    kind: text('kind').notNull(),
    email: text('email').notNull(),
    /** emailSent or active (SPEC §4 invitation states). */
    status: text('status').notNull(),
    /** Set once the invitation is accepted. */
    userId: text('user_id').references(() => appUser.id),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('subscription_member_email_idx').on(table.subscriptionId, table.email)],
);

/** SPEC §3 Invoice. */
export const invoice = pgTable(
  'invoice',
  {
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity({ startWith: 90_000_000 }),
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' }).notNull().references(() => account.ariaAccountNo),
    subscriptionId: text('subscription_id').references(() => subscription.id),
    kid: text('kid').notNull(),
    amountOre: integer('amount_ore').notNull(),
    description: text('description').notNull(),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    /** The bank account the invoice is paid to. */
    bankAccountNumber: text('bank_account_number').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** How it was paid (a SPEC §9 provider code, or CREDIT); set with paidAt (modules/billing). */
    settledBy: text('settled_by'),
    createdAt: createdAt(),
  },
  (table) => [index('invoice_account_idx').on(table.ariaAccountNo, table.periodFrom, table.ariaInvoiceNo)],
);

/** SPEC §3 Delivery address, for paper subscriptions. */
export const deliveryAddress = pgTable('delivery_address', {
  subscriptionId: text('subscription_id').primaryKey().references(() => subscription.id),
  coName: text('co_name'),
  street: text('street').notNull(),
  streetNumber: text('street_number').notNull(),
  apartment: text('apartment'),
  floor: text('floor'),
  postalCode: text('postal_code').notNull(),
  town: text('town').notNull(),
  /** The recipient's name on the mailbox (SPEC §5 "Navn er påkrevd på leveringsadresse"); '' = the subscriber's name. */
  name: text('name').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A verified student e-mail address (SPEC §5 Student). */
export const studentVerification = pgTable('student_verification', {
  userId: text('user_id').primaryKey().references(() => appUser.id),
  studentEmail: text('student_email').notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
  /** When the yearly re-verification reminder went out for the current verification (modules/student). */
  reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
});

// ---------------------------------------------------------------------------------------
// Relying party: login attempts and the portal's own server-side sessions.
// ---------------------------------------------------------------------------------------

/**
 * One login started by `GET /api/loginToken`: the one-time token (stored hashed, it is the
 * OIDC state), the browser it is bound to, and the PKCE verifier and nonce.
 */
export const loginAttempt = pgTable(
  'login_attempt',
  {
  stateHash: text('state_hash').primaryKey(),
  browserBindingHash: text('browser_binding_hash').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  returnTo: text('return_to').notNull(),
  titleCode: text('title_code').notNull(),
  /** The issuer's key (issue 24); null until the person picks one on the portal's login page. */
  issuer: text('issuer'),
  /** LOGIN, or LINK: a signed-in user adds this issuer's login to their own (and with it, its verified claims). */
  purpose: text('purpose').notNull().default('LOGIN'),
  /** For LINK: the user who started it; the login completes only in that user's session. */
  linkUserId: text('link_user_id'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
  },
  // The sweep of old attempts deletes by expiry.
  (table) => [index('login_attempt_expires_idx').on(table.expiresAt)],
);

/** A signed-in browser. The cookie holds a random id; only its SHA-256 is stored. */
export const userSession = pgTable(
  'user_session',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => appUser.id),
    /** Kept for the provider's end-session call (id_token_hint). */
    idToken: text('id_token').notNull(),
    /**
     * The login that opened the session (`user_login` issuer key and subject): unlinking it ends
     * the sessions it opened. Null for sessions from before they were recorded.
     */
    issuer: text('issuer'),
    subject: text('subject'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('user_session_user_idx').on(table.userId), index('user_session_expires_idx').on(table.expiresAt)],
);

/**
 * Fixed-window hit counters of the generic rate limiter (lib/shared-state/rate-limiter.ts)
 * when REDIS_URL is not set: one row per key and window, swept after the window ends.
 */
export const rateLimitCounter = pgTable(
  'rate_limit_counter',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] }), index('rate_limit_counter_expires_idx').on(table.expiresAt)],
);

/**
 * The first answer to a state-changing API call that carried an `Idempotency-Key`
 * (plugins/idempotency.ts) when REDIS_URL is not set. `scope` is user, method, route and key;
 * `fingerprint` the hash of what was asked. A row without `status` is a call still running.
 * Swept after `expires_at`.
 */
export const idempotentRequest = pgTable(
  'idempotent_request',
  {
    scope: text('scope').primaryKey(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('idempotent_request_expires_idx').on(table.expiresAt)],
);

// ---------------------------------------------------------------------------------------
// Paper delivery (modules/delivery): vacation stops, redirects, moves and complaints.
// delivery_address above is the address the subscription started with; moves are
// PERMANENT delivery changes, so the address in use on a day is the newest move that has
// begun (docs/decisions/007-paper-delivery.md).
// ---------------------------------------------------------------------------------------

/** The address stored with a TRANSFER or PERMANENT change. */
export interface StoredDeliveryAddress {
  name: string;
  coName: string | null;
  street: string;
  streetNumber: string;
  apartment: string | null;
  floor: string | null;
  postalCode: string;
  town: string;
}

/** SPEC §3 Vacation or delivery change. Cancelled ones are kept (status) for the carrier and support. */
export const deliveryChange = pgTable(
  'delivery_change',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    /** TRANSFER, PERMANENT or STOP. */
    type: text('type').notNull(),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    /** Last day of the change; null = until further notice (always null for PERMANENT). */
    toDate: date('to_date', { mode: 'string' }),
    address: jsonb('address').$type<StoredDeliveryAddress>(),
    /** active or cancelled. */
    status: text('status').notNull().default('active'),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (table) => [index('delivery_change_subscription_idx').on(table.subscriptionId, table.status), index('delivery_change_dates_idx').on(table.fromDate, table.toDate)],
);

/** A delivery complaint (SPEC §6, issue 5): one case, one code, one or more days. */
export const deliveryComplaint = pgTable(
  'delivery_complaint',
  {
    caseNo: bigint('case_no', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity({ startWith: 100_001 }),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    code: text('code').notNull(),
    text: text('text'),
    /** REDELIVERY, EXTENSION or CREDIT. */
    remedy: text('remedy').notNull(),
    /** The delivery point the complaint is about (addressKey), for repeat detection. */
    addressKey: text('address_key').notNull(),
    postalCode: text('postal_code').notNull(),
    /** Another complaint for the same address within 30 days: the customer centre looks at it. */
    flagged: boolean('flagged').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('delivery_complaint_address_idx').on(table.addressKey, table.createdAt)],
);

/** The days of a complaint. The same day and code can be reported once per subscription. */
export const deliveryComplaintDay = pgTable(
  'delivery_complaint_day',
  {
    caseNo: bigint('case_no', { mode: 'number' }).notNull().references(() => deliveryComplaint.caseNo),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    code: text('code').notNull(),
  },
  (table) => [primaryKey({ columns: [table.caseNo, table.issueDate] }), uniqueIndex('delivery_complaint_day_unique_idx').on(table.subscriptionId, table.issueDate, table.code)],
);

/**
 * A delivery notice (issue 5): an operator's message to a segment — a title, postal codes and
 * a publication day — when something goes wrong on the routes. The id is the operator's
 * segment id, so sending the same segment twice changes nothing.
 */
export const deliveryNotice = pgTable(
  'delivery_notice',
  {
    segmentId: text('segment_id').primaryKey(),
    titleCode: text('title_code').notNull(),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    postalCodes: text('postal_codes').array().notNull(),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('delivery_notice_title_date_idx').on(table.titleCode, table.issueDate)],
);

/** Who a notice was sent to: once per subscription, whatever happens to the segment afterwards. */
export const deliveryNoticeRecipient = pgTable(
  'delivery_notice_recipient',
  {
    segmentId: text('segment_id').notNull().references(() => deliveryNotice.segmentId),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    postalCode: text('postal_code').notNull(),
  },
  (table) => [primaryKey({ columns: [table.segmentId, table.subscriptionId] }), index('delivery_notice_recipient_subscription_idx').on(table.subscriptionId)],
);

// ---------------------------------------------------------------------------------------
// My subscription (modules/subscription): the plans a title sells, the change log, the
// cancellation survey and the one retention offer per subscription
// (docs/decisions/006-subscription-transitions.md).
// ---------------------------------------------------------------------------------------

/** A plan a title sells: one product in one billing period, with an announced price change. */
export const plan = pgTable(
  'plan',
  {
    ariaPlanId: text('aria_plan_id').primaryKey(),
    titleCode: text('title_code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    /** COMBO or DIGITAL. */
    planProductType: text('plan_product_type').notNull(),
    /** YEAR, QUARTER, MONTH or MONTH_PREMIUM. */
    billingPeriod: text('billing_period').notNull(),
    priceOre: integer('price_ore').notNull(),
    features: jsonb('features').$type<{ plusContent: boolean; ePaper: boolean; paper: boolean; familySharing: boolean; thirdPartyBundle: boolean }>().notNull(),
    /** A new price, announced (SPEC /nye-priser) and applying from `nextPriceFrom`. */
    nextPriceOre: integer('next_price_ore'),
    nextPriceFrom: date('next_price_from', { mode: 'string' }),
    /** Youngest age the plan is sold to (e.g. 67 for Honnør); null = the general minimum of 18. */
    minimumAge: integer('minimum_age'),
    /** Order in the plan list. */
    sortOrder: integer('sort_order').notNull().default(0),
    /** Plans that are no longer sold stay for the subscriptions that have them. */
    sold: boolean('sold').notNull().default(true),
  },
  (table) => [index('plan_title_idx').on(table.titleCode)],
);

/** The change log ("Endringslogg"): what changed on a subscription, when and by whom. */
export const subscriptionChange = pgTable(
  'subscription_change',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** self, customerCentre or system. */
    actor: text('actor').notNull(),
    /** The user who made it, when it was the subscriber. */
    actorUserId: text('actor_user_id').references(() => appUser.id),
    /** A ChangeKind of packages/domain/src/subscription/change-log.ts. */
    kind: text('kind').notNull(),
    fromStatusCode: integer('from_status_code'),
    toStatusCode: integer('to_status_code'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [index('subscription_change_subscription_idx').on(table.subscriptionId, table.at)],
);

/** Why subscribers leave: one row per answered cancellation survey. */
export const cancellationSurvey = pgTable(
  'cancellation_survey',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    reasonCode: text('reason_code').notNull(),
    reasonText: text('reason_text'),
    /** CANCELLATION or REPLACEMENT-ANN (the retention offer was taken instead). */
    actionType: text('action_type').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('cancellation_survey_subscription_idx').on(table.subscriptionId)],
);

/** The one retention offer a subscription may accept: the primary key keeps it to one. */
export const retentionOfferAcceptance = pgTable('retention_offer_acceptance', {
  subscriptionId: text('subscription_id').primaryKey().references(() => subscription.id),
  offerCode: text('offer_code').notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------------------
// Profile (modules/profile) and outgoing mail (integrations/mail).
// ---------------------------------------------------------------------------------------

/** An e-mail change waiting for the link sent to the new address. Only the token's SHA-256 is kept. */
export const emailChange = pgTable(
  'email_change',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => appUser.id),
    newEmail: text('new_email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (table) => [index('email_change_user_idx').on(table.userId)],
);

/** Every e-mail the portal sends: written in the same transaction as the change that sends it, delivered after. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** The same message as HTML (integrations/mail/templates.ts); null for plain-text mail. */
    html: text('html'),
    /** A second enqueue with the same key adds nothing: one change, one e-mail (ARCHITECTURE "Idempotency"). */
    idempotencyKey: text('idempotency_key').unique(),
    createdAt: createdAt(),
    /** Set once handed to the SMTP server; stays null in the embedded default (read at /_dev/mail). */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** Delivery attempts so far; the retry job backs off by them. */
    attempts: integer('attempts').notNull().default(0),
    /** Not before this time: after a failure (backoff), and while one instance is sending it (a lease). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /**
     * The sender, fixed when queued so a retry sends the same headers (ADR 010 "Sender"): the title
     * it is for, its name (the From display name; the address is MAIL_FROM's) and its customer
     * centre (Reply-To). Null on rows from before issue 23: they go out as MAIL_FROM, as then.
     */
    titleCode: text('title_code'),
    fromName: text('from_name'),
    replyTo: text('reply_to'),
    /** integrations/mail/kinds.ts; an optional kind is not sent to a user who turned it off. */
    kind: text('kind'),
    /** The recipient's login, for an optional kind (whose opt-out is checked again before sending). */
    userId: text('user_id'),
    /** An optional kind's one-click unsubscribe URL (List-Unsubscribe, RFC 8058); null for transactional mail. */
    listUnsubscribe: text('list_unsubscribe'),
  },
  (table) => [index('mail_outbox_unsent_idx').on(table.sentAt, table.createdAt)],
);

/**
 * A kind of optional e-mail (integrations/mail/kinds.ts) a user turned off for one title, by the
 * one-click unsubscribe link (RFC 8058). The mailer does not queue, nor send, that kind to them.
 */
export const mailOptOut = pgTable(
  'mail_opt_out',
  {
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    titleCode: text('title_code').notNull(),
    kind: text('kind').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.titleCode, table.kind] })],
);

// ---------------------------------------------------------------------------------------
// Family sharing (modules/family). The invitations themselves are subscription_member rows
// (kind family); each e-mailed link is a row here, so a withdrawn invitation, a used link
// and a link replaced by a newer one can all be told apart (docs/decisions/010).
// ---------------------------------------------------------------------------------------

/** One invitation link. Only the token's SHA-256 is kept. `memberId` outlives a withdrawn invitation, so it has no foreign key. */
export const familyInvitationLink = pgTable(
  'family_invitation_link',
  {
    tokenHash: text('token_hash').primaryKey(),
    memberId: text('member_id').notNull(),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** A newer link for the same invitation was sent: this one no longer works. */
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
  },
  (table) => [index('family_invitation_link_member_idx').on(table.memberId)],
);

// ---------------------------------------------------------------------------------------
// Billing (modules/billing, integrations/payment): payments and their idempotency keys,
// provider callbacks seen, stored payment agreements, renewal periods, credits, discounts
// (docs/decisions/009-billing-and-payments.md).
// ---------------------------------------------------------------------------------------

/**
 * Every charge and every provider flow (card or Vipps agreement). The row, with its UNIQUE
 * idempotency key, is written before the provider is called: a double click, a retried
 * request or a job run twice finds the row instead of charging again.
 */
export const payment = pgTable(
  'payment',
  {
    id: text('id').primaryKey(),
    /** The client's UUID (scoped by `owner:`), or a job's deterministic key such as `renewal:<invoiceNo>`. */
    idempotencyKey: text('idempotency_key').notNull(),
    /** INVOICE, RENEWAL, CARD_CHANGE, PAYMENT_METHOD_CHANGE or ORDER. */
    purpose: text('purpose').notNull(),
    /** A SPEC §9 provider code. */
    method: text('method').notNull(),
    amountOre: integer('amount_ore').notNull(),
    /** PENDING, CAPTURED, CANCELLED, FAILED, TIMEOUT or REFUNDED. */
    status: text('status').notNull(),
    errorCode: text('error_code'),
    /** The signed-in user who started it; null for pay-links and jobs. */
    userId: text('user_id').references(() => appUser.id),
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' }).references(() => account.ariaAccountNo),
    subscriptionId: text('subscription_id').references(() => subscription.id),
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }).references(() => invoice.ariaInvoiceNo),
    /** Which provider (configuration name) and its reference for the payment. */
    provider: text('provider').notNull(),
    providerReference: text('provider_reference'),
    redirectUrl: text('redirect_url'),
    /** Where the provider sends the browser back: a portal path with ?paymentId=. */
    returnUrl: text('return_url').notNull(),
    /** Extra input of the flow (e.g. the pay-link's expiry), never card data. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /**
     * A lease on talking to the provider about this PENDING payment (capture): one settler at a
     * time, so a provider that refuses a second capture is never asked twice. Expires by itself.
     */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('payment_idempotency_key_idx').on(table.idempotencyKey),
    index('payment_invoice_idx').on(table.ariaInvoiceNo),
    index('payment_pending_idx').on(table.status, table.createdAt),
  ],
);

/** Provider callbacks already applied: the primary key makes a replayed callback a no-op. */
export const paymentCallback = pgTable(
  'payment_callback',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    paymentId: text('payment_id').notNull().references(() => payment.id),
    status: text('status').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
);

/**
 * A stored way to charge a subscription: a card or Vipps agreement at the provider, or an
 * AvtaleGiro agreement at the bank. Only brand, last four digits and expiry of a card.
 */
export const paymentAgreement = pgTable(
  'payment_agreement',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    /** SWEDBANK-PPG, VIPPS or AVTALEGIRO. */
    method: text('method').notNull(),
    /** PENDING (AvtaleGiro until the bank confirms), ACTIVE, or REPLACED by a newer one. */
    status: text('status').notNull(),
    provider: text('provider').notNull(),
    providerAgreementId: text('provider_agreement_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpiryMonth: integer('card_expiry_month'),
    cardExpiryYear: integer('card_expiry_year'),
    phoneNumber: text('phone_number'),
    bankAccountNumber: text('bank_account_number'),
    /** AvtaleGiro: the payer wants the bank's notice before each draw (the mandate file's J/N); null until the bank says. */
    bankNotice: boolean('bank_notice'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('payment_agreement_subscription_idx').on(table.subscriptionId, table.status),
    // An AvtaleGiro mandate is found by its customer KID when the bank's mandate file names it.
    index('payment_agreement_reference_idx').on(table.method, table.providerAgreementId),
  ],
);

/** Numbers the AvtaleGiro mandates: the serial in a mandate's customer KID (issue 21), never reused. */
export const avtaleGiroMandateNo = pgSequence('avtalegiro_mandate_no_seq', { startWith: 1 });

/**
 * One bank file, in or out (issue 21): an imported OCR Giro or AvtaleGiro mandate transmission, or
 * a written AvtaleGiro claim transmission. The unique key makes a second import of the same
 * transmission a no-op; `status` IMPORTING means a run stopped part-way and the next one resumes.
 */
export const bankFile = pgTable(
  'bank_file',
  {
    id: text('id').primaryKey(),
    /** IN (from the bank) or OUT (to the bank). */
    direction: text('direction').notNull(),
    /** ocr-giro, avtalegiro-mandates or avtalegiro-claims. */
    kind: text('kind').notNull(),
    dataTransmitter: text('data_transmitter').notNull(),
    transmissionNumber: text('transmission_number').notNull(),
    dataRecipient: text('data_recipient').notNull(),
    /** SHA-256 of the file's bytes; the archived copy is kept under this name. */
    sha256: text('sha256').notNull(),
    fileName: text('file_name'),
    /** IMPORTING, IMPORTED, WRITING, WRITTEN. */
    status: text('status').notNull(),
    transactions: integer('transactions').notNull().default(0),
    /** The transmission end record's amount sum (øre); for claims the sum written. */
    amountOre: bigint('amount_ore', { mode: 'number' }).notNull().default(0),
    /** The bank's date in the end record; for claims the run's date. */
    netsDate: date('nets_date', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('bank_file_transmission_idx').on(table.direction, table.kind, table.dataTransmitter, table.transmissionNumber)],
);

/**
 * One transaction of an imported bank file, once: the primary key (file, position) is what makes an
 * import killed part-way settle each payment exactly once when it runs again. `outcome` says what
 * the portal did with it; the rows still open for a person are the reconciliation list.
 */
export const bankTransaction = pgTable(
  'bank_transaction',
  {
    bankFileId: text('bank_file_id').notNull().references(() => bankFile.id),
    /** 1-based position of the transaction in the file. */
    seq: integer('seq').notNull(),
    /** The title whose agreement or account the assignment names; null when none does. */
    titleCode: text('title_code'),
    /** The file's transaction type (OCR Giro 10–21; AvtaleGiro mandates 94). */
    transactionType: integer('transaction_type').notNull(),
    kid: text('kid').notNull(),
    /** Signed: a reversal is negative. */
    amountOre: bigint('amount_ore', { mode: 'number' }).notNull(),
    /** OCR: the settlement (nets) date; mandates: the file's date. */
    settledOn: date('settled_on', { mode: 'string' }),
    bankDate: date('bank_date', { mode: 'string' }),
    debitAccount: text('debit_account'),
    assignmentAccount: text('assignment_account'),
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }),
    paymentId: text('payment_id'),
    /** SETTLED, PARTIAL, OVERPAID, REVERSED, MANDATE, UNMATCHED. */
    outcome: text('outcome').notNull(),
    /** Why a person must look (UNKNOWN_KID, INVOICE_CLOSED, WRONG_ACCOUNT, OVERPAYMENT, …); null when nothing is open. */
    reason: text('reason'),
    /** The øre a person must place (the whole amount, or an over-payment's excess). */
    openAmountOre: bigint('open_amount_ore', { mode: 'number' }).notNull().default(0),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedNote: text('resolved_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.bankFileId, table.seq] }),
    index('bank_transaction_open_idx').on(table.reason, table.resolvedAt),
    index('bank_transaction_kid_idx').on(table.kid),
  ],
);

/**
 * One AvtaleGiro claim sent to the bank for an invoice (issue 21): the keys make a claim run killed
 * part-way write each invoice's claim once; `cancelledIn` is the file that withdrew it.
 */
export const avtaleGiroClaim = pgTable(
  'avtalegiro_claim',
  {
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }).notNull().references(() => invoice.ariaInvoiceNo),
    bankFileId: text('bank_file_id').notNull().references(() => bankFile.id),
    /** The mandate's customer KID the claim was made on (the bank draws on that mandate). */
    kid: text('kid').notNull(),
    amountOre: integer('amount_ore').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    cancelledIn: text('cancelled_in').references(() => bankFile.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    // An invoice is claimed once per file; withdrawn (part-paid, method changed and back) it may be claimed again later…
    primaryKey({ columns: [table.ariaInvoiceNo, table.bankFileId] }),
    // …but never has two claims out at the bank at once.
    uniqueIndex('avtalegiro_claim_live_idx').on(table.ariaInvoiceNo).where(sql`cancelled_in is null`),
    index('avtalegiro_claim_kid_idx').on(table.kid, table.dueOn),
  ],
);

/** One row per renewed period of a subscription: the primary key makes the renewal job issue one invoice per period. */
export const subscriptionPeriod = pgTable(
  'subscription_period',
  {
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }).references(() => invoice.ariaInvoiceNo),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.subscriptionId, table.periodFrom] })],
);

/**
 * An issued invoice or credit note (issue 23): what it says is frozen in `content` when it is issued,
 * and the PDF rendered from it is stored the first time it is asked for, so every later download gives
 * the same bytes. Invoices and credit notes share one number series (an invoice's number is its
 * ariaInvoiceNo; a credit note takes the next number of the same sequence). Kept five years after the
 * end of the year of issue (bokføringsloven § 13), through an account's erasure (ADR 015).
 */
export const billingDocument = pgTable(
  'billing_document',
  {
    number: bigint('number', { mode: 'number' }).primaryKey(),
    /** INVOICE or CREDIT_NOTE. */
    kind: text('kind').notNull(),
    /** The invoice itself, or the invoice a credit note credits. */
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }).notNull().references(() => invoice.ariaInvoiceNo),
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' }).notNull().references(() => account.ariaAccountNo),
    titleCode: text('title_code').notNull(),
    issuedOn: date('issued_on', { mode: 'string' }).notNull(),
    /** The document's total: the invoice's amount, or the amount a credit note credits. */
    amountOre: integer('amount_ore').notNull(),
    /** What issued it, once: `invoice:{no}`, `refund:{paymentId}`, `credit:{invoiceCreditId}`, `cancel:{no}`. */
    source: text('source').notNull().unique(),
    content: jsonb('content').notNull(),
    pdf: bytea('pdf'),
    pdfSha256: text('pdf_sha256'),
    /** An EHF document (the buyer is a company that chose EHF): when the EHF job handed it to the access point's folder. */
    ehfDeliveredAt: timestamp('ehf_delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('billing_document_account_idx').on(table.ariaAccountNo, table.issuedOn),
    index('billing_document_invoice_idx').on(table.ariaInvoiceNo),
    // The jobs' work lists, small however many documents there are: PDFs not stored yet, EHF documents not written yet.
    index('billing_document_unrendered_idx').on(table.number).where(sql`pdf is null`),
    index('billing_document_ehf_pending_idx').on(table.number).where(sql`ehf_delivered_at is null and content -> 'buyer' ->> 'organizationNumber' is not null`),
  ],
);

/**
 * A business subscription's choice to receive its invoices as EHF (PEPPOL BIS Billing 3.0, issue
 * 23): the company the invoices are addressed to. Invoices issued while it is set name the company
 * as buyer (with its organisation number, the PEPPOL endpoint 0192) and have an EHF document; the
 * access point that delivers them is configuration (EHF_OUTBOX_DIR).
 */
export const einvoiceRecipient = pgTable('einvoice_recipient', {
  subscriptionId: text('subscription_id').primaryKey().references(() => subscription.id),
  organizationNumber: text('organization_number').notNull(),
  companyName: text('company_name').notNull(),
  street: text('street').notNull(),
  postalCode: text('postal_code').notNull(),
  town: text('town').notNull(),
  /** The company's own reference (BT-10 Buyer reference), e.g. a cost centre or the buyer's name. */
  reference: text('reference'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** A credit note: money taken off an invoice (a discount applied later, a refunded double payment, goodwill). */
export const invoiceCredit = pgTable(
  'invoice_credit',
  {
    id: text('id').primaryKey(),
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }).notNull().references(() => invoice.ariaInvoiceNo),
    amountOre: integer('amount_ore').notNull(),
    reason: text('reason').notNull(),
    paymentId: text('payment_id').references(() => payment.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('invoice_credit_invoice_idx').on(table.ariaInvoiceNo)],
);

/**
 * A credit note's amount set off against an invoice (issue 23): a complaint credited "på neste
 * faktura" waits here (`ariaInvoiceNo` null) until the subscription's next renewal invoice is
 * issued, and is then set off against it. What is set off counts as settled on that invoice, as a
 * payment does (billing/paid-so-far.ts), while the invoice itself keeps the full amount of the sale:
 * the credit note already reduced the sale once. A credit larger than the invoice is split, and
 * the rest waits for the one after.
 */
export const creditSetOff = pgTable(
  'credit_set_off',
  {
    id: text('id').primaryKey(),
    creditNoteNumber: bigint('credit_note_number', { mode: 'number' }).notNull().references(() => billingDocument.number),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    amountOre: integer('amount_ore').notNull(),
    /** The invoice it was set off against; null while it waits for the next one. */
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }).references(() => invoice.ariaInvoiceNo),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    setOffAt: timestamp('set_off_at', { withTimezone: true }),
  },
  (table) => [
    index('credit_set_off_waiting_idx').on(table.subscriptionId).where(sql`aria_invoice_no is null`),
    index('credit_set_off_invoice_idx').on(table.ariaInvoiceNo),
  ],
);

/** Discount codes the titles hand out (SPEC §7 addDiscount). Exactly one of percentOff / amountOffOre. */
export const discountCode = pgTable('discount_code', {
  code: text('code').primaryKey(),
  /** null: every title. */
  titleCode: text('title_code'),
  description: text('description').notNull(),
  percentOff: integer('percent_off'),
  amountOffOre: integer('amount_off_ore'),
  /** How many invoices it applies to. */
  periods: integer('periods').notNull(),
  validUntil: date('valid_until', { mode: 'string' }),
});

/** A discount code added to a subscription: applies to its next `remainingPeriods` renewal invoices. */
export const subscriptionDiscount = pgTable(
  'subscription_discount',
  {
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    code: text('code').notNull().references(() => discountCode.code),
    remainingPeriods: integer('remaining_periods').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.subscriptionId, table.code] })],
);

/** Secrets of billing (pay-link HMAC key, test provider webhook key), created once like idp_secret. */
export const billingSecret = pgTable('billing_secret', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * Which Vipps MobilePay sales unit (merchant serial number) a payment or agreement was made with
 * (integrations/payment/vipps-provider.ts): every later call about it must name the same one.
 * Only references of a title with its own sales unit are written; the rest use VIPPS_MERCHANT_SERIAL_NUMBER.
 */
export const vippsMerchantReference = pgTable('vipps_merchant_reference', {
  /** An ePayment reference (our payment id) or a Recurring agreement id. */
  reference: text('reference').primaryKey(),
  merchantSerialNumber: text('merchant_serial_number').notNull(),
  createdAt: createdAt(),
});

/**
 * The embedded test payment provider's own books (integrations/payment/test-provider.ts): a
 * separate system in spirit, like the identity provider's tables. Our tables never join it.
 */
export const testProviderTransaction = pgTable(
  'test_provider_transaction',
  {
    id: text('id').primaryKey(),
    /** The merchant's idempotency key: the provider, too, answers a retried create with the same transaction. */
    idempotencyKey: text('idempotency_key').notNull(),
    /** PAYMENT (one charge), AGREEMENT (store a card / Vipps agreement), CHARGE (on an agreement). */
    kind: text('kind').notNull(),
    method: text('method').notNull(),
    amountOre: integer('amount_ore').notNull(),
    /** CREATED, CAPTURED, CANCELLED, FAILED, TIMEOUT, REFUNDED. */
    status: text('status').notNull(),
    merchantReference: text('merchant_reference').notNull(),
    agreementId: text('agreement_id'),
    returnUrl: text('return_url').notNull(),
    description: text('description').notNull(),
    /** The card an AGREEMENT stored (test card data only). */
    card: jsonb('card').$type<{ brand: string; last4: string; expiryMonth: number; expiryYear: number } | null>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('test_provider_transaction_key_idx').on(table.idempotencyKey)],
);

// ---------------------------------------------------------------------------------------
// Business and student verification (modules/business, modules/student): the one-time
// codes sent by e-mail (docs/decisions/011-business-and-student.md).
// ---------------------------------------------------------------------------------------

/**
 * A six-digit code sent to a student or work e-mail address. Only a salted SHA-256 of the
 * code is kept; a new code voids the earlier one; rows stay for the send rate limit.
 */
export const verificationCode = pgTable(
  'verification_code',
  {
    id: text('id').primaryKey(),
    /** student or business. */
    purpose: text('purpose').notNull(),
    userId: text('user_id').notNull().references(() => appUser.id),
    /** The address the code was sent to, lower-case. */
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Replaced by a newer code, or too many wrong tries. */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (table) => [index('verification_code_user_idx').on(table.userId, table.purpose, table.createdAt)],
);

// ---------------------------------------------------------------------------------------
// Consent (modules/consent): every choice a signed-in user made, kept as history; the
// newest row is the current choice (docs/decisions/012-consent-analytics-monitoring.md).
// ---------------------------------------------------------------------------------------

export const consentChoice = pgTable(
  'consent_choice',
  {
    /** Counts up: the order choices were made in, even within one millisecond. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id').notNull().references(() => appUser.id),
    analytics: boolean('analytics').notNull(),
    marketing: boolean('marketing').notNull(),
    personalisation: boolean('personalisation').notNull(),
    /** dialog, settings or vendor (packages/domain consentSources). */
    source: text('source').notNull(),
    titleCode: text('title_code'),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('consent_choice_user_idx').on(table.userId, table.id)],
);

// ---------------------------------------------------------------------------------------
// Privacy (modules/consent, modules/privacy): the permissions of the consent pages with
// their history, and data-rights requests — exports (the zip kept 7 days) and erasures
// (docs/decisions/015-privacy-and-data-rights.md).
// ---------------------------------------------------------------------------------------

/** One row per change of one permission (/samtykke1–3); the newest row per permission holds. */
export const consentPermissionChoice = pgTable(
  'consent_permission_choice',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id').notNull().references(() => appUser.id),
    /** A ConsentPermission of packages/domain/src/consent/consent.ts. */
    permission: text('permission').notNull(),
    granted: boolean('granted').notNull(),
    titleCode: text('title_code'),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('consent_permission_choice_user_idx').on(table.userId, table.permission, table.id)],
);

/**
 * A data-rights request: `export` (the job builds the zip into `archive`, kept until
 * `expires_at`) or `erasure` (the job erases the person; the row stays as the record that it
 * was done, pointing at the pseudonymised user).
 */
export const dataRequest = pgTable(
  'data_request',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => appUser.id),
    /** export or erasure. */
    kind: text('kind').notNull(),
    /** pending, ready (export), expired (export), completed (erasure). */
    status: text('status').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    /** Not before this time (erasure: when it is scheduled). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    archive: bytea('archive'),
    sizeBytes: integer('size_bytes'),
    /** Erasure: what the request did at once (the subscriptions it cancelled). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** A job run holds the row until then, so two runners never do the same request. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (table) => [
    index('data_request_user_idx').on(table.userId, table.kind, table.requestedAt),
    index('data_request_due_idx').on(table.kind, table.status, table.dueAt),
    // One pending erasure per user: a second click finds the first.
    uniqueIndex('data_request_one_erasure_idx').on(table.userId).where(sql`kind = 'erasure'`),
    // One pending export per user (issue 20): asking again while one is being made answers that one.
    uniqueIndex('data_request_one_pending_export_idx').on(table.userId).where(sql`kind = 'export' and status = 'pending'`),
  ],
);

// ---------------------------------------------------------------------------------------
// Ordering (modules/ordering): an order is the buyer's intent, priced once; its payment goes
// through the payment engine and its subscription is made in the settling transaction.
// Connecting (modules/ordering/connect): accounts bought elsewhere that a login may take over
// (docs/decisions/014-ordering-and-connect.md).
// ---------------------------------------------------------------------------------------

/**
 * One order: created → awaiting_payment → paid → fulfilled, or cancelled / failed / timed_out.
 * `idempotencyKey` (user-scoped, UNIQUE) makes a repeated submit the same order.
 */
export const subscriptionOrder = pgTable(
  'subscription_order',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    userId: text('user_id').notNull().references(() => appUser.id),
    titleCode: text('title_code').notNull(),
    ariaPlanId: text('aria_plan_id').notNull(),
    planName: text('plan_name').notNull(),
    planProductType: text('plan_product_type').notNull(),
    billingPeriod: text('billing_period').notNull(),
    /** INTRO_1KR, CAMP-2020-03-003, WINBACK_3FOR1 or null. */
    offerCode: text('offer_code'),
    amountNowOre: integer('amount_now_ore').notNull(),
    firstPeriodMonths: integer('first_period_months').notNull(),
    priceLaterOre: integer('price_later_ore').notNull(),
    laterPeriodMonths: integer('later_period_months').notNull(),
    deliveryAddress: jsonb('delivery_address').$type<StoredDeliveryAddress>(),
    paperStartsOn: date('paper_starts_on', { mode: 'string' }),
    state: text('state').notNull(),
    /** VIPPS or SWEDBANK-PPG, once a payment was started. */
    paymentMethod: text('payment_method'),
    /** The current payment attempt; `paymentAttempts` numbers the attempts' idempotency keys. */
    paymentId: text('payment_id').references(() => payment.id),
    paymentAttempts: integer('payment_attempts').notNull().default(0),
    lastPaymentStatus: text('last_payment_status'),
    subscriptionId: text('subscription_id').references(() => subscription.id),
    /** Why a paid order could not be fulfilled (the repair job refunds it). */
    failureCode: text('failure_code'),
    startedOn: date('started_on', { mode: 'string' }),
    firstPeriodEnd: date('first_period_end', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('subscription_order_key_idx').on(table.idempotencyKey),
    index('subscription_order_payment_idx').on(table.paymentId),
    index('subscription_order_state_idx').on(table.state, table.updatedAt),
    // One open purchase per buyer and offer (issue 20): a burst of orders with fresh keys makes
    // one order, so one payment; the others fail here and answer 409 ORDER_ALREADY_OPEN.
    uniqueIndex('subscription_order_one_open_idx')
      .on(table.userId, table.titleCode, table.ariaPlanId)
      .where(sql`state in ('created', 'awaiting_payment')`),
  ],
);

/**
 * A purchase withdrawn under the right of withdrawal (angrerett, ADR 030): one per order. The
 * subscription ended when the row was written; `refunds` is what the invoice-crediting machinery
 * answered for each invoice of the agreement (a refund is only ever recorded from its answer,
 * which comes on the provider's word), and `refundsOpen` keeps the repair job asking for the
 * ones it could not settle yet.
 */
export const subscriptionWithdrawal = pgTable(
  'subscription_withdrawal',
  {
    orderId: text('order_id').primaryKey().references(() => subscriptionOrder.id),
    subscriptionId: text('subscription_id').notNull().references(() => subscription.id),
    userId: text('user_id').notNull(),
    agreedOn: date('agreed_on', { mode: 'string' }).notNull(),
    deadline: date('deadline', { mode: 'string' }).notNull(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }).notNull(),
    /** What the agreement had been paid when it was withdrawn: what is owed back. */
    paidOre: integer('paid_ore').notNull(),
    refunds: jsonb('refunds').$type<{ ariaInvoiceNo: number; amountOre: number; outcome: 'refunded' | 'cancelled' | 'pending' | 'manual'; creditNoteNumber: number | null; code: string | null }[]>().notNull(),
    refundsOpen: boolean('refunds_open').notNull(),
  },
  (table) => [index('subscription_withdrawal_subscription_idx').on(table.subscriptionId), index('subscription_withdrawal_open_idx').on(table.refundsOpen)],
);

/**
 * An account bought elsewhere (customer centre, paper coupon) that has no login yet: its
 * `account.user_id` is a stand-in user without an identity. A login takes it over through
 * /koble-bruker after proving the contact e-mail; `claimedAt` makes that happen once.
 */
export const connectableAccount = pgTable(
  'connectable_account',
  {
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' }).primaryKey().references(() => account.ariaAccountNo),
    contactEmail: text('contact_email').notNull(),
    /** The last eight digits, for the phone search. */
    contactPhoneKey: text('contact_phone_key'),
    createdAt: createdAt(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    claimedByUserId: text('claimed_by_user_id').references(() => appUser.id),
  },
  (table) => [index('connectable_account_phone_idx').on(table.contactPhoneKey)],
);

/** One search on /koble-bruker: counted for the rate limit; a found one carries the account the code is for. */
export const connectRequest = pgTable(
  'connect_request',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => appUser.id),
    /** null: the search found nothing (still counted). */
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
  },
  (table) => [index('connect_request_user_idx').on(table.userId, table.createdAt)],
);

// ---------------------------------------------------------------------------------------
// Scheduled jobs (apps/server/src/jobs, docs/decisions/017): one runner per job across instances.
// ---------------------------------------------------------------------------------------

/**
 * One row per job: the lock that keeps two runs of the same job from overlapping across
 * instances. A run holds it until `leaseUntil` (renewed while it runs); a crashed instance's
 * lease simply runs out.
 */
export const jobState = pgTable('job_state', {
  job: text('job').primaryKey(),
  runningRunId: text('running_run_id'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
});

/**
 * Every run of a job, scheduled or by hand. `slot` is the scheduled time bucket (an ISO
 * instant) or `manual:<id>`; UNIQUE (job, slot) is what makes a scheduled slot run once
 * across instances. Also the operators' record: who ran it, how long, how it ended.
 */
export const jobRun = pgTable(
  'job_run',
  {
    id: text('id').primaryKey(),
    job: text('job').notNull(),
    slot: text('slot').notNull(),
    trigger: text('trigger', { enum: ['schedule', 'manual'] }).notNull(),
    /** Which process ran it (host:pid), for the operator reading the log. */
    instance: text('instance').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    outcome: text('outcome', { enum: ['running', 'succeeded', 'failed', 'abandoned'] }).notNull(),
    error: text('error'),
    result: jsonb('result'),
  },
  (table) => [uniqueIndex('job_run_slot_idx').on(table.job, table.slot), index('job_run_job_started_idx').on(table.job, table.startedAt)],
);
