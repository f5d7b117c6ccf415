import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import {
  decideTransition,
  osloToday,
  PAYMENT_HISTORY_RETENTION_YEARS,
  privacyErrorCodes,
  privacyMessages,
  type ChangeActor,
  type DeletionRequestBody,
  type DeletionState,
  type Title,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { account, dataRequest, subscription } from '../../db/schema.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { LifecycleService } from '../subscription/index.ts';
import { claimDue, titleForUser } from './data-request.ts';
import { erase } from './erasure.ts';

export interface DeletionDeps {
  db: Db;
  mailer: Mailer;
  lifecycle: LifecycleService;
  now: () => Date;
  mainIssuerKey: string;
  titleOf: (titleCode: string | undefined) => Title;
  endSessionsOf: ((userId: string) => Promise<void>) | undefined;
  catalogue: Catalogue;
}

/**
 * The right to erasure (SPEC §5, issue 9 item 3): the request ends what runs and is scheduled and
 * confirmed by e-mail; the job carries it out when it is due (what it deletes is erasure.ts).
 */
export function createDeletion({ db, mailer, lifecycle, now, mainIssuerKey, titleOf, endSessionsOf, catalogue }: DeletionDeps) {
  async function deletionState(userId: string): Promise<DeletionState> {
    const [row] = await db
      .select()
      .from(dataRequest)
      .where(and(eq(dataRequest.userId, userId), eq(dataRequest.kind, 'erasure')));
    if (!row) return { request: null };
    const cancelled = row.details['cancelledSubscriptions'];
    return {
      request: {
        status: row.status === 'completed' ? 'completed' : 'scheduled',
        requestedAt: row.requestedAt.toISOString(),
        scheduledFor: row.dueAt.toISOString(),
        cancelledSubscriptions: Array.isArray(cancelled) ? cancelled.filter((name): name is string => typeof name === 'string') : [],
      },
    };
  }

  return {
    getDeletion: deletionState,

    /**
     * POST /api/privacy/deletion (SPEC §5: two ticked confirmations). Ends what runs — each
     * active subscription is cancelled through the lifecycle service, as if the subscriber
     * had done it — then schedules the erasure and confirms it by e-mail. `requestedBy` is
     * customerCentre when the request came by letter or phone (`admin gdpr erase`): the change
     * log and the request row say so.
     */
    async requestDeletion(user: SessionUser, body: DeletionRequestBody, origin: string, requestedBy: ChangeActor = 'self'): Promise<DeletionState> {
      if (!body.confirmConsequences || !body.confirmPaymentHistory) throw new AppError(400, privacyErrorCodes.confirmationRequired, privacyMessages.confirmationRequired);
      const existing = await deletionState(user.id);
      if (existing.request) return existing;

      const today = osloToday(now());
      const owned = await db.select({ sub: subscription }).from(subscription).innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo)).where(eq(account.userId, user.id));
      const cancelled: string[] = [];
      for (const { sub } of owned) {
        const view = {
          instStatusCode: sub.instStatusCode,
          currentPeriodEnd: sub.currentPeriodEnd,
          resumeStatusCode: sub.resumeStatusCode,
          sharedFrom: sub.sharedFromSubscriptionId,
          subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: sub.subscriptionInfo1 },
        };
        if (!decideTransition(view, 'cancel', today).allowed) continue;
        await lifecycle.deleteSubscription(
          user,
          { ariaAccountNo: sub.ariaAccountNo, titleCode: sub.titleCode, actionType: 'CANCELLATION', reasonCode: 'OTHER', reasonText: 'Kontoen slettes' },
          requestedBy,
          { confirm: false },
        );
        cancelled.push(sub.planName);
      }

      const at = now();
      await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(dataRequest)
          .values({ id: randomUUID(), userId: user.id, kind: 'erasure', status: 'pending', requestedAt: at, dueAt: at, details: { cancelledSubscriptions: cancelled, origin, requestedBy } })
          .onConflictDoNothing()
          .returning();
        if (!created) return;
        const title = await titleForUser(tx, user.id, titleOf);
        const mail = titleMail(title, {
          subject: 'Vi sletter kontoen din',
          heading: 'Vi sletter kontoen din',
          paragraphs: [
            `Hei ${user.givenName}!`.replace(' !', '!'),
            `Du har bedt ${requestedBy === 'customerCentre' ? 'kundesenteret' : 'oss'} slette kontoen din på Min Side. Vi sletter personopplysningene dine og brukeren du logger inn med. Etter det kan du ikke logge inn med den lenger.`,
            ...(cancelled.length ? [`Vi har sagt opp: ${cancelled.join(', ')}.`] : []),
            `Fakturaer og betalinger må vi ta vare på i ${PAYMENT_HISTORY_RETENTION_YEARS} år etter bokføringsloven, men uten navnet ditt.`,
          ],
          footnotes: ['Har du ikke bedt om dette? Kontakt kundeservice med en gang.'],
        });
        await mailer.enqueue(tx, { to: user.email, title, kind: 'dataErasure', ...mail, idempotencyKey: `data-erasure:${created.id}` });
      });
      await mailer.deliverPending();
      return deletionState(user.id);
    },

    /** Job: carries out the scheduled erasures that are due, each in one transaction. */
    async runErasures(limit = 20): Promise<number> {
      const claimed = await claimDue(db, now(), 'erasure', limit);
      for (const request of claimed) {
        // Before the erasure: if the session store is away, the request stays claimed and is retried.
        await endSessionsOf?.(request.userId);
        await db.transaction((tx) => erase(tx, request, { now, catalogue, mainIssuerKey }));
      }
      return claimed.length;
    },
  };
}
