import { z } from 'zod';

/**
 * Every expected failure from /api answers with this body (ARCHITECTURE "Errors are data"):
 * a stable machine `code` and a Norwegian `message` fit to show the user.
 */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** Optional technical detail for operators and logs; never needed to act on the error. */
  detail: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export * from './api-error-rules.ts';
