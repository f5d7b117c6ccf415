import type { z } from 'zod';
import { titleMail } from '../../integrations/mail/templates.ts';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, desc, eq, gt, ilike, inArray, ne } from 'drizzle-orm';
import {
  BUSINESS_INVITATION_RESEND_MINUTES,
  BUSINESS_INVITE_BATCH_LIMIT,
  businessErrorCodes,
  businessInviteMessages,
  businessMessages,
  businessRemovalMessages,
  classifyInvitations,
  emailDomainOf,
  errorCodes,
  instStatusCodes,
  isBusinessAdmin,
  isValidEmail,
  matchesMemberSearch,
  osloToday,
  splitEmailList,
  validationMessages,
  VERIFICATION_CODE_TTL_MINUTES,
  type BusinessConfirmResponse,
  type BusinessInvitationActionResponse,
  type BusinessInviteItem,
  type BusinessInviteResponse,
  type BusinessMember,
  type BusinessOverview,
  type BusinessRemoveItem,
  type BusinessRemoveResponse,
  type BusinessVerifyResponse,
  type EinvoiceRecipient,
  type einvoiceRecipientBodySchema,
  type Title,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, einvoiceRecipient, mailOutbox, subscription, subscriptionChange, subscriptionMember } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { claimCode, issueCode, voidCodesSentTo } from '../../lib/one-time-code.ts';
import type { SignedInSubscriber } from '../auth/index.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { accessOn, accessWithOwnerOn, grantSubscription, lockSubscriptionAt, toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';

export interface BusinessDeps {
  db: Db;
  mailer: Mailer;
  accounts: AccountService;
  now: () => Date;
  log: FastifyBaseLogger;
  identityProviderName: string;
}

type SubscriptionRow = typeof subscription.$inferSelect;
type MemberRow = typeof subscriptionMember.$inferSelect;

/** The admin's company subscription, as every admin call sees it. */
export interface AdminContext {
  user: SessionUser;
  title: Title;
  subscriptionId: string;
  companyDomain: string;
}

const refuse = (status: number, code: string, message: string) => new AppError(status, code, message);

/**
 * A withdrawn invitation keeps its row with this status (issue 25.15): it holds no seat and is not
 * listed, but the address can no longer prove itself for the company until the admin invites it
 * again — the e-mailed link and any code sent for it stop working.
 */
const WITHDRAWN = 'withdrawn';

function toMember(row: MemberRow): BusinessMember {
  return { id: row.id, email: row.email, addedAt: row.invitedAt.toISOString(), status: row.status === 'active' ? 'active' : 'emailSent' };
}

/**
 * Business subscriptions (SPEC §2 /bedrift and /administrer-bedrift, §6 roles): the admin
 * invites colleagues of the company's domain in bulk, within the seat limit, and removes
 * them in bulk; an employee proves a work address of that domain with a code and gets access
 * under the company's subscription (docs/decisions/011-business-and-student.md).
 */
