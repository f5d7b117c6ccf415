import { and, count, eq } from 'drizzle-orm';
import { instStatusCodes, osloToday, tasksFor, type HomeOverview, type Subscription } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { subscriptionMember } from '../../db/schema.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { BillingService } from '../billing/index.ts';
import type { DeliveryService } from '../delivery/index.ts';
import type { SignedInSubscriber } from '../auth/index.ts';

export interface HomeOverviewDeps {
  db: Db;
  delivery: Pick<DeliveryService, 'contextOf' | 'addressOverview' | 'listChanges'>;
  billing: Pick<BillingService, 'openInvoicesOf' | 'paymentMethodFor'>;
  now: () => Date;
}

/**
 * The facts of the home page in one answer (issue 25.10): each area's own service reads its
 * part for the subscription read once here, and only the parts the subscriber's tasks call for
 * are read at all (no delivery for digital, no money for a family member). The parts run side
 * by side; none reads per invoice or per change.
 */
export function createHomeOverviewService(deps: HomeOverviewDeps) {
  const { db, delivery, billing, now } = deps;

  async function deliveryFacts(user: SessionUser, sub: Subscription): Promise<HomeOverview['delivery']> {
    const ctx = delivery.contextOf(user, sub);
    const [address, changes] = await Promise.all([delivery.addressOverview(ctx), delivery.listChanges(ctx)]);
    const nextChange = [...changes].sort((a, b) => a.firstIssue.localeCompare(b.firstIssue))[0] ?? null;
    return { address: address.current, nextChange };
  }

  async function paymentFacts(sub: Subscription): Promise<HomeOverview['payment']> {
    const [method, open] = await Promise.all([billing.paymentMethodFor(sub), billing.openInvoicesOf(sub)]);
    return { method: method.method, avtaleGiroStatus: method.avtaleGiro?.status ?? null, ...open };
  }

  async function pendingInvitationsOf(sub: Subscription): Promise<number> {
    const [row] = await db
      .select({ pending: count() })
      .from(subscriptionMember)
      .where(and(eq(subscriptionMember.subscriptionId, sub.id), eq(subscriptionMember.status, 'emailSent')));
    return row?.pending ?? 0;
  }

  return {
    /** GET /api/overview: the signed-in subscriber's subscription on this title; 404 without one. */
    async overview({ user, subscription: sub }: SignedInSubscriber): Promise<HomeOverview> {
      if (!sub) throw notFound();
      const tasks = tasksFor(sub, osloToday(now()));
      const [deliveryPart, payment, pendingInvitations] = await Promise.all([
        tasks.includes('deliveryAddress') ? deliveryFacts(user, sub) : null,
        // A trial pays nothing yet (SPEC §4), but what it will pay and how is exactly what its subscriber wonders about.
        tasks.includes('invoices') || (sub.instStatusCode === instStatusCodes.TRIAL && !sub.sharedFrom) ? paymentFacts(sub) : null,
        tasks.includes('familySharing') || tasks.includes('businessAdmin') ? pendingInvitationsOf(sub) : 0,
      ]);
      return { delivery: deliveryPart, payment, pendingInvitations };
    },
  };
}

export type HomeOverviewService = ReturnType<typeof createHomeOverviewService>;
