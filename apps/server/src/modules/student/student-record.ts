import { osloToday, studentResults, studentReverifyBy, studentStatusState, type StudentResultCode, type StudentStatus } from '@minside/domain';
import type { studentVerification } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';

// What the activation (activation.ts) and the status reads (service.ts) both say of a student:
// the SPEC §8 result of a refusal, and where a verification stands.

export type VerificationRow = typeof studentVerification.$inferSelect;

export function studentError(code: StudentResultCode): AppError {
  return new AppError(studentResults[code].status, code, studentResults[code].message);
}

/** Where a verification stands on `today`: null until it is confirmed. */
export function statusOf(row: VerificationRow, today: string): StudentStatus | null {
  if (!row.verifiedAt) return null;
  const verifiedOn = osloToday(row.verifiedAt);
  return { studentEmail: row.studentEmail, verifiedOn, reverifyBy: studentReverifyBy(verifiedOn), state: studentStatusState(verifiedOn, today) };
}
