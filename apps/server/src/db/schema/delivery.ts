import { bigint, boolean, date, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { subscription } from './subscription.ts';

/** SPEC §3 Delivery address, for paper subscriptions. */
export const deliveryAddress = pgTable('delivery_address', {
  subscriptionId: text('subscription_id')
    .primaryKey()
    .references(() => subscription.id),
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
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
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
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
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
    caseNo: bigint('case_no', { mode: 'number' })
      .notNull()
      .references(() => deliveryComplaint.caseNo),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
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
    segmentId: text('segment_id')
      .notNull()
      .references(() => deliveryNotice.segmentId),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
    postalCode: text('postal_code').notNull(),
  },
  (table) => [primaryKey({ columns: [table.segmentId, table.subscriptionId] }), index('delivery_notice_recipient_subscription_idx').on(table.subscriptionId)],
);

// ---------------------------------------------------------------------------------------
// My subscription (modules/subscription): the plans a title sells, the change log, the
// cancellation survey and the one retention offer per subscription
// (docs/decisions/006-subscription-transitions.md).
// ---------------------------------------------------------------------------------------
