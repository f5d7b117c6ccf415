import { z } from 'zod';
import { instStatusName } from './subscription-rules.ts';

export const instStatusCodeSchema = z
  .number()
  .int()
  .refine((code) => instStatusName(code) !== undefined, 'unknown instStatusCode');

/** SPEC §3 title feature set. */
export const featureSetSchema = z.object({
  plusContent: z.boolean(),
  ePaper: z.boolean(),
  paper: z.boolean(),
  familySharing: z.boolean(),
  thirdPartyBundle: z.boolean(),
});
export type FeatureSet = z.infer<typeof featureSetSchema>;

export * from './subscription-rules.ts';
