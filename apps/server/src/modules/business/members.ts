import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, gt, inArray, ne } from 'drizzle-orm';
import {
  BUSINESS_INVITATION_RESEND_MINUTES,
  BUSINESS_INVITE_BATCH_LIMIT,
  businessErrorCodes,
  businessInviteMessages,
  businessMessages,
  businessRemovalMessages,
  classifyInvitations,
  instStatusCodes,
  matchesMemberSearch,
  osloToday,
  splitEmailList,
  type BusinessInvitationActionResponse,
  type BusinessInviteItem,
  type BusinessInviteResponse,
  type BusinessMember,
  type BusinessRemoveItem,
  type BusinessRemoveResponse,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, mailOutbox, subscription, subscriptionChange, subscriptionMember } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';
import { voidCodesSentTo } from '../../lib/one-time-code.ts';
import { accessOn } from '../subscription/index.ts';
import { lockOwner, members, overviewOf, refuse, toMember, WITHDRAWN, type AdminContext, type MemberRow } from './company-record.ts';

/**
 * The admin's side of a company subscription (SPEC §5, §6; issue 25.15): inviting colleagues in
 * bulk within the seat limit, resending and withdrawing an invitation, removing members in bulk,
 * and the list as CSV. Apart from the employee's side (verification.ts), which proves an address
 * and takes a seat; both hold the company's row locked while they count seats.
 */
