import {
  addDays,
  decideTransition,
  instStatusCodes,
  invoiceLineDescription,
  osloToday,
  planEligibility,
  planErrorCodes,
  planMessages,
  priceOn,
  quotePlanChange,
  type ChangePlanResponse,
  type PlanOption,
} from '@minside/domain';
import { eq } from 'drizzle-orm';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { subscription } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SessionUser } from '../../plugins/session.ts';
// A type only: billing sits above this area and hands its invoice writing in (LifecycleDeps.invoices).
import type { insertInvoice } from '../billing/index.ts';
import type { ChangeMails } from './change-mails.ts';
import { lifecycleView, type LifecycleCore } from './lifecycle-core.ts';
import { soldPlans } from './plans.ts';
import type { AccountService } from './service.ts';

/** Changing plan (issue 4): the options with what a switch costs, an upgrade at once with a prorated top-up invoice, a downgrade from the period end. */
export interface PlanChangeDeps {
  db: Db;
  accounts: AccountService;
  catalogue: Catalogue;
  mails: ChangeMails;
  now: () => Date;
  core: Pick<LifecycleCore, 'log' | 'lockOwn' | 'require' | 'planColumns'>;
  insertInvoice: typeof insertInvoice;
}

export function createPlanChange(deps: PlanChangeDeps) {
  const { db, accounts, catalogue, mails, now, insertInvoice } = deps;
  const { log, lockOwn, require, planColumns } = deps.core;
  const today = () => osloToday(now());

  /** GET …/plans: every plan the title sells, with what a switch would cost and whether it is open to this subscriber. */
  async function planOptions(user: SessionUser, ariaAccountNo: number, titleCode: string): Promise<PlanOption[]> {
    const row = await db.transaction(async (tx) => lockOwn(tx, user.id, ariaAccountNo, titleCode));
    const day = today();
    const transition = decideTransition(lifecycleView(row), 'changePlan', day);
    const plans = await soldPlans(db, row.titleCode);
    return plans.map((plan) => {
      const priced = { ...plan, priceOre: priceOn(plan, day) };
      const quote = quotePlanChange({ ...row, ariaPlanID: row.ariaPlanId }, priced, day);
      const eligibility = planEligibility(plan, user.birthdate, day);
      const unavailable = !transition.allowed ? { code: transition.code, message: transition.message } : !eligibility.eligible ? { code: eligibility.code, message: eligibility.message } : null;
      return { plan: priced, quote, unavailable };
    });
  }

  /** POST …/plan: upgrade at once with a prorated charge, downgrade from the period end. */
  async function changePlan(user: SessionUser, ariaAccountNo: number, titleCode: string, ariaPlanID: string): Promise<ChangePlanResponse> {
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
        await tx
          .update(subscription)
          .set({ ...restart, pendingPlanId: null, pendingPlanName: null, pendingChangeOn: null })
          .where(eq(subscription.id, row.id));
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
          const issued = await insertInvoice(
            tx,
            catalogue,
            row.titleCode,
            {
              ariaAccountNo: row.ariaAccountNo,
              subscriptionId: row.id,
              amountOre: quote.amountOre,
              description: invoiceLineDescription({ planName: plan.name, periodFrom: day, periodTo: row.currentPeriodEnd, note: `mellomlegg ved bytte fra ${row.planName}` }),
              periodFrom: day,
              periodTo: row.currentPeriodEnd,
              dueOn,
            },
            now(),
          );
          topUp = { ariaInvoiceNo: issued.ariaInvoiceNo, dueOn };
        }
        const changed = await log(tx, {
          ...self,
          kind: 'planChanged',
          from: row.instStatusCode,
          to,
          details: { fromPlanName: row.planName, planName: plan.name, billingPeriod: plan.billingPeriod, amountOre: quote.amountOre },
        });
        await mails.planChanged(tx, {
          subscriptionId: row.id,
          ...changed,
          change: { kind: 'upgrade', fromPlanName: row.planName, plan, amountOre: quote.amountOre, invoice: topUp, undidCancellation: wasCancelled },
        });
      } else {
        await tx
          .update(subscription)
          .set({ ...restart, pendingPlanId: plan.ariaPlanID, pendingPlanName: plan.name, pendingChangeOn: quote.effectiveOn })
          .where(eq(subscription.id, row.id));
        const scheduled = await log(tx, { ...self, kind: 'planChangeScheduled', details: { planName: plan.name, billingPeriod: plan.billingPeriod, on: quote.effectiveOn } });
        await mails.planChanged(tx, {
          subscriptionId: row.id,
          ...scheduled,
          change: { kind: quote.kind, fromPlanName: row.planName, plan, effectiveOn: quote.effectiveOn, undidCancellation: wasCancelled },
        });
      }
      return { quote, plan: priced, fromPlanName: row.planName };
    });
    return { ...result, subscription: await accounts.getOwnSubscription(user.id, ariaAccountNo, titleCode) };
  }

  return { planOptions, changePlan };
}