export function createBusinessService({ db, mailer, accounts, now, log, identityProviderName }: BusinessDeps) {
  const today = () => osloToday(now());

  async function members(tx: Tx | Db, subscriptionId: string): Promise<MemberRow[]> {
    return tx
      .select()
      .from(subscriptionMember)
      .where(and(eq(subscriptionMember.subscriptionId, subscriptionId), eq(subscriptionMember.kind, 'business'), ne(subscriptionMember.status, WITHDRAWN)))
      .orderBy(desc(subscriptionMember.invitedAt), asc(subscriptionMember.email));
  }

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

  async function overviewOf(tx: Tx | Db, subscriptionId: string): Promise<BusinessOverview> {
    const [owner] = await tx.select().from(subscription).where(eq(subscription.id, subscriptionId));
    const rows = await members(tx, subscriptionId);
    const maxMembers = owner?.maxMembers ?? 0;
    return { companyDomain: owner?.companyDomain ?? '', maxMembers, used: rows.length, remaining: Math.max(0, maxMembers - rows.length), members: rows.map(toMember) };
  }

  async function lockOwner(tx: Tx, subscriptionId: string): Promise<SubscriptionRow> {
    const [row] = await tx.select().from(subscription).where(eq(subscription.id, subscriptionId)).for('update');
    if (!row) throw refuse(409, businessErrorCodes.error, businessMessages.error);
    return row;
  }

  /** The company subscription at the title for a work address's domain, preferring one that invited this very address. */
  async function companyFor(tx: Tx | Db, titleCode: string, email: string): Promise<{ owner: SubscriptionRow; invitation: MemberRow | undefined } | undefined> {
    const owners = (
      await tx
        .select()
        .from(subscription)
        .where(and(eq(subscription.titleCode, titleCode), eq(subscription.companyDomain, emailDomainOf(email)), ilike(subscription.subscriptionInfo1, '%admin%')))
        .orderBy(asc(subscription.createdAt))
    ).filter((row) => accessOn(row, today()));
    if (owners.length === 0) return undefined;
    const invitations = await tx
      .select()
      .from(subscriptionMember)
      .where(and(inArray(subscriptionMember.subscriptionId, owners.map((row) => row.id)), eq(subscriptionMember.kind, 'business'), eq(subscriptionMember.email, email)));
    const invited = owners.find((row) => invitations.some((invitation) => invitation.subscriptionId === row.id));
    const owner = invited ?? owners[0];
    if (!owner) return undefined;
    return { owner, invitation: invitations.find((invitation) => invitation.subscriptionId === owner.id) };
  }

  /** SPEC §8 "already a subscriber (must cancel first)". */
  async function refuseSubscriber(tx: Tx | Db, userId: string, titleCode: string): Promise<void> {
    const [row] = await tx
      .select({ subscription })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .where(and(eq(account.userId, userId), eq(subscription.titleCode, titleCode)));
    if (row && (await accessWithOwnerOn(tx, row.subscription, today()))) throw refuse(409, businessErrorCodes.alreadySubscriber, businessMessages.alreadySubscriber);
  }

  /** The address is someone else's already, or the company has no seat left for a new one. */
  async function refuseSeat(tx: Tx | Db, company: { owner: SubscriptionRow; invitation: MemberRow | undefined }, userId: string): Promise<void> {
    const { owner, invitation } = company;
    if (invitation?.status === WITHDRAWN) throw refuse(409, businessErrorCodes.invitationWithdrawn, businessMessages.invitationWithdrawn);
    if (invitation?.status === 'active' && invitation.userId !== userId) throw refuse(409, businessErrorCodes.userExist, businessMessages.userExist);
    if (invitation) return;
    const used = (await members(tx, owner.id)).length;
    if (used >= owner.maxMembers) throw refuse(409, businessErrorCodes.maxUsersReached, businessMessages.maxUsersReached);
  }

  function workEmailOf(raw: string): string {
    const email = raw.trim().toLowerCase();
    if (!isValidEmail(email)) throw refuse(400, errorCodes.validation, validationMessages.invalidEmail);
    return email;
  }

  return {
    /** The admin's company subscription at this title; 403 for everyone else (SPEC §6: admins manage invited e-mails). */
    async adminContext({ user, title, subscription: own }: SignedInSubscriber): Promise<AdminContext> {
      if (!own || !own.companyDomain || !isBusinessAdmin(own) || !accessOn(own, today())) {
        throw refuse(403, businessErrorCodes.notAdmin, businessMessages.notAdmin);
      }
      return { user, title, subscriptionId: own.id, companyDomain: own.companyDomain };
    },

    overview: (ctx: AdminContext) => overviewOf(db, ctx.subscriptionId),

    /** GET /api/business/einvoice: where the company's EHF invoices go, or null (paper or PDF by e-mail). */
    async einvoice(ctx: AdminContext): Promise<EinvoiceRecipient | null> {
      const [row] = await db.select().from(einvoiceRecipient).where(eq(einvoiceRecipient.subscriptionId, ctx.subscriptionId));
      return row ? { organizationNumber: row.organizationNumber, companyName: row.companyName, street: row.street, postalCode: row.postalCode, town: row.town, reference: row.reference } : null;
    },

    /**
     * PUT /api/business/einvoice: invoices issued from now on are addressed to the company as EHF
     * (issue 23); those already issued stay as they were issued.
     */
    async setEinvoice(ctx: AdminContext, body: z.output<typeof einvoiceRecipientBodySchema>): Promise<EinvoiceRecipient> {
      const values = { ...body, reference: body.reference ?? null, updatedAt: now() };
      await db.insert(einvoiceRecipient).values({ subscriptionId: ctx.subscriptionId, ...values }).onConflictDoUpdate({ target: einvoiceRecipient.subscriptionId, set: values });
      return { organizationNumber: values.organizationNumber, companyName: values.companyName, street: values.street, postalCode: values.postalCode, town: values.town, reference: values.reference };
    },

    /** DELETE /api/business/einvoice: back to invoices by e-mail. */
    async clearEinvoice(ctx: AdminContext): Promise<void> {
      await db.delete(einvoiceRecipient).where(eq(einvoiceRecipient.subscriptionId, ctx.subscriptionId));
    },

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
          (await tx.select().from(subscriptionMember).where(and(inArray(subscriptionMember.id, unique), eq(subscriptionMember.subscriptionId, owner.id), eq(subscriptionMember.kind, 'business'), ne(subscriptionMember.status, WITHDRAWN)))).map((row) => [row.id, row]),
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

    /**
     * POST /api/business/verification: a code to the work address, if a company at this title
     * has that domain, the user has no subscription here yet, and there is a seat (or an
     * invitation) for the address. A refusal sends nothing and stores nothing.
     */
    async startVerification(user: SessionUser, title: Title, rawEmail: string): Promise<BusinessVerifyResponse> {
      const email = workEmailOf(rawEmail);
      const company = await companyFor(db, title.titleCode, email);
      if (!company) throw refuse(400, businessErrorCodes.invalidEmail, businessMessages.invalidEmail);
      await refuseSubscriber(db, user.id, title.titleCode);
      await refuseSeat(db, company, user.id);
      const expiresAt = await db.transaction(async (tx) => {
        const issued = await issueCode(tx, { purpose: 'business', userId: user.id, email, now: now() });
        await mailer.enqueue(tx, {
          to: email,
          title,
          kind: 'businessCode',
          ...titleMail(title, {
            subject: `Koden din for bedriftsabonnement på ${title.name}`,
            heading: 'Koden din',
            paragraphs: [
              `Hei ${user.givenName}!`,
              `Bruk denne koden for å bekrefte jobb-e-postadressen din og få tilgang til ${title.name} gjennom bedriftsabonnementet:`,
              issued.code,
            ],
            footnotes: [`Koden virker i ${VERIFICATION_CODE_TTL_MINUTES} minutter. Har du ikke bedt om den, kan du se bort fra e-posten.`],
          }),
        });
        return issued.expiresAt;
      });
      await mailer.deliverPending();
      return { email, companyDomain: emailDomainOf(email), expiresAt: expiresAt.toISOString() };
    },

    /** POST /api/business/verification/confirm: the right code gives access under the company's subscription. */
    async confirmVerification(user: SessionUser, title: Title, rawEmail: string, code: string): Promise<BusinessConfirmResponse> {
      const email = workEmailOf(rawEmail);
      const day = today();
      const outcome = await db.transaction(async (tx) => {
        const claim = await claimCode(tx, { purpose: 'business', userId: user.id, email, code, now: now() });
        if (claim.status !== 'ok') return claim;
        const found = await companyFor(tx, title.titleCode, email);
        if (!found) throw refuse(400, businessErrorCodes.invalidEmail, businessMessages.invalidEmail);
        const owner = await lockOwner(tx, found.owner.id);
        const company = { owner, invitation: found.invitation };
        // A share whose owner's access is over is ended first: it no longer stands in the way.
        const current = await lockSubscriptionAt(tx, user.id, title.titleCode, now());
        if (current && accessOn(current, day)) throw refuse(409, businessErrorCodes.alreadySubscriber, businessMessages.alreadySubscriber);
        await refuseSeat(tx, company, user.id);
        const { row, previous } = await grantSubscription(tx, {
          userId: user.id,
          titleCode: title.titleCode,
          today: day,
          at: now(),
          values: {
            ariaPlanId: owner.ariaPlanId,
            planName: owner.planName,
            planProductType: owner.planProductType,
            eligibleForSharing: true,
            instStatusCode: instStatusCodes.ACTIVE_NON_BILLABLE,
            subscriptionInfo1: 'employee',
            billingPeriod: owner.billingPeriod,
            priceOre: 0,
            paymentMethod: 'NONE',
            features: owner.features,
            startedOn: day,
            currentPeriodEnd: owner.currentPeriodEnd,
            sharedFromSubscriptionId: owner.id,
            companyDomain: owner.companyDomain,
            maxMembers: 0,
          },
        });
        if (company.invitation) {
          await tx.update(subscriptionMember).set({ status: 'active', userId: user.id, acceptedAt: now() }).where(eq(subscriptionMember.id, company.invitation.id));
        } else {
          await tx.insert(subscriptionMember).values({ id: randomUUID(), subscriptionId: owner.id, kind: 'business', email, status: 'active', userId: user.id, invitedAt: now(), acceptedAt: now() });
        }
        await tx.insert(subscriptionChange).values({
          id: randomUUID(),
          subscriptionId: row.id,
          at: now(),
          actor: 'self',
          actorUserId: user.id,
          kind: previous ? 'reactivated' : 'started',
          fromStatusCode: previous?.instStatusCode ?? null,
          toStatusCode: instStatusCodes.ACTIVE_NON_BILLABLE,
          details: { planName: owner.planName },
        });
        return { status: 'ok' as const };
      });
      if (outcome.status === 'wrong' && outcome.attemptsLeft > 0) throw refuse(400, businessErrorCodes.codeWrong, businessMessages.codeWrong);
      if (outcome.status !== 'ok') throw refuse(400, businessErrorCodes.invalidCode, businessMessages.invalidCode);
      const accountRow = await accounts.accountOf(user.id);
      return {
        user: toUserDto(user, identityProviderName),
        account: accountRow ? toAccountDto(accountRow, user, identityProviderName) : null,
        subscription: accountRow ? await accounts.subscriptionForTitle(accountRow, title.titleCode) : null,
      };
    },
  };
}

export type BusinessService = ReturnType<typeof createBusinessService>;
