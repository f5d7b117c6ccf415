import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, lte, isNotNull, or } from 'drizzle-orm';
import {
  addDays,
  addMonths,
  billingPeriodMonths,
  cancellationErrorCodes,
  cancellationMessages,
  cancellationReasons,
  changeDetailsSchema,
  chooseRetentionOffer,
  decideTransition,
  describeChange,
  effectiveStatusCode,
  errorCodes,
  hasAccess,
  instStatusCodes,
  invoiceLineDescription,
  osloToday,
  planEligibility,
  planErrorCodes,
  planMessages,
  priceOn,
  quotePlanChange,
  reactivationResults,
  retentionMessages,
  WINBACK_FREE_MONTHS,
  type BilledPeriod,
  type ChangeActor,
  type ChangeDetails,
  type ChangeKind,
  type ChangeLogEntry,
  type ChangePlanResponse,
  type DeleteSubscriptionBody,
  type DeleteSubscriptionResponse,
  type LifecycleEvent,
  type Plan,
  type PlanOption,
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
import { notFound } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { findPlan, soldPlans } from './plans.ts';
import type { AccountService } from './service.ts';
import type { ChangeMails } from './change-mails.ts';
// Types only: billing sits above this area and hands its functions in (LifecycleDeps).
import type { CancelledPeriodCrediting, insertInvoice, invoicesToCreditOnCancel } from '../billing/index.ts';

type SubscriptionRow = typeof subscription.$inferSelect;

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

/** What the transition rules read of a stored subscription (also the withdrawal's, modules/ordering/withdrawal.ts). */
export function lifecycleView(row: SubscriptionRow) {
  return {
    instStatusCode: row.instStatusCode,
    currentPeriodEnd: row.currentPeriodEnd,
    resumeStatusCode: row.resumeStatusCode,
    sharedFrom: row.sharedFromSubscriptionId,
    subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: row.subscriptionInfo1 },
  };
}

