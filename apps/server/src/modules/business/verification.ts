import { randomUUID } from 'node:crypto';
import { and, asc, eq, ilike, inArray } from 'drizzle-orm';
import {
  businessErrorCodes,
  businessMessages,
  emailDomainOf,
  errorCodes,
  instStatusCodes,
  isValidEmail,
  osloToday,
  validationMessages,
  VERIFICATION_CODE_TTL_MINUTES,
  type BusinessConfirmResponse,
  type BusinessVerifyResponse,
  type Title,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, subscription, subscriptionChange, subscriptionMember } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';
import { claimCode, issueCode } from '../../lib/one-time-code.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { accessOn, accessWithOwnerOn, grantSubscription, lockSubscriptionAt, toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';
import { lockOwner, members, refuse, WITHDRAWN, type MemberRow, type SubscriptionRow } from './company-record.ts';

export interface BusinessVerificationDeps {
  db: Db;
  mailer: Mailer;
  accounts: AccountService;
  now: () => Date;
  identityProviderName: string;
}

/**
 * The employee's side of a company subscription (SPEC §2 /bedrift): a code to a work address of
 * the company's domain, and the confirmed code gives a non-billable subscription under the
 * company's (docs/decisions/011-business-and-student.md). Apart from the admin's side
 * (members.ts): here the caller is anyone signed in, and the company is found by the address.
 */
export function createBusinessVerification({ db, mailer, accounts, now, identityProviderName }: BusinessVerificationDeps) {
  const today = () => osloToday(now());

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
      .where(
        and(
          inArray(
            subscriptionMember.subscriptionId,
            owners.map((row) => row.id),
          ),
          eq(subscriptionMember.kind, 'business'),
          eq(subscriptionMember.email, email),
        ),
      );
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
            paragraphs: [`Hei ${user.givenName}!`, `Bruk denne koden for å bekrefte jobb-e-postadressen din og få tilgang til ${title.name} gjennom bedriftsabonnementet:`, issued.code],
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
