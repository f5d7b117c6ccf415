import { z } from 'zod';
import { withdrawalRefundOutcomes, withdrawalStates } from './withdrawal-rules.ts';

// The withdrawal's response schemas (docs/decisions/030-right-of-withdrawal.md). The rules, texts
// and states are plain code in withdrawal-rules.ts, re-exported here.

const isoDate = z.iso.date();

const withdrawalRefundSchema = z.object({
  ariaInvoiceNo: z.number().int(),
  amountOre: z.number().int().nonnegative(),
  outcome: z.enum(withdrawalRefundOutcomes),
  /** The credit note that settles it, once the provider has refunded (or the unpaid invoice is cancelled). */
  creditNoteNumber: z.number().int().nullable(),
});
export type WithdrawalRefund = z.infer<typeof withdrawalRefundSchema>;

/** GET/POST /api/subscription/{accountNo}/{titleCode}/withdrawal. */
export const withdrawalResponseSchema = z.object({
  state: z.enum(withdrawalStates),
  /** The order the agreement came from (null when not bought online here). */
  orderId: z.string().nullable(),
  planName: z.string(),
  /** The day the agreement was made: the order was paid and the subscription began. */
  agreedOn: isoDate.nullable(),
  /** The last day to withdraw. */
  deadline: isoDate.nullable(),
  /** What the agreement has been paid so far (the amounts a withdrawal gives back). */
  paidOre: z.number().int().nonnegative(),
  withdrawnAt: z.string().nullable(),
  refunds: z.array(withdrawalRefundSchema),
  /** Why not, in Norwegian, for `expired` and `notAvailable`. */
  message: z.string().nullable(),
});
export type WithdrawalResponse = z.infer<typeof withdrawalResponseSchema>;

export * from './withdrawal-rules.ts';
