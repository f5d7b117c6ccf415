import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import {
  addDays,
  addMonths,
  billingPeriodMonths,
  instStatusCodes,
  invoiceLineDescription,
  isStudentEmail,
  isStudentSubscription,
  osloToday,
  priceOn,
  studentPlanId,
  VERIFICATION_CODE_TTL_MINUTES,
  type ActivateStudentBody,
  type ActivateStudentResponse,
  type StudentEmailBody,
  type StudentEmailResponse,
  type Title,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { account, studentVerification, subscription, subscriptionChange } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';
import { claimCode, issueCode } from '../../lib/one-time-code.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { insertInvoice } from '../billing/index.ts';
import { accessOn, findPlan, grantSubscription, lockSubscriptionAt, toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';
import { statusOf, studentError } from './student-record.ts';

export interface StudentActivationDeps {
  db: Db;
  mailer: Mailer;
  accounts: AccountService;
  catalogue: Catalogue;
  now: () => Date;
  domains: readonly string[];
  identityProviderName: string;
}

/**
 * Becoming (or staying) a student subscriber (SPEC §7 `student-email/`, `activate-student-subscription/`):
 * a code to an institution address, and the confirmed code starts the student subscription with
 * its first invoice, or continues it and starts the verification year again. Every refusal is a
 * SPEC §8 student code; the yearly reminder is reminders.ts.
 */
export function createStudentActivation({ db, mailer, accounts, catalogue, now, domains, identityProviderName }: StudentActivationDeps) {
  const today = () => osloToday(now());

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
    const taken = others.some((other) => other.userId !== userId && isStudentSubscription({ ariaPlanID: other.subscription.ariaPlanId }) && accessOn(other.subscription, today()));
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
        await insertInvoice(
          tx,
          catalogue,
          row.titleCode,
          {
            ariaAccountNo: row.ariaAccountNo,
            subscriptionId: row.id,
            amountOre: priceOre,
            description: invoiceLineDescription({ planName: plan.name, periodFrom: day, periodTo: addDays(periodEnd, -1) }),
            periodFrom: day,
            periodTo: addDays(periodEnd, -1),
            dueOn: addDays(day, 14),
          },
          now(),
        );
        await log(tx, {
          subscriptionId: row.id,
          userId: user.id,
          kind: previous ? 'reactivated' : 'started',
          from: previous?.instStatusCode ?? null,
          to: instStatusCodes.ACTIVE,
          planName: plan.name,
          on: periodEnd,
        });
        return { status: 'ok' as const, continued: false };
      });

      if (outcome.status === 'none') throw studentError('USER_NOT_EXIST');
      if (outcome.status === 'invalid') throw studentError('INVALID_CODE');
      if (outcome.status === 'wrong') throw studentError(outcome.attemptsLeft > 0 ? 'CODE_WRONG' : 'INVALID_CODE');

      const [accountRow] = await db.select().from(account).where(eq(account.userId, user.id));
      const [verification] = await db.select().from(studentVerification).where(eq(studentVerification.userId, user.id));
      const status = verification ? statusOf(verification, today()) : null;
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
  };
}
