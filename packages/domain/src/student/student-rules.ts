// Student subscriptions' rules, codes and messages without zod (classification, one-time
// codes, yearly re-verification), so pages that only classify a subscription take no schemas
// along. student.ts re-exports them beside the contracts and form schemas.
import { addDays, addMonths } from '../core/dates.ts';
import { emailDomainOf, isValidEmail } from '../core/email.ts';

/**
 * Student subscriptions (SPEC §2 /student, /student-verifisering, /student-kvittering; §5
 * "Student"; §7 `student-email/`, `activate-student-subscription/`; §8 the student codes).
 * A student e-mail address of an approved institution gets a six-digit code, the code is
 * confirmed, and the student subscription starts (or continues). The status is verified
 * again every year (docs/decisions/011-business-and-student.md).
 */

// --- One-time codes (student and business verification share them) ---------------------

/** Digits in a code sent by e-mail. */
export const VERIFICATION_CODE_LENGTH = 6;
/** A code is good for 15 minutes. */
export const VERIFICATION_CODE_TTL_MINUTES = 15;
/** The fifth wrong try voids the code. */
export const VERIFICATION_CODE_MAX_ATTEMPTS = 5;
/** At most this many codes per user and purpose … */
export const VERIFICATION_CODE_SEND_LIMIT = 3;
/** … within this many minutes. */
export const VERIFICATION_CODE_SEND_WINDOW_MINUTES = 15;

export const verificationCodeShape = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`);

export const verificationCodeErrorCodes = { tooManyCodes: 'TOO_MANY_CODES' } as const;
export const verificationCodeMessages = {
  tooManyCodes: `Du har bedt om for mange koder. Vent ${VERIFICATION_CODE_SEND_WINDOW_MINUTES} minutter og prøv igjen.`,
} as const;

// --- Result codes (SPEC §8) --------------------------------------------------------------

export type StudentResultCode = 'ARIA_ACTIVE' | 'EMAIL_WRONG' | 'USER_EXIST_ACTIVE' | 'ERROR' | 'CODE_WRONG' | 'INVALID_CODE' | 'USER_NOT_EXIST' | 'MISSING_PARAMETERS';

/** SPEC §8 student codes: the message shown for each (the spec's own words where it gives them) and the HTTP status. */
export const studentResults: Record<StudentResultCode, { status: number; message: string }> = {
  ARIA_ACTIVE: { status: 409, message: 'Du har allerede et aktivt abonnement' },
  EMAIL_WRONG: { status: 400, message: 'Du må bruke e-postadressen du har fra studiestedet ditt, for eksempel navn@stud.ntnu.no.' },
  USER_EXIST_ACTIVE: { status: 409, message: 'Det finnes allerede et aktivt studentabonnement for denne e-postadressen.' },
  ERROR: { status: 409, message: 'Noe gikk galt, og studentabonnementet ble ikke startet. Prøv igjen, eller kontakt kundeservice.' },
  CODE_WRONG: { status: 400, message: 'Koden er feil. Sjekk koden i e-posten og prøv igjen.' },
  INVALID_CODE: { status: 400, message: 'Koden er ikke lenger gyldig. Be om en ny kode.' },
  USER_NOT_EXIST: { status: 404, message: 'Finner ikke bruker' },
  MISSING_PARAMETERS: { status: 400, message: 'Fyll inn e-postadressen fra studiestedet ditt og koden vi sendte deg.' },
};

// --- Institution domains ---------------------------------------------------------------

/**
 * The institutions' student e-mail domains accepted by default (STUDENT_EMAIL_DOMAINS
 * replaces the list). An entry matches that domain and its subdomains; `*.test` style
 * entries match any domain ending so.
 */
export const defaultStudentEmailDomains = [
  'stud.ntnu.no',
  'student.uib.no',
  'student.uio.no',
  'student.uit.no',
  'stud.uis.no',
  'stud.hvl.no',
  'student.usn.no',
  'stud.nord.no',
  'student.oslomet.no',
  'student.inn.no',
] as const;

/** Whether `email` is at one of the `domains` (see defaultStudentEmailDomains for the patterns). */
export function isStudentEmail(email: string, domains: readonly string[]): boolean {
  const trimmed = email.trim();
  if (!isValidEmail(trimmed)) return false;
  const domain = emailDomainOf(trimmed);
  return domains.some((raw) => {
    const pattern = raw.trim().toLowerCase();
    if (pattern === '') return false;
    if (pattern.startsWith('*.')) return domain.endsWith(pattern.slice(1)) && domain.length > pattern.length - 1;
    return domain === pattern || domain.endsWith(`.${pattern}`);
  });
}

/** SPEC §5 classification style: a student subscription has a plan id containing STUDENT. */
export function isStudentSubscription(subscription: { ariaPlanID: string }): boolean {
  return subscription.ariaPlanID.toUpperCase().includes('STUDENT');
}

/** The student plan of a title: one product, monthly. */
export function studentPlanId(titleCode: string): string {
  return `${titleCode.toUpperCase()}-STUDENT-DIGITAL-M`;
}

// --- Yearly re-verification --------------------------------------------------------------

/** The student status holds for a year from the day it was verified. */
const STUDENT_REVERIFY_MONTHS = 12;
/** The reminder goes this many days before that day. */
const STUDENT_REMINDER_DAYS_BEFORE = 30;

export function studentReverifyBy(verifiedOn: string): string {
  return addMonths(verifiedOn, STUDENT_REVERIFY_MONTHS);
}

/** The first day the reminder is due. */
export function studentReminderFrom(verifiedOn: string): string {
  return addDays(studentReverifyBy(verifiedOn), -STUDENT_REMINDER_DAYS_BEFORE);
}

export const studentStatusStates = ['ok', 'dueSoon', 'overdue'] as const;
export type StudentStatusState = (typeof studentStatusStates)[number];

export function studentStatusState(verifiedOn: string, today: string): StudentStatusState {
  if (today > studentReverifyBy(verifiedOn)) return 'overdue';
  if (today >= studentReminderFrom(verifiedOn)) return 'dueSoon';
  return 'ok';
}
