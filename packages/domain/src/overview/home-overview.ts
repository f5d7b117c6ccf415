import { z } from 'zod';
import { agreementStatuses, invoiceSchema } from '../billing/billing.ts';
import { deliveryAddressSchema, deliveryChangeSchema } from '../delivery/delivery.ts';
import { paymentMethods } from '../subscription/subscription-rules.ts';

/**
 * The home page as the subscriber's "what's going on" (issue 25.10): where the paper goes and
 * what changes next, what is paid next and how, and anything that needs the subscriber. The
 * server gathers the facts in one call (`GET /api/overview`); `homeAgenda` decides what they
 * mean (home-agenda.ts, re-exported here), so the words and their urgency are one rule.
 */

/** GET /api/overview?titleCode=: the facts the home page shows beside the subscription. */
export const homeOverviewSchema = z.object({
  /** Paper subscriptions with access: the address in use and the next change to delivery. */
  delivery: z
    .object({
      address: deliveryAddressSchema,
      /** The next vacation stop, redirect or move not yet over, soonest first. */
      nextChange: deliveryChangeSchema.nullable(),
    })
    .nullable(),
  /** The subscriber's own money (paying or business): how they pay, and what is not paid yet. */
  payment: z
    .object({
      method: z.enum(paymentMethods),
      /** AvtaleGiro: whether the bank has confirmed the mandate; null for other methods. */
      avtaleGiroStatus: z.enum(agreementStatuses).nullable(),
      /** Unpaid invoices, the earliest due first. */
      openInvoices: z.array(invoiceSchema),
      /** Those of `openInvoices` whose last automatic or own charge failed. */
      failedChargeInvoiceNos: z.array(z.number().int()),
    })
    .nullable(),
  /** Family or colleague invitations sent and not yet accepted (owner or business admin). */
  pendingInvitations: z.number().int().nonnegative(),
});
export type HomeOverview = z.infer<typeof homeOverviewSchema>;

export * from './home-overview-rules.ts';
