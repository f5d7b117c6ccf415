import { insertInvoice } from '../billing/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';
import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import {
  addDays,
  addMonths,
  billingPeriodMonths,
  formatKroner,
  formatLongDate,
  instStatusCodes,
  invoiceLineDescription,
  isStudentEmail,
  isStudentSubscription,
  osloToday,
  priceOn,
  studentPlanId,
  studentReminderFrom,
  studentResults,
  studentReverifyBy,
  studentStatusState,
  VERIFICATION_CODE_TTL_MINUTES,
  type ActivateStudentBody,
  type ActivateStudentResponse,
  type StudentEmailBody,
  type StudentEmailResponse,
  type StudentInfoResponse,
  type StudentResultCode,
  type StudentStatus,
  type Title,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, studentVerification, subscription, subscriptionChange } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { claimCode, issueCode } from '../../lib/one-time-code.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { accessOn, findPlan, grantSubscription, lockSubscriptionAt, toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';
import type { Catalogue } from '@minside/titles';
import type { TitleService } from '../titles/index.ts';

/** The receiving account printed on invoices the portal creates (illustrative, like the seed's). */

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

function studentError(code: StudentResultCode): AppError {
  return new AppError(studentResults[code].status, code, studentResults[code].message);
}

type VerificationRow = typeof studentVerification.$inferSelect;

/**
 * Student verification (SPEC §7 `student-email/`, `activate-student-subscription/`, §8 the
 * student codes): a code to an institution address, confirmed within 15 minutes in at most
 * five tries; the confirmation starts the student subscription, or continues it and moves
 * the yearly re-verification on (docs/decisions/011-business-and-student.md).
 */
