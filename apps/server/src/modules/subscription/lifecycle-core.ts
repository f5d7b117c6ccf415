import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, lte, or } from 'drizzle-orm';
import {
  addMonths,
  billingPeriodMonths,
  chooseRetentionOffer,
  decideTransition,
  hasAccess,
  instStatusCodes,
  osloToday,
  priceOn,
  type ChangeActor,
  type ChangeDetails,
  type ChangeKind,
  type LifecycleEvent,
  type Plan,
  type RetentionOffer,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, retentionOfferAcceptance, subscription, subscriptionChange } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import { findPlan, soldPlans } from './plans.ts';

export type SubscriptionRow = typeof subscription.$inferSelect;

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

/**
 * What every lifecycle call stands on (issue 4): the change log's entry, the caller's own row
 * locked and settled (what the period end already decided, written down), the transition rules'
 * verdict, and the retention offer. The job's `settleDue` settles the rows nobody touched.
 */
export function createLifecycleCore({ db, now }: { db: Db; now: () => Date }) {
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

  /** The job's part: every subscription whose period end has decided something, settled. Returns how many. */
  async function settleDue(): Promise<number> {
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
  }

  return { log, settle, lockOwn, require, planColumns, offerUsed, offerFor, settleDue };
}

export type LifecycleCore = ReturnType<typeof createLifecycleCore>;
