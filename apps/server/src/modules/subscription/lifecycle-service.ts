// Types only: billing sits above this area and hands its functions in (LifecycleDeps).
import type { CancelledPeriodCrediting, insertInvoice, invoicesToCreditOnCancel } from '../billing/index.ts';
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import {
  addMonths,
  billingPeriodMonths,
  cancellationErrorCodes,
  cancellationMessages,
  cancellationReasons,
  changeDetailsSchema,
  decideTransition,
  describeChange,
  effectiveStatusCode,
  errorCodes,
  hasAccess,
  instStatusCodes,
  osloToday,
  reactivationResults,
  retentionMessages,
  WINBACK_FREE_MONTHS,
  type BilledPeriod,
  type ChangeActor,
  type ChangeKind,
  type ChangeLogEntry,
  type DeleteSubscriptionBody,
  type DeleteSubscriptionResponse,
  type ReactivateSubscriptionBody,
  type ReactivateSubscriptionResponse,
  type ReactivationResultCode,
  type RetentionOffer,
  type Subscription,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { account, cancellationSurvey, retentionOfferAcceptance, subscription, subscriptionChange } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { findPlan, soldPlans } from './plans.ts';
import type { AccountService } from './service.ts';
import type { ChangeMails } from './change-mails.ts';
import { createLifecycleCore, lifecycleView } from './lifecycle-core.ts';
import { createPlanChange } from './plan-change.ts';

export { lifecycleView } from './lifecycle-core.ts';

export interface LifecycleDeps {
  db: Db;
  accounts: AccountService;
  catalogue: Catalogue;
  /** The confirmation e-mail of each change, queued in its transaction (issue 25.7). */
  mails: ChangeMails;
  /**
   * Credits the invoices of periods after the access ends once a cancellation has committed (ADR
   * 026): billing's, bound late (billing is registered after this service).
   */
  cancelledPeriods: Pick<CancelledPeriodCrediting, 'creditFor'>;
  /**
   * Bills a period the moment it starts, in the caller's transaction, the way every period is
   * billed (ADR 006): billing's `billPeriod` (modules/billing/jobs.ts), bound late in app.ts.
   */
  billPeriod: (tx: Tx, subscriptionId: string, periodFrom: string) => Promise<BilledPeriod | null>;
  /**
   * Billing's invoice writing, handed in by app.ts: the top-up invoice of an upgrade (`insert`)
   * and what a cancellation's confirmation can promise to credit (`toCreditOnCancel`). Billing is
   * the area above this one, so the lifecycle takes them instead of importing them.
   */
  invoices: { insert: typeof insertInvoice; toCreditOnCancel: typeof invoicesToCreditOnCancel };
  now: () => Date;
}

function reactivationError(code: Exclude<ReactivationResultCode, 'ok'>): AppError {
  return new AppError(reactivationResults[code].status, code, reactivationResults[code].message);
}

/**
 * Cancellation with survey and retention offer, undo, reactivation, plan change and the
 * change log (issue 4). Each call runs in one transaction holding the subscription's row
 * lock: a refused request changes nothing, and two requests at once are taken in turn.
 */
export function createLifecycleService({ db, accounts, catalogue, mails, cancelledPeriods, billPeriod, invoices, now }: LifecycleDeps) {
  const today = () => osloToday(now());

  const core = createLifecycleCore({ db, now });
  const { log, lockOwn, require, planColumns, offerUsed, offerFor } = core;
  const planChange = createPlanChange({ db, accounts, catalogue, mails, now, core, insertInvoice: invoices.insert });

  function reasonLabel(body: Pick<DeleteSubscriptionBody, 'reasonCode' | 'reasonText'>): string {
    return body.reasonCode === 'OTHER' && body.reasonText ? `${cancellationReasons.OTHER}: ${body.reasonText}` : cancellationReasons[body.reasonCode];
  }

  return {
    /** The title's plans on sale, with the price changes that have been announced (public: /nye-priser). */
    soldPlans: (titleCode: string) => soldPlans(db, titleCode),

    /** GET …/retention-offer: the one offer this subscription may still accept. */
    async retentionOffer(userId: string, ariaAccountNo: number, titleCode: string): Promise<RetentionOffer | null> {
      const row = await db.transaction(async (tx) => lockOwn(tx, userId, ariaAccountNo, titleCode));
      return offerFor(db, row);
    },

    /**
     * DELETE /api/deleteSubscription: cancel at the period end, or take the retention offer instead. `actor` is customerCentre for an erasure asked for by letter or phone.
     * `confirm: false` queues no confirmation: an account erasure's own mail names what it cancelled, and an "angre oppsigelsen" link would be wrong there.
     */
    async deleteSubscription(user: SessionUser, body: DeleteSubscriptionBody, actor: ChangeActor = 'self', { confirm = true }: { confirm?: boolean } = {}): Promise<DeleteSubscriptionResponse> {
      const cancelledId = await db.transaction(async (tx): Promise<string | null> => {
        const row = await lockOwn(tx, user.id, body.ariaAccountNo, body.titleCode);
        let cancelled: string | null = null;
        if (body.actionType === 'CANCELLATION') {
          const to = require(row, 'cancel');
          await tx
            .update(subscription)
            .set({ instStatusCode: to, cancelledAt: now(), resumeStatusCode: row.instStatusCode, pendingPlanId: null, pendingPlanName: null, pendingChangeOn: null })
            .where(eq(subscription.id, row.id));
          const logged = await log(tx, {
            subscriptionId: row.id,
            actor,
            userId: user.id,
            kind: 'cancelled',
            from: row.instStatusCode,
            to,
            details: { on: row.currentPeriodEnd, reason: reasonLabel(body) },
          });
          // An invoice already issued for the period after the access ends is credited once this commits; the confirmation says so.
          if (confirm) await mails.cancelled(tx, { subscriptionId: row.id, ...logged, nextInvoices: await invoices.toCreditOnCancel(tx, row, row.currentPeriodEnd, today()) });
          cancelled = row.id;
        } else {
          if (!body.offerCode) throw new AppError(400, errorCodes.validation, cancellationMessages.offerRequired);
          require(row, 'acceptRetentionOffer');
          if (await offerUsed(tx, row.id)) throw new AppError(409, cancellationErrorCodes.offerUsed, retentionMessages.offerUsed);
          const offer = await offerFor(tx, row);
          if (!offer || offer.code !== body.offerCode) throw new AppError(409, cancellationErrorCodes.offerUnavailable, retentionMessages.offerUnavailable);
          const [accepted] = await tx.insert(retentionOfferAcceptance).values({ subscriptionId: row.id, offerCode: offer.code, acceptedAt: now() }).onConflictDoNothing().returning();
          if (!accepted) throw new AppError(409, cancellationErrorCodes.offerUsed, retentionMessages.offerUsed);
          if (offer.code === 'WINBACK_3_FOR_1') {
            const periodEnd = addMonths(row.currentPeriodEnd, WINBACK_FREE_MONTHS);
            await tx.update(subscription).set({ currentPeriodEnd: periodEnd }).where(eq(subscription.id, row.id));
            const accepted = await log(tx, { subscriptionId: row.id, actor, userId: user.id, kind: 'retentionOfferAccepted', details: { offer: offer.headline, on: periodEnd } });
            await mails.retentionOfferAccepted(tx, { subscriptionId: row.id, ...accepted, headline: offer.headline, plan: null, from: periodEnd });
          } else if (offer.plan) {
            await tx.update(subscription).set({ pendingPlanId: offer.plan.ariaPlanID, pendingPlanName: offer.plan.name, pendingChangeOn: row.currentPeriodEnd }).where(eq(subscription.id, row.id));
            const accepted = await log(tx, { subscriptionId: row.id, actor, userId: user.id, kind: 'retentionOfferAccepted', details: { offer: offer.headline } });
            await log(tx, {
              subscriptionId: row.id,
              actor,
              userId: user.id,
              kind: 'planChangeScheduled',
              details: { planName: offer.plan.name, billingPeriod: offer.plan.billingPeriod, on: row.currentPeriodEnd },
            });
            await mails.retentionOfferAccepted(tx, { subscriptionId: row.id, ...accepted, headline: offer.headline, plan: offer.plan, from: row.currentPeriodEnd });
          }
        }
        await tx.insert(cancellationSurvey).values({
          id: randomUUID(),
          subscriptionId: row.id,
          reasonCode: body.reasonCode,
          reasonText: body.reasonCode === 'OTHER' ? (body.reasonText ?? null) : null,
          actionType: body.actionType,
          createdAt: now(),
        });
        return cancelled;
      });
      // After the commit: crediting may ask the provider for a refund, which no transaction may wait for.
      const creditedInvoices = cancelledId ? await cancelledPeriods.creditFor(cancelledId) : [];
      return { actionType: body.actionType, subscription: await accounts.getOwnSubscription(user.id, body.ariaAccountNo, body.titleCode), creditedInvoices };
    },

    /** POST …/undo-cancellation (/angre-oppsigelse): back to what it was, while the period runs. */
    async undoCancellation(userId: string, ariaAccountNo: number, titleCode: string): Promise<Subscription> {
      await db.transaction(async (tx) => {
        const row = await lockOwn(tx, userId, ariaAccountNo, titleCode);
        const to = require(row, 'undoCancellation');
        await tx.update(subscription).set({ instStatusCode: to, cancelledAt: null, resumeStatusCode: null }).where(eq(subscription.id, row.id));
        const undone = await log(tx, { subscriptionId: row.id, actor: 'self', userId, kind: 'cancellationUndone', from: row.instStatusCode, to });
        await mails.cancellationUndone(tx, { subscriptionId: row.id, ...undone });
      });
      return accounts.getOwnSubscription(userId, ariaAccountNo, titleCode);
    },

    /**
     * POST /api/reactivateSubscription/: an expired subscription starts again with a new
     * period, answering with the SPEC §4 result codes (docs/decisions/006).
     */
    async reactivate(user: SessionUser, body: ReactivateSubscriptionBody, identityId: string | undefined): Promise<ReactivateSubscriptionResponse> {
      const { ariaAccountNo, titleCode, email } = body;
      if (ariaAccountNo === undefined || !titleCode || !email?.trim()) throw reactivationError('REQUEST_MISSING_VALUES');
      if (email.trim().toLowerCase() !== user.email.toLowerCase()) throw reactivationError('EMAIL_DOES_NOT_EXIST');
      if (identityId !== undefined && identityId !== user.identitySub) throw reactivationError('NO_SPID_FOUND');
      await accounts.getOwnAccount(user.id, ariaAccountNo);
      const invoice = await db.transaction(async (tx): Promise<BilledPeriod | null> => {
        const [owned] = await tx
          .select({ id: subscription.id })
          .from(subscription)
          .where(and(eq(subscription.ariaAccountNo, ariaAccountNo), eq(subscription.titleCode, titleCode.toUpperCase())));
        if (!owned) throw reactivationError('AMPS_RETURNED_NULL');
        const row = await lockOwn(tx, user.id, ariaAccountNo, titleCode);
        const status = effectiveStatusCode(row, today());
        if (status === instStatusCodes.PENDING_CANCELLATION || status === instStatusCodes.PENDING_TERMINATION) throw reactivationError('USER_IS_ACTIVE');
        if (hasAccess({ instStatusCode: status })) throw reactivationError('USER_HAS_ACTIVE_SUB');
        const decision = decideTransition(lifecycleView(row), 'reactivate', today());
        if (!decision.allowed) throw reactivationError('ERROR_IN_CREATING_ACCOUNT');
        const [owner] = await tx.select({ balance: account.accountBalanceOre }).from(account).where(eq(account.ariaAccountNo, ariaAccountNo));
        // An unpaid balance, or a plan that is no longer sold: the customer centre sorts it out.
        const plan = await findPlan(tx, row.ariaPlanId);
        if (!plan || (owner?.balance ?? 0) < 0) throw reactivationError('ERROR_IN_CREATING_ACCOUNT');
        const day = today();
        const periodEnd = addMonths(day, billingPeriodMonths[plan.billingPeriod]);
        await tx
          .update(subscription)
          .set({
            ...planColumns(plan, day),
            instStatusCode: decision.to,
            currentPeriodEnd: periodEnd,
            cancelledAt: null,
            resumeStatusCode: null,
            pendingPlanId: null,
            pendingPlanName: null,
            pendingChangeOn: null,
          })
          .where(eq(subscription.id, row.id));
        const reactivated = await log(tx, {
          subscriptionId: row.id,
          actor: 'self',
          userId: user.id,
          kind: 'reactivated',
          from: row.instStatusCode,
          to: decision.to,
          details: { planName: plan.name, on: periodEnd },
        });
        await mails.reactivated(tx, { subscriptionId: row.id, ...reactivated });
        // The access given today is billed today, in this transaction: the renewal run bills only the
        // periods after this one, so without it the first period would never be billed.
        return billPeriod(tx, row.id, day);
      });
      return { result: 'ok', message: reactivationResults.ok.message, subscription: await accounts.getOwnSubscription(user.id, ariaAccountNo, titleCode), invoice };
    },

    planOptions: planChange.planOptions,
    changePlan: planChange.changePlan,

    /** GET …/changes: the change log, newest first. */
    async changeLog(userId: string, ariaAccountNo: number, titleCode: string): Promise<ChangeLogEntry[]> {
      const own = await accounts.getOwnSubscription(userId, ariaAccountNo, titleCode);
      const rows = await db.select().from(subscriptionChange).where(eq(subscriptionChange.subscriptionId, own.id)).orderBy(desc(subscriptionChange.at), desc(subscriptionChange.id)).limit(100);
      return rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor as ChangeActor,
        kind: row.kind as ChangeKind,
        description: describeChange(row.kind as ChangeKind, changeDetailsSchema.catch({}).parse(row.details)),
      }));
    },

    settleDue: core.settleDue,
  };
}

export type LifecycleService = ReturnType<typeof createLifecycleService>;
