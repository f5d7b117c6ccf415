import { eq } from 'drizzle-orm';
import { osloToday, priceOn, studentPlanId, type StudentInfoResponse, type StudentStatus } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { studentVerification } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { findPlan, type AccountService } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';
import { createStudentActivation } from './activation.ts';
import { createReverificationReminders } from './reminders.ts';
import { statusOf } from './student-record.ts';

export interface StudentDeps {
  db: Db;
  mailer: Mailer;
  accounts: AccountService;
  titles: TitleService;
  catalogue: Catalogue;
  now: () => Date;
  /** STUDENT_EMAIL_DOMAINS. */
  domains: readonly string[];
  identityProviderName: string;
}

/**
 * Student verification (SPEC §7 `student-email/`, `activate-student-subscription/`, §8 the
 * student codes): a code to an institution address, confirmed within 15 minutes in at most
 * five tries; the confirmation starts the student subscription, or continues it and moves
 * the yearly re-verification on (docs/decisions/011-business-and-student.md). The code and the
 * activation are activation.ts, the job's reminder reminders.ts; here the reads.
 */
export function createStudentService({ db, mailer, accounts, titles, catalogue, now, domains, identityProviderName }: StudentDeps) {
  const today = () => osloToday(now());

  return {
    ...createStudentActivation({ db, mailer, accounts, catalogue, now, domains, identityProviderName }),

    /** GET /api/student/status: when the signed-in student must verify again (the home page's notice). */
    async status(userId: string): Promise<StudentStatus | null> {
      const [row] = await db.select().from(studentVerification).where(eq(studentVerification.userId, userId));
      return row ? statusOf(row, today()) : null;
    },

    /** GET /api/student/info: the institutions and the price, for the public /student page. */
    async info(titleCode: string): Promise<StudentInfoResponse> {
      const plan = await findPlan(db, studentPlanId(titleCode));
      return { domains: [...domains], priceOre: plan ? priceOn(plan, today()) : null, planName: plan?.name ?? null };
    },

    ...createReverificationReminders({ db, mailer, titles, now }),
  };
}

export type StudentService = ReturnType<typeof createStudentService>;
