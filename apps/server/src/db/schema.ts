import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
  (table) => [index('idp_login_failure_key_at_idx').on(table.key, table.at)],
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
  createdAt: createdAt(),
}, (table) => [index('app_user_email_idx').on(table.email)]);

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
    priceOre: integer('price_ore').notNull(),
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
    createdAt: createdAt(),
  },
  (table) => [index('invoice_account_idx').on(table.ariaAccountNo)],
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
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('user_session_user_idx').on(table.userId), index('user_session_expires_idx').on(table.expiresAt)],
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
    /** A ChangeKind of packages/domain/src/change-log.ts. */
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
    createdAt: createdAt(),
    /** Set once handed to the SMTP server; stays null in the embedded default (read at /_dev/mail). */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (table) => [index('mail_outbox_unsent_idx').on(table.sentAt, table.createdAt)],
);