function classifiable(row: SubscriptionRow) {
  return {
    ariaPlanID: row.ariaPlanId,
    planProductType: row.planProductType,
    eligibleForSharing: row.eligibleForSharing,
    instStatusCode: row.instStatusCode,
    subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: row.subscriptionInfo1 },
    billingPeriod: row.billingPeriod,
  };
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

  async function log(
    tx: Tx,
    entry: { subscriptionId: string; actor: ChangeActor; userId: string | null; kind: ChangeKind; from?: number | null; to?: number | null; details?: ChangeDetails },
  ): Promise<{ changeId: string; at: Date }> {
    const written = { changeId: randomUUID(), at: now() };
    await tx.insert(subscriptionChange).values({
      id: written.changeId,
      subscriptionId: entry.subscriptionId,
      at: written.at,
      actor: entry.actor,
      actorUserId: entry.actor === 'self' ? entry.userId : null,
      kind: entry.kind,
      fromStatusCode: entry.from ?? null,
      toStatusCode: entry.to ?? null,
      details: entry.details ?? {},
    });
    return written;
  }

  /**
   * What the period end has already decided, written down: a cancelled subscription whose
   * period is over expires, and a scheduled plan change whose day has come takes effect.
   */
  async function settle(tx: Tx, row: SubscriptionRow): Promise<SubscriptionRow> {
    let current = row;
    const day = today();
    if (decideTransition(lifecycleView(current), 'expire', day).allowed) {
      const decision = decideTransition(lifecycleView(current), 'expire', day);
      if (decision.allowed) {
        [current] = (await tx
          .update(subscription)
          .set({ instStatusCode: decision.to, resumeStatusCode: null, pendingPlanId: null, pendingPlanName: null, pendingChangeOn: null })
          .where(eq(subscription.id, current.id))
          .returning()) as [SubscriptionRow];
        await log(tx, { subscriptionId: current.id, actor: 'system', userId: null, kind: 'expired', from: row.instStatusCode, to: decision.to, details: { on: row.currentPeriodEnd } });
      }
    }
    if (current.pendingPlanId && current.pendingChangeOn && current.pendingChangeOn <= day && hasAccess(current)) {
      const next = await findPlan(tx, current.pendingPlanId);
      if (next) {
        const fromPlanName = current.planName;
        const from = current.instStatusCode;
        const to = from === instStatusCodes.TRIAL ? instStatusCodes.ACTIVE : from;
        [current] = (await tx
          .update(subscription)
          .set({
            ...planColumns(next, current.pendingChangeOn),
            instStatusCode: to,
            currentPeriodEnd: addMonths(current.pendingChangeOn, billingPeriodMonths[next.billingPeriod]),
            pendingPlanId: null,
            pendingPlanName: null,
            pendingChangeOn: null,
          })
          .where(eq(subscription.id, current.id))
          .returning()) as [SubscriptionRow];
        await log(tx, { subscriptionId: current.id, actor: 'system', userId: null, kind: 'planChanged', from, to, details: { fromPlanName, planName: next.name, billingPeriod: next.billingPeriod } });
      }
    }
    return current;
  }

  /** The caller's own subscription at the title, locked for the rest of the transaction; 404 otherwise. */
  async function lockOwn(tx: Tx, userId: string, ariaAccountNo: number, titleCode: string): Promise<SubscriptionRow> {
    const [owned] = await tx
      .select({ id: subscription.id })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .where(and(eq(account.userId, userId), eq(subscription.ariaAccountNo, ariaAccountNo), eq(subscription.titleCode, titleCode.toUpperCase())));
    if (!owned) throw notFound();
    const [row] = await tx.select().from(subscription).where(eq(subscription.id, owned.id)).for('update');
    if (!row) throw notFound();
    return settle(tx, row);
  }

  function require(row: SubscriptionRow, event: LifecycleEvent) {
    const decision = decideTransition(lifecycleView(row), event, today());
    if (!decision.allowed) throw new AppError(409, decision.code, decision.message);
    return decision.to;
  }

  function planColumns(plan: Plan, day: string) {
    return {
      ariaPlanId: plan.ariaPlanID,
      planName: plan.name,
      planProductType: plan.planProductType,
      billingPeriod: plan.billingPeriod,
      priceOre: priceOn(plan, day),
      // A new plan is at its own price: an introductory offer was for the plan it was bought with.
      introPriceOre: null,
      introMonths: null,
      introEndsOn: null,
      features: plan.features,
    };
  }

  async function offerUsed(tx: Pick<Db, 'select'>, subscriptionId: string): Promise<boolean> {
    const [used] = await tx.select({ id: retentionOfferAcceptance.subscriptionId }).from(retentionOfferAcceptance).where(eq(retentionOfferAcceptance.subscriptionId, subscriptionId));
    return used !== undefined;
  }

  async function offerFor(tx: Pick<Db, 'select'>, row: SubscriptionRow): Promise<RetentionOffer | null> {
    if (!decideTransition(lifecycleView(row), 'acceptRetentionOffer', today()).allowed) return null;
    const plans = (await soldPlans(tx, row.titleCode)).map((plan) => ({ ...plan, priceOre: priceOn(plan, today()) }));
    return chooseRetentionOffer({ ...classifiable(row), offerUsed: await offerUsed(tx, row.id) }, plans);
  }

  function reasonLabel(body: Pick<DeleteSubscriptionBody, 'reasonCode' | 'reasonText'>): string {
    return body.reasonCode === 'OTHER' && body.reasonText ? `${cancellationReasons.OTHER}: ${body.reasonText}` : cancellationReasons[body.reasonCode];
  }

  return {
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
          const logged = await log(tx, { subscriptionId: row.id, actor, userId: user.id, kind: 'cancelled', from: row.instStatusCode, to, details: { on: row.currentPeriodEnd, reason: reasonLabel(body) } });
          // An invoice already issued for the period after the access ends is credited once this commits; the confirmation says so.
          if (confirm) await mails.cancelled(tx, { subscriptionId: row.id, ...logged, nextInvoices: await invoices.toCreditOnCancel(tx, row, row.currentPeriodEnd, today()) });
          cancelled = row.id;
        } else {
          if (!body.offerCode) throw new AppError(400, errorCodes.validation, cancellationMessages.offerRequired);
          require(row, 'acceptRetentionOffer');
          if (await offerUsed(tx, row.id)) throw new AppError(409, cancellationErrorCodes.offerUsed, retentionMessages.offerUsed);
          const offer = await offerFor(tx, row);
          if (!offer || offer.code !== body.offerCode) throw new AppError(409, cancellationErrorCodes.offerUnavailable, retentionMessages.offerUnavailable);
          const [accepted] = await tx
            .insert(retentionOfferAcceptance)
            .values({ subscriptionId: row.id, offerCode: offer.code, acceptedAt: now() })
            .onConflictDoNothing()
            .returning();
          if (!accepted) throw new AppError(409, cancellationErrorCodes.offerUsed, retentionMessages.offerUsed);
          if (offer.code === 'WINBACK_3_FOR_1') {
            const periodEnd = addMonths(row.currentPeriodEnd, WINBACK_FREE_MONTHS);
            await tx.update(subscription).set({ currentPeriodEnd: periodEnd }).where(eq(subscription.id, row.id));
            const accepted = await log(tx, { subscriptionId: row.id, actor, userId: user.id, kind: 'retentionOfferAccepted', details: { offer: offer.headline, on: periodEnd } });
            await mails.retentionOfferAccepted(tx, { subscriptionId: row.id, ...accepted, headline: offer.headline, plan: null, from: periodEnd });
          } else if (offer.plan) {
            await tx
              .update(subscription)
              .set({ pendingPlanId: offer.plan.ariaPlanID, pendingPlanName: offer.plan.name, pendingChangeOn: row.currentPeriodEnd })
              .where(eq(subscription.id, row.id));
            const accepted = await log(tx, { subscriptionId: row.id, actor, userId: user.id, kind: 'retentionOfferAccepted', details: { offer: offer.headline } });
            await log(tx, { subscriptionId: row.id, actor, userId: user.id, kind: 'planChangeScheduled', details: { planName: offer.plan.name, billingPeriod: offer.plan.billingPeriod, on: row.currentPeriodEnd } });
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
          .set({ ...planColumns(plan, day), instStatusCode: decision.to, currentPeriodEnd: periodEnd, cancelledAt: null, resumeStatusCode: null, pendingPlanId: null, pendingPlanName: null, pendingChangeOn: null })
          .where(eq(subscription.id, row.id));
        const reactivated = await log(tx, { subscriptionId: row.id, actor: 'self', userId: user.id, kind: 'reactivated', from: row.instStatusCode, to: decision.to, details: { planName: plan.name, on: periodEnd } });
        await mails.reactivated(tx, { subscriptionId: row.id, ...reactivated });
        // The access given today is billed today, in this transaction: the renewal run bills only the
        // periods after this one, so without it the first period would never be billed.
        return billPeriod(tx, row.id, day);
      });
      return { result: 'ok', message: reactivationResults.ok.message, subscription: await accounts.getOwnSubscription(user.id, ariaAccountNo, titleCode), invoice };
    },

    /** GET …/plans: every plan the title sells, with what a switch would cost and whether it is open to this subscriber. */
    async planOptions(user: SessionUser, ariaAccountNo: number, titleCode: string): Promise<PlanOption[]> {
      const row = await db.transaction(async (tx) => lockOwn(tx, user.id, ariaAccountNo, titleCode));
      const day = today();
      const transition = decideTransition(lifecycleView(row), 'changePlan', day);
      const plans = await soldPlans(db, row.titleCode);
      return plans.map((plan) => {
        const priced = { ...plan, priceOre: priceOn(plan, day) };
        const quote = quotePlanChange({ ...row, ariaPlanID: row.ariaPlanId }, priced, day);
        const eligibility = planEligibility(plan, user.birthdate, day);
        const unavailable = !transition.allowed
          ? { code: transition.code, message: transition.message }
          : !eligibility.eligible
            ? { code: eligibility.code, message: eligibility.message }
            : null;
        return { plan: priced, quote, unavailable };
      });
    },

    /** POST …/plan: upgrade at once with a prorated charge, downgrade from the period end. */
    async changePlan(user: SessionUser, ariaAccountNo: number, titleCode: string, ariaPlanID: string): Promise<ChangePlanResponse> {
      const day = today();
      const result = await db.transaction(async (tx) => {
        const row = await lockOwn(tx, user.id, ariaAccountNo, titleCode);
        const to = require(row, 'changePlan');
        const plan = (await soldPlans(tx, row.titleCode)).find((candidate) => candidate.ariaPlanID === ariaPlanID);
        if (!plan) throw new AppError(400, planErrorCodes.unknownPlan, planMessages.unknownPlan);
        const eligibility = planEligibility(plan, user.birthdate, day);
        if (!eligibility.eligible) throw new AppError(409, eligibility.code, eligibility.message);
        const priced = { ...plan, priceOre: priceOn(plan, day) };
        const quote = quotePlanChange({ ...row, ariaPlanID: row.ariaPlanId }, priced, day);
        const wasCancelled = row.instStatusCode === instStatusCodes.PENDING_CANCELLATION;
        const restart = wasCancelled ? { instStatusCode: to, cancelledAt: null, resumeStatusCode: null } : {};
        const self = { subscriptionId: row.id, actor: 'self' as const, userId: user.id };
        const undone = wasCancelled ? await log(tx, { ...self, kind: 'cancellationUndone', from: row.instStatusCode, to }) : null;

        if (quote.kind === 'current') {
          if (!row.pendingPlanId && !wasCancelled) throw new AppError(409, planErrorCodes.samePlan, planMessages.samePlan);
          await tx.update(subscription).set({ ...restart, pendingPlanId: null, pendingPlanName: null, pendingChangeOn: null }).where(eq(subscription.id, row.id));
          if (row.pendingPlanName) {
            const withdrawn = await log(tx, { ...self, kind: 'planChangeWithdrawn', details: { planName: row.pendingPlanName } });
            await mails.planChanged(tx, { subscriptionId: row.id, ...withdrawn, change: { kind: 'withdrawn', withdrawnPlanName: row.pendingPlanName, undidCancellation: wasCancelled } });
          } else if (undone) {
            await mails.cancellationUndone(tx, { subscriptionId: row.id, ...undone });
          }
        } else if (quote.kind === 'upgrade') {
          await tx
            .update(subscription)
            .set({
              ...restart,
              ...planColumns(plan, day),
              instStatusCode: to,
              maxMembers: plan.features.familySharing ? Math.max(row.maxMembers, 4) : row.maxMembers,
              pendingPlanId: null,
              pendingPlanName: null,
              pendingChangeOn: null,
            })
            .where(eq(subscription.id, row.id));
          let topUp: { ariaInvoiceNo: number; dueOn: string } | null = null;
          if (quote.amountOre > 0) {
            const dueOn = addDays(day, 14);
            const issued = await invoices.insert(tx, catalogue, row.titleCode, {
              ariaAccountNo: row.ariaAccountNo,
              subscriptionId: row.id,
              amountOre: quote.amountOre,
              description: invoiceLineDescription({ planName: plan.name, periodFrom: day, periodTo: row.currentPeriodEnd, note: `mellomlegg ved bytte fra ${row.planName}` }),
              periodFrom: day,
              periodTo: row.currentPeriodEnd,
              dueOn,
            }, now());
            topUp = { ariaInvoiceNo: issued.ariaInvoiceNo, dueOn };
          }
          const changed = await log(tx, { ...self, kind: 'planChanged', from: row.instStatusCode, to, details: { fromPlanName: row.planName, planName: plan.name, billingPeriod: plan.billingPeriod, amountOre: quote.amountOre } });
          await mails.planChanged(tx, { subscriptionId: row.id, ...changed, change: { kind: 'upgrade', fromPlanName: row.planName, plan, amountOre: quote.amountOre, invoice: topUp, undidCancellation: wasCancelled } });
        } else {
          await tx
            .update(subscription)
            .set({ ...restart, pendingPlanId: plan.ariaPlanID, pendingPlanName: plan.name, pendingChangeOn: quote.effectiveOn })
            .where(eq(subscription.id, row.id));
          const scheduled = await log(tx, { ...self, kind: 'planChangeScheduled', details: { planName: plan.name, billingPeriod: plan.billingPeriod, on: quote.effectiveOn } });
          await mails.planChanged(tx, { subscriptionId: row.id, ...scheduled, change: { kind: quote.kind, fromPlanName: row.planName, plan, effectiveOn: quote.effectiveOn, undidCancellation: wasCancelled } });
        }
        return { quote, plan: priced, fromPlanName: row.planName };
      });
      return { ...result, subscription: await accounts.getOwnSubscription(user.id, ariaAccountNo, titleCode) };
    },

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

    /** The job's part: every subscription whose period end has decided something, settled. Returns how many. */
    async settleDue(): Promise<number> {
      const day = today();
      const due = await db
        .select({ id: subscription.id })
        .from(subscription)
        .where(
          or(
            and(inArray(subscription.instStatusCode, [instStatusCodes.PENDING_CANCELLATION, instStatusCodes.PENDING_TERMINATION]), lte(subscription.currentPeriodEnd, day)),
            and(isNotNull(subscription.pendingChangeOn), lte(subscription.pendingChangeOn, day)),
          ),
        );
      for (const { id } of due) {
        await db.transaction(async (tx) => {
          const [row] = await tx.select().from(subscription).where(eq(subscription.id, id)).for('update');
          if (row) await settle(tx, row);
        });
      }
      return due.length;
    },
  };
}

export type LifecycleService = ReturnType<typeof createLifecycleService>;
