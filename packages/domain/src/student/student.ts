import { z } from 'zod';
import { accountSchema, subscriptionSchema, userSchema } from '../identity/identity.ts';
import { emailAddress } from '../core/fields.ts';
import { studentResults, studentStatusStates, VERIFICATION_CODE_LENGTH, verificationCodeShape } from './student-rules.ts';

// --- Contracts -------------------------------------------------------------------------

/** POST /api/student-email/: the wire shape is loose, so a missing field answers MISSING_PARAMETERS, not a generic 400. */
export const studentEmailBodySchema = z.object({ email: z.string().max(1000).optional() });
export type StudentEmailBody = z.infer<typeof studentEmailBodySchema>;

export const studentEmailResponseSchema = z.object({
  result: z.literal('CODE_SENT'),
  email: z.string(),
  /** When the code stops working (ISO timestamp). */
  expiresAt: z.string(),
  message: z.string(),
});
export type StudentEmailResponse = z.infer<typeof studentEmailResponseSchema>;

/** POST /api/activate-student-subscription/. */
export const activateStudentBodySchema = z.object({ email: z.string().max(1000).optional(), code: z.string().max(100).optional() });
export type ActivateStudentBody = z.infer<typeof activateStudentBodySchema>;

const studentStatusSchema = z.object({
  studentEmail: z.string(),
  verifiedOn: z.iso.date(),
  /** The day the status must be verified again by. */
  reverifyBy: z.iso.date(),
  state: z.enum(studentStatusStates),
});
export type StudentStatus = z.infer<typeof studentStatusSchema>;

export const activateStudentResponseSchema = z.object({
  result: z.literal('OK'),
  message: z.string(),
  /** The session after activation: the web remembers it, so the guarded receipt page sees the subscription. */
  user: userSchema,
  account: accountSchema.nullable(),
  subscription: subscriptionSchema.nullable(),
  status: studentStatusSchema,
});
export type ActivateStudentResponse = z.infer<typeof activateStudentResponseSchema>;

/** GET /api/student/status: the signed-in user's student status, if verified. */
export const studentStatusResponseSchema = z.object({ status: studentStatusSchema.nullable() });
export type StudentStatusResponse = z.infer<typeof studentStatusResponseSchema>;

/** GET /api/student/info (public): what /student tells visitors. */
export const studentInfoResponseSchema = z.object({
  domains: z.array(z.string()),
  priceOre: z.number().int().nullable(),
  planName: z.string().nullable(),
});
export type StudentInfoResponse = z.infer<typeof studentInfoResponseSchema>;

/** The browser's check before sending: the same messages as the server's. */
export const studentEmailFormSchema = z.object({
  email: emailAddress({ required: studentResults.MISSING_PARAMETERS.message, invalid: studentResults.EMAIL_WRONG.message }),
});
export const studentCodeFormSchema = z.object({
  code: z.string().trim().regex(verificationCodeShape, `Koden har ${VERIFICATION_CODE_LENGTH} siffer.`),
});

export * from './student-rules.ts';