export function createStudentService({ db, mailer, accounts, titles, catalogue, now, domains, identityProviderName }: StudentDeps) {
  const today = () => osloToday(now());

  function statusOf(row: VerificationRow): StudentStatus | null {
    if (!row.verifiedAt) return null;
    const verifiedOn = osloToday(row.verifiedAt);
    return { studentEmail: row.studentEmail, verifiedOn, reverifyBy: studentReverifyBy(verifiedOn), state: studentStatusState(verifiedOn, today()) };
  }

  /** The student e-mail from a request: MISSING_PARAMETERS when absent, EMAIL_WRONG unless at an approved institution. */
  function studentEmailOf(raw: string | undefined): string {
    const email = raw?.trim().toLowerCase() ?? '';
    if (email === '') throw studentError('MISSING_PARAMETERS');
    if (!isStudentEmail(email, domains)) throw studentError('EMAIL_WRONG');
    return email;
  }

  /** ARIA_ACTIVE: access at this title through anything but a student subscription (a student renews instead). */
  async function refuseOtherActive(tx: Tx | Db, userId: string, titleCode: string): Promise<void> {
    const [row] = await tx
      .select({ subscription })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .where(and(eq(account.userId, userId), eq(subscription.titleCode, titleCode)));
    if (row && accessOn(row.subscription, today()) && !isStudentSubscription({ ariaPlanID: row.subscription.ariaPlanId })) throw studentError('ARIA_ACTIVE');
  }

  /** USER_EXIST_ACTIVE: another user verified this address and studies on it with access. */
  async function refuseTakenEmail(tx: Tx | Db, userId: string, email: string): Promise<void> {
    const others = await tx
      .select({ userId: studentVerification.userId, subscription })
      .from(studentVerification)
      .innerJoin(account, eq(account.userId, studentVerification.userId))
      .innerJoin(subscription, eq(subscription.ariaAccountNo, account.ariaAccountNo))
      .where(and(eq(studentVerification.studentEmail, email), isNotNull(studentVerification.verifiedAt)));
    const taken = others.some(
      (other) => other.userId !== userId && isStudentSubscription({ ariaPlanID: other.subscription.ariaPlanId }) && accessOn(other.subscription, today()),
    );
    if (taken) throw studentError('USER_EXIST_ACTIVE');
  }

  async function studentPlan(tx: Tx | Db, titleCode: string) {
    const plan = await findPlan(tx, studentPlanId(titleCode));
    // A title that sells no student plan: nothing to start (ERROR, "contact customer service").
    if (!plan) throw studentError('ERROR');
    return plan;
  }

  async function log(tx: Tx, entry: { subscriptionId: string; userId: string; kind: 'started' | 'reactivated'; from: number | null; to: number; planName: string; on: string }) {
    await tx.insert(subscriptionChange).values({
      id: randomUUID(),
      subscriptionId: entry.subscriptionId,
      at: now(),
      actor: 'self',
      actorUserId: entry.userId,
      kind: entry.kind,
      fromStatusCode: entry.from,
      toStatusCode: entry.to,
      details: { planName: entry.planName, on: entry.on },
    });
  }

  return {
    /** POST /api/student-email/: a six-digit code to the student address. A refusal sends nothing and stores nothing. */
    async sendCode(user: SessionUser, title: Title, body: StudentEmailBody): Promise<StudentEmailResponse> {
      const email = studentEmailOf(body.email);
      await refuseOtherActive(db, user.id, title.titleCode);
      await refuseTakenEmail(db, user.id, email);
      await studentPlan(db, title.titleCode);
      const expiresAt = await db.transaction(async (tx) => {
        const issued = await issueCode(tx, { purpose: 'student', userId: user.id, email, now: now() });
        await mailer.enqueue(tx, {
          to: email,
          title,
          kind: 'studentCode',
          ...titleMail(title, {
            subject: `Koden din for studentabonnement på ${title.name}`,
            heading: 'Koden din',
            paragraphs: [`Hei ${user.givenName}!`, `Bruk denne koden for å bekrefte at du er student og få studentabonnement på ${title.name}:`, issued.code],
            footnotes: [`Koden virker i ${VERIFICATION_CODE_TTL_MINUTES} minutter. Har du ikke bedt om den, kan du se bort fra e-posten.`],
          }),
        });
        return issued.expiresAt;
      });
      await mailer.deliverPending();
      return { result: 'CODE_SENT', email, expiresAt: expiresAt.toISOString(), message: `Vi har sendt en kode til ${email}.` };
    },

    /**
     * POST /api/activate-student-subscription/: the code confirmed, the student subscription
     * starts (or, for a student, continues) and the verification year starts again. A wrong
     * code counts as a try; any other refusal leaves everything as it was.
     */
    async activate(user: SessionUser, title: Title, body: ActivateStudentBody): Promise<ActivateStudentResponse> {
      if (!body.email?.trim() || !body.code?.trim()) throw studentError('MISSING_PARAMETERS');
      const email = studentEmailOf(body.email);
      const titleCode = title.titleCode;
      const day = today();
      const outcome = await db.transaction(async (tx) => {
        const claim = await claimCode(tx, { purpose: 'student', userId: user.id, email, code: body.code ?? '', now: now() });
        if (claim.status !== 'ok') return claim;
        await refuseOtherActive(tx, user.id, titleCode);
        await refuseTakenEmail(tx, user.id, email);
        const plan = await studentPlan(tx, titleCode);

        await tx
          .insert(studentVerification)
          .values({ userId: user.id, studentEmail: email, verifiedAt: now(), reminderSentAt: null })
          .onConflictDoUpdate({ target: studentVerification.userId, set: { studentEmail: email, verifiedAt: now(), reminderSentAt: null } });

        const current = await lockSubscriptionAt(tx, user.id, titleCode);
        if (current && accessOn(current, day)) return { status: 'ok' as const, continued: true };

        const periodEnd = addMonths(day, billingPeriodMonths[plan.billingPeriod]);
        const priceOre = priceOn(plan, day);
        const { row, previous } = await grantSubscription(tx, {
          userId: user.id,
          titleCode,
          today: day,
          values: {
            ariaPlanId: plan.ariaPlanID,
            planName: plan.name,
            planProductType: plan.planProductType,
            eligibleForSharing: true,
            instStatusCode: instStatusCodes.ACTIVE,
            billingPeriod: plan.billingPeriod,
            priceOre,
            paymentMethod: 'INVOICE',
            features: plan.features,
            startedOn: day,
            currentPeriodEnd: periodEnd,
          },
        });
        await insertInvoice(tx, catalogue, row.titleCode, {
          ariaAccountNo: row.ariaAccountNo,
          subscriptionId: row.id,
          amountOre: priceOre,
          description: invoiceLineDescription({ planName: plan.name, periodFrom: day, periodTo: addDays(periodEnd, -1) }),
          periodFrom: day,
          periodTo: addDays(periodEnd, -1),
          dueOn: addDays(day, 14),
        }, now());
        await log(tx, { subscriptionId: row.id, userId: user.id, kind: previous ? 'reactivated' : 'started', from: previous?.instStatusCode ?? null, to: instStatusCodes.ACTIVE, planName: plan.name, on: periodEnd });
        return { status: 'ok' as const, continued: false };
      });

      if (outcome.status === 'none') throw studentError('USER_NOT_EXIST');
      if (outcome.status === 'invalid') throw studentError('INVALID_CODE');
      if (outcome.status === 'wrong') throw studentError(outcome.attemptsLeft > 0 ? 'CODE_WRONG' : 'INVALID_CODE');

      const [accountRow] = await db.select().from(account).where(eq(account.userId, user.id));
      const [verification] = await db.select().from(studentVerification).where(eq(studentVerification.userId, user.id));
      const status = verification ? statusOf(verification) : null;
      if (!accountRow || !status) throw new Error('student activation left no account or verification');
      return {
        result: 'OK',
        message: outcome.continued ? 'Studentstatusen din er bekreftet på nytt.' : 'Studentabonnementet ditt er startet.',
        user: toUserDto(user, identityProviderName),
        account: toAccountDto(accountRow, user, identityProviderName),
        subscription: await accounts.subscriptionForTitle(accountRow, titleCode),
        status,
      };
    },

    /** GET /api/student/status: when the signed-in student must verify again (the home page's notice). */
    async status(userId: string): Promise<StudentStatus | null> {
      const [row] = await db.select().from(studentVerification).where(eq(studentVerification.userId, userId));
      return row ? statusOf(row) : null;
    },

    /** GET /api/student/info: the institutions and the price, for the public /student page. */
    async info(titleCode: string): Promise<StudentInfoResponse> {
      const plan = await findPlan(db, studentPlanId(titleCode));
      return { domains: [...domains], priceOre: plan ? priceOn(plan, today()) : null, planName: plan?.name ?? null };
    },

    /**
     * The job's part: one reminder per verification, STUDENT_REMINDER_DAYS_BEFORE days before
     * the year is up, to students whose student subscription still gives access. Claimed by
     * an update, so two runners never send the same reminder twice. Returns how many went out.
     */
    async sendReverificationReminders(): Promise<number> {
      const day = today();
      // A cheap lower bound in SQL (no one is due before ~11 months); the exact day in code.
      const candidates = await db
        .select({ verification: studentVerification, email: appUser.email, givenName: appUser.givenName })
        .from(studentVerification)
        .innerJoin(appUser, eq(appUser.id, studentVerification.userId))
        .where(and(isNotNull(studentVerification.verifiedAt), lte(studentVerification.verifiedAt, new Date(now().getTime() - 300 * 86_400_000))));
      let sent = 0;
      for (const candidate of candidates) {
        const { verification } = candidate;
        if (!verification.verifiedAt) continue;
        if (verification.reminderSentAt && verification.reminderSentAt.getTime() >= verification.verifiedAt.getTime()) continue;
        const verifiedOn = osloToday(verification.verifiedAt);
        if (day < studentReminderFrom(verifiedOn)) continue;
        const subscriptions = await db
          .select({ subscription })
          .from(subscription)
          .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
          .where(eq(account.userId, verification.userId));
        const student = subscriptions.map((row) => row.subscription).find((row) => isStudentSubscription({ ariaPlanID: row.ariaPlanId }) && accessOn(row, day));
        if (!student) continue;
        const title = titles.getTitle(student.titleCode);
        const reverifyBy = studentReverifyBy(verifiedOn);
        const claimed = await db.transaction(async (tx) => {
          const [row] = await tx
            .update(studentVerification)
            .set({ reminderSentAt: now() })
            .where(
              and(
                eq(studentVerification.userId, verification.userId),
                // Not a newer verification made meanwhile (the stored value may carry microseconds).
                lte(studentVerification.verifiedAt, new Date((verification.verifiedAt as Date).getTime() + 1)),
                or(isNull(studentVerification.reminderSentAt), lt(studentVerification.reminderSentAt, studentVerification.verifiedAt)),
              ),
            )
            .returning({ reminderSentAt: studentVerification.reminderSentAt });
          if (!row) return false;
          await mailer.enqueue(tx, {
            to: candidate.email,
            title,
            kind: 'studentReminder',
            userId: verification.userId,
            ...titleMail(title, {
              subject: `Bekreft at du fortsatt er student innen ${formatLongDate(reverifyBy)}`,
              heading: 'Er du fortsatt student?',
              paragraphs: [
                `Hei ${candidate.givenName}!`,
                `Studentabonnementet ditt på ${title.name} forutsetter at du er student. Bekreft studentstatusen din på nytt innen ${formatLongDate(reverifyBy)}, så beholder du studentprisen på ${formatKroner(student.priceOre)}.`,
              ],
              action: { label: 'Bekreft studentstatus', url: `${title.minsideUrl.replace(/\/+$/, '')}/student-verifisering` },
            }),
          });
          return true;
        });
        if (claimed) sent += 1;
      }
      if (sent > 0) await mailer.deliverPending();
      return sent;
    },
  };
}

export type StudentService = ReturnType<typeof createStudentService>;
