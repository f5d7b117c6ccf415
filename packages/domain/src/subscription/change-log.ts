import { z } from 'zod';
import { changeActors, changeKinds, type ChangeDetails } from './change-log-rules.ts';

/**
 * The subscription's change history ("Endringslogg", issue 4): what changed, when, and by
 * whom (the subscriber on Min Side, the customer centre, or the system at a period end).
 * Entries are stored as a kind and structured details; the words are made once, in
 * change-log-rules.ts.
 */

/** What an entry may record besides its kind (the `ChangeDetails` of change-log-rules.ts). */
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
// Compile-time only: the schema parses exactly ChangeDetails, the same fields of the same types.
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
type _ChangeDetailsSchemaMatches = Holds<Mutual<keyof z.infer<typeof changeDetailsSchema>, keyof ChangeDetails>> & Holds<Mutual<z.infer<typeof changeDetailsSchema>, ChangeDetails>>;

/** One entry of the change log as the API gives it. */
const changeLogEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.enum(changeActors),
  kind: z.enum(changeKinds),
  description: z.string(),
});
export type ChangeLogEntry = z.infer<typeof changeLogEntrySchema>;

export const changeLogResponseSchema = z.object({ entries: z.array(changeLogEntrySchema) });

export * from './change-log-rules.ts';
