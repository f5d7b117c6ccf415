import { and, eq, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import { formatKroner, formatLongDate, isStudentSubscription, osloToday, studentReminderFrom, studentReverifyBy } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { account, appUser, studentVerification, subscription } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';
import { accessOn } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';

/**
 * The nightly re-verification reminder (the student job): apart from the requests, since it runs
 * for every student at once, by the clock, and claims each reminder so two runners never send one twice.
 */
export function createReverificationReminders({ db, mailer, titles, now }: { db: Db; mailer: Mailer; titles: TitleService; now: () => Date }) {
  const today = () => osloToday(now());

  return {
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
