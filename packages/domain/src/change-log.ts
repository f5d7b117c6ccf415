import { z } from 'zod';
import { changeActors, changeKinds } from './change-log-text.ts';

/**
 * The subscription's change history ("Endringslogg", issue 4): what changed, when, and by
 * whom (the subscriber on Min Side, the customer centre, or the system at a period end).
 * Entries are stored as a kind and structured details; the words are made once, in
 * change-log-text.ts.
 */

/** What an entry may record besides its kind. Every field is optional; each kind uses some. */
export const changeDetailsSchema = z.object({
  planName: z.string().optional(),
  fromPlanName: z.string().optional(),
  billingPeriod: z.string().optional(),
  /** An ISO date the change applies from or runs to. */
  on: z.string().optional(),
  amountOre: z.number().int().optional(),
  reason: z.string().optional(),
  offer: z.string().optional(),
  paymentMethod: z.string().optional(),
});
export type ChangeDetails = z.infer<typeof changeDetailsSchema>;

/** One entry of the change log as the API gives it. */
export const changeLogEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.enum(changeActors),
  kind: z.enum(changeKinds),
  description: z.string(),
});
export type ChangeLogEntry = z.infer<typeof changeLogEntrySchema>;

export const changeLogResponseSchema = z.object({ entries: z.array(changeLogEntrySchema) });

export * from './change-log-text.ts';
