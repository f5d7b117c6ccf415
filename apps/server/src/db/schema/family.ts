import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { subscription } from './subscription.ts';
import { appUser } from './users.ts';

/** Family and business members invited to share a subscription (SPEC §3 Family share, Business invitation). */
export const subscriptionMember = pgTable(
  'subscription_member',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
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

/** One invitation link. Only the token's SHA-256 is kept. `memberId` outlives a withdrawn invitation, so it has no foreign key. */
export const familyInvitationLink = pgTable(
  'family_invitation_link',
  {
    tokenHash: text('token_hash').primaryKey(),
    memberId: text('member_id').notNull(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => subscription.id),
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