export function createBusinessMembers({ db, mailer, now, log }: { db: Db; mailer: Mailer; now: () => Date; log: FastifyBaseLogger }) {
  const today = () => osloToday(now());

  /** The invitation e-mail, into the outbox in the caller's transaction (a first invitation and a resend alike). */
  async function mailInvitation(tx: Tx, ctx: AdminContext, email: string, origin: string): Promise<void> {
    const adminName = `${ctx.user.givenName} ${ctx.user.familyName}`.trim() || ctx.user.email;
    await mailer.enqueue(tx, {
      to: email,
      title: ctx.title,
      kind: 'businessInvitation',
      ...titleMail(ctx.title, {
        subject: `Du har fått tilgang til ${ctx.title.name} gjennom jobben`,
        heading: 'Du har fått tilgang gjennom jobben',
        paragraphs: [
          'Hei!',
          `${adminName} har gitt deg tilgang til ${ctx.title.name} gjennom bedriftsabonnementet for ${ctx.companyDomain}.`,
          'Logg inn på Min Side (eller lag en bruker), og bekreft jobb-e-postadressen din med en kode vi sender deg.',
        ],
        action: { label: 'Bekreft jobb-e-posten', url: `${origin}/bedrift?epost=${encodeURIComponent(email)}` },
      }),
    });
  }

  /** A pending invitation of the admin's company, under the company's lock; 404 for anything else (another company's too), 409 once taken up. */
  async function pendingInvitation(tx: Tx, ctx: AdminContext, id: string): Promise<MemberRow> {
    const owner = await lockOwner(tx, ctx.subscriptionId);
    const [row] = await tx
      .select()
      .from(subscriptionMember)
      .where(and(eq(subscriptionMember.id, id), eq(subscriptionMember.subscriptionId, owner.id), eq(subscriptionMember.kind, 'business'), ne(subscriptionMember.status, WITHDRAWN)));
    if (!row) throw refuse(404, businessErrorCodes.invitationNotFound, businessMessages.invitationNotFound);
    if (row.status === 'active') throw refuse(409, businessErrorCodes.invitationNotPending, businessMessages.invitationNotPending);
    return row;
  }

  return {
    /** The list as CSV, filtered like the page's search field. */
    async exportCsvRows(ctx: AdminContext, query: string | undefined): Promise<BusinessMember[]> {
      return (await members(db, ctx.subscriptionId)).map(toMember).filter((member) => matchesMemberSearch(member, query ?? ''));
    },

    /**
     * POST /api/business/invitations: SPEC §5 for a pasted list. The valid new addresses of
     * the company's domain are invited while seats last; every other one is named with why.
     * The company's row is locked, so two pastes at once cannot pass the seat limit together.
     */
    async invite(ctx: AdminContext, text: string, origin: string): Promise<BusinessInviteResponse> {
      const entries = splitEmailList(text);
      if (entries.length === 0) throw refuse(400, businessErrorCodes.emptyList, businessMessages.emptyList);
      if (entries.length > BUSINESS_INVITE_BATCH_LIMIT) throw refuse(400, businessErrorCodes.listTooLong, businessMessages.listTooLong);
      const results = await db.transaction(async (tx) => {
        const owner = await lockOwner(tx, ctx.subscriptionId);
        const current = await members(tx, owner.id);
        const existing = new Set([...current.map((row) => row.email.toLowerCase()), ctx.user.email.toLowerCase()]);
        const classified = classifyInvitations(entries, { companyDomain: ctx.companyDomain, existing, remaining: Math.max(0, owner.maxMembers - current.length) });
        for (const item of classified.filter((entry) => entry.result === 'emailSent')) {
          // Invited again after a withdrawal: the same row (one per company and address) is pending again.
          const [again] = await tx
            .update(subscriptionMember)
            .set({ status: 'emailSent', invitedAt: now(), userId: null, acceptedAt: null })
            .where(and(eq(subscriptionMember.subscriptionId, owner.id), eq(subscriptionMember.kind, 'business'), eq(subscriptionMember.email, item.email), eq(subscriptionMember.status, WITHDRAWN)))
            .returning({ id: subscriptionMember.id });
          if (!again) await tx.insert(subscriptionMember).values({ id: randomUUID(), subscriptionId: owner.id, kind: 'business', email: item.email, status: 'emailSent', invitedAt: now() });
          await mailInvitation(tx, ctx, item.email, origin);
        }
        return classified;
      });
      await mailer.deliverPending();
      const items: BusinessInviteItem[] = results.map((item) => ({ ...item, message: businessInviteMessages[item.result] }));
      const sentCount = items.filter((item) => item.result === 'emailSent').length;
      return { results: items, sentCount, notSentCount: items.length - sentCount, overview: await overviewOf(db, ctx.subscriptionId) };
    },

    /**
     * POST /api/business/members/remove: each removal on its own savepoint, so one that fails
     * leaves the others done and is reported as failed (SPEC §8 "partial removal failure").
     * Removing an active employee ends their access at once.
     */
    async remove(ctx: AdminContext, ids: readonly string[]): Promise<BusinessRemoveResponse> {
      const unique = [...new Set(ids)];
      const day = today();
      const results = await db.transaction(async (tx) => {
        const owner = await lockOwner(tx, ctx.subscriptionId);
        const known = new Map(
          (
            await tx
              .select()
              .from(subscriptionMember)
              .where(and(inArray(subscriptionMember.id, unique), eq(subscriptionMember.subscriptionId, owner.id), eq(subscriptionMember.kind, 'business'), ne(subscriptionMember.status, WITHDRAWN)))
          ).map((row) => [row.id, row]),
        );
        const out: BusinessRemoveItem[] = [];
        for (const id of unique) {
          const member = known.get(id);
          if (!member) {
            out.push({ id, email: null, result: 'notExist', message: businessRemovalMessages.notExist });
            continue;
          }
          try {
            await tx.transaction(async (savepoint) => {
              if (member.userId) {
                const [access] = await savepoint
                  .select({ subscription })
                  .from(subscription)
                  .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
                  .where(and(eq(account.userId, member.userId), eq(subscription.sharedFromSubscriptionId, owner.id)));
                if (access && accessOn(access.subscription, day)) {
                  await savepoint.update(subscription).set({ instStatusCode: instStatusCodes.CANCELLED, currentPeriodEnd: day, cancelledAt: now() }).where(eq(subscription.id, access.subscription.id));
                  await savepoint.insert(subscriptionChange).values({
                    id: randomUUID(),
                    subscriptionId: access.subscription.id,
                    at: now(),
                    actor: 'system',
                    actorUserId: null,
                    kind: 'expired',
                    fromStatusCode: access.subscription.instStatusCode,
                    toStatusCode: instStatusCodes.CANCELLED,
                    details: { on: day },
                  });
                }
              }
              await savepoint.delete(subscriptionMember).where(eq(subscriptionMember.id, member.id));
            });
            out.push({ id, email: member.email, result: 'deleted', message: businessRemovalMessages.deleted });
          } catch (error) {
            log.error({ err: error, memberId: id }, 'could not remove a business member');
            out.push({ id, email: member.email, result: 'failed', message: businessRemovalMessages.failed });
          }
        }
        return out;
      });
      return { results, overview: await overviewOf(db, ctx.subscriptionId) };
    },

    /**
     * POST /api/business/invitations/{id}/resend (issue 25.15): the same invitation e-mail again,
     * through the outbox, at most once in BUSINESS_INVITATION_RESEND_MINUTES per invitation. The
     * outbox row of the last one is the evidence of when it went; the company's lock orders two clicks.
     */
    async resendInvitation(ctx: AdminContext, id: string, origin: string): Promise<BusinessInvitationActionResponse> {
      const email = await db.transaction(async (tx) => {
        const row = await pendingInvitation(tx, ctx, id);
        const since = new Date(now().getTime() - BUSINESS_INVITATION_RESEND_MINUTES * 60_000);
        const [recent] = await tx
          .select({ id: mailOutbox.id })
          .from(mailOutbox)
          .where(and(eq(mailOutbox.to, row.email), eq(mailOutbox.kind, 'businessInvitation'), gt(mailOutbox.createdAt, since)))
          .limit(1);
        if (recent) throw refuse(429, businessErrorCodes.invitationResendTooSoon, businessMessages.invitationResendTooSoon);
        await mailInvitation(tx, ctx, row.email, origin);
        return row.email;
      });
      await mailer.deliverPending();
      return { message: businessMessages.resent(email), overview: await overviewOf(db, ctx.subscriptionId) };
    },

    /**
     * DELETE /api/business/invitations/{id} (issue 25.15): the seat is free again, and the invitation's
     * link and any code sent to the address stop working (the row stays, withdrawn, until invited again).
     */
    async withdrawInvitation(ctx: AdminContext, id: string): Promise<BusinessInvitationActionResponse> {
      const email = await db.transaction(async (tx) => {
        const row = await pendingInvitation(tx, ctx, id);
        await tx.update(subscriptionMember).set({ status: WITHDRAWN }).where(eq(subscriptionMember.id, row.id));
        await voidCodesSentTo(tx, { purpose: 'business', email: row.email, now: now() });
        return row.email;
      });
      return { message: businessMessages.withdrawn(email), overview: await overviewOf(db, ctx.subscriptionId) };
    },
  };
}
