import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { payment } from './billing.ts';
import type { StoredDeliveryAddress } from './delivery.ts';
import { account, subscription } from './subscription.ts';
import { appUser } from './users.ts';

/**
 * One order: created → awaiting_payment → paid → fulfilled, or cancelled / failed / timed_out.
 * `idempotencyKey` (user-scoped, UNIQUE) makes a repeated submit the same order.
 */
export const subscriptionOrder = pgTable(
  'subscription_order',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
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
    orderId: text('order_id')
      .primaryKey()
      .references(() => subscriptionOrder.id),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
    userId: text('user_id').notNull(),
    agreedOn: date('agreed_on', { mode: 'string' }).notNull(),
    deadline: date('deadline', { mode: 'string' }).notNull(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }).notNull(),
    /** What the agreement had been paid when it was withdrawn: what is owed back. */
    paidOre: integer('paid_ore').notNull(),
    refunds: jsonb('refunds')
      .$type<{ ariaInvoiceNo: number; amountOre: number; outcome: 'refunded' | 'cancelled' | 'pending' | 'manual'; creditNoteNumber: number | null; code: string | null }[]>()
      .notNull(),
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
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' })
      .primaryKey()
      .references(() => account.ariaAccountNo),
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
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
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
