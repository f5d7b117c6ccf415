import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from './columns.ts';
import { account, subscription } from './subscription.ts';
import { appUser } from './users.ts';

/** SPEC §3 Invoice. */
export const invoice = pgTable(
  'invoice',
  {
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity({ startWith: 90_000_000 }),
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' })
      .notNull()
      .references(() => account.ariaAccountNo),
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
    paymentId: text('payment_id')
      .notNull()
      .references(() => payment.id),
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
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
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

/** One row per renewed period of a subscription: the primary key makes the renewal job issue one invoice per period. */
export const subscriptionPeriod = pgTable(
  'subscription_period',
  {
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
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
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' })
      .notNull()
      .references(() => invoice.ariaInvoiceNo),
    ariaAccountNo: bigint('aria_account_no', { mode: 'number' })
      .notNull()
      .references(() => account.ariaAccountNo),
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
    index('billing_document_unrendered_idx')
      .on(table.number)
      .where(sql`pdf is null`),
    index('billing_document_ehf_pending_idx')
      .on(table.number)
      .where(sql`ehf_delivered_at is null and content -> 'buyer' ->> 'organizationNumber' is not null`),
  ],
);

/**
 * A business subscription's choice to receive its invoices as EHF (PEPPOL BIS Billing 3.0, issue
 * 23): the company the invoices are addressed to. Invoices issued while it is set name the company
 * as buyer (with its organisation number, the PEPPOL endpoint 0192) and have an EHF document; the
 * access point that delivers them is configuration (EHF_OUTBOX_DIR).
 */
export const einvoiceRecipient = pgTable('einvoice_recipient', {
  subscriptionId: text('subscription_id')
    .primaryKey()
    .references(() => subscription.id),
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
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' })
      .notNull()
      .references(() => invoice.ariaInvoiceNo),
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
 * the rest waits for the one after. A credit released when its subscription ends (a withdrawal)
 * is handed to the customer centre to pay back instead (`handedOverAt`, ADR 036).
 */
export const creditSetOff = pgTable(
  'credit_set_off',
  {
    id: text('id').primaryKey(),
    creditNoteNumber: bigint('credit_note_number', { mode: 'number' })
      .notNull()
      .references(() => billingDocument.number),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
    amountOre: integer('amount_ore').notNull(),
    /** The invoice it was set off against; null while it waits for the next one. */
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }).references(() => invoice.ariaInvoiceNo),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    setOffAt: timestamp('set_off_at', { withTimezone: true }),
    /**
     * When the credit was handed to the customer centre to pay back through the bank: released from
     * an invoice credited because the subscription ended (a withdrawal), it has no next invoice to
     * wait for. It waits for no invoice from then on, not even one of the same subscription bought
     * again, which would otherwise take it too and pay it out twice (ADR 036). Null: waiting, or
     * set off.
     */
    handedOverAt: timestamp('handed_over_at', { withTimezone: true }),
  },
  (table) => [
    index('credit_set_off_waiting_idx')
      .on(table.subscriptionId)
      .where(sql`aria_invoice_no is null and handed_over_at is null`),
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
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
    code: text('code')
      .notNull()
      .references(() => discountCode.code),
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
