import { bigint, boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { appUser } from './users.ts';

/** SPEC §3 Account. Money is øre. One account per user. */
export const account = pgTable('account', {
  // New accounts count up from 50 000 000; the demo data uses numbers below that.
  ariaAccountNo: bigint('aria_account_no', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity({ startWith: 50_000_000 }),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => appUser.id),
  firstTitleCode: text('first_title_code').notNull(),
  accountBalanceOre: integer('account_balance_ore').notNull().default(0),
  createdAt: createdAt(),
});

/** SPEC §3 Subscription, one per account and title. */
export const subscription = pgTable(
  'subscription',
  {
    id: text('id').primaryKey(),
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' })
      .notNull()
      .references(() => account.ariaAccountNo),
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
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
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
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
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
  subscriptionId: text('subscription_id')
    .primaryKey()
    .references(() => subscription.id),
  offerCode: text('offer_code').notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------------------
// Profile (modules/profile) and outgoing mail (integrations/mail).
// ---------------------------------------------------------------------------------------
