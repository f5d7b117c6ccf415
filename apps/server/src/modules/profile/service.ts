import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  emailChangeFormSchema,
  errorCodes,
  lockedFieldMessage,
  profileErrorCodes,
  profileErrorMessages,
  profileFormSchema,
  profileMessages,
  type ProfileResponse,
  type ProfileUpdateResponse,
  type SharingSummary,
} from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { account, appUser, emailChange, idpAccount, subscription, subscriptionMember } from '../../db/schema.ts';
import { verifyPassword } from '../../identity/provider/password.ts';
import { titleMail, type Mailer, type MailTitle } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, randomToken, type SessionUser } from '../../plugins/session.ts';
import { mainSubjectOf } from '../../identity/main-subject.ts';
import { toUserDto } from '../subscription/index.ts';
import { lockedChanges, recordSource, recordUserEdits, sourcesOf } from './provenance.ts';

/** A confirmation link is good for 24 hours. */
const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

export interface ProfileDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  identityProviderName: string;
  /** The embedded provider holds the password to re-authenticate with; an external issuer does not. */
  embeddedProvider: boolean;
  /** The main issuer's key (`OIDC_KEY`): the user's login with it is their account at the embedded provider. */
  mainIssuerKey: string;
  /** The title a portal URL belongs to: its mail carries the title's name and colours. */
  titleFor: (minsideUrl: string) => MailTitle;
}

function invalid(message: string, code: string = errorCodes.validation): AppError {
  return new AppError(400, code, message);
}

/**
 * SPEC §3 User profile: name, phone (validated with libphonenumber-js, stored as E.164),
 * birthdate, and the e-mail, which changes only after the password is given again and the
 * link sent to the new address is followed.
 */
export function createProfileService({ db, mailer, now, identityProviderName, embeddedProvider, mainIssuerKey, titleFor }: ProfileDeps) {
  const ownerSubscription = alias(subscription, 'owner_subscription');
  const ownerAccount = alias(account, 'owner_account');
  const ownerUser = alias(appUser, 'owner_user');

  async function sharingOf(userId: string): Promise<SharingSummary> {
    const own = await db
      .select({ subscription, ownerGiven: ownerUser.givenName, ownerFamily: ownerUser.familyName })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .leftJoin(ownerSubscription, eq(ownerSubscription.id, subscription.sharedFromSubscriptionId))
      .leftJoin(ownerAccount, eq(ownerAccount.ariaAccountNo, ownerSubscription.ariaAccountNo))
      .leftJoin(ownerUser, eq(ownerUser.id, ownerAccount.userId))
      .where(eq(account.userId, userId));
    const shared = own.find((row) => row.subscription.sharedFromSubscriptionId !== null);
    if (shared) {
      return { role: 'member', ownerName: `${shared.ownerGiven ?? ''} ${shared.ownerFamily ?? ''}`.trim() || null, maxMembers: 0, members: [] };
    }
    const owner = own.find((row) => row.subscription.features.familySharing && row.subscription.eligibleForSharing);
    if (!owner) return { role: 'none', ownerName: null, maxMembers: 0, members: [] };
    const members = await db
      .select({ email: subscriptionMember.email, status: subscriptionMember.status })
      .from(subscriptionMember)
      .where(and(eq(subscriptionMember.subscriptionId, owner.subscription.id), eq(subscriptionMember.kind, 'family')));
    return {
      role: 'owner',
      ownerName: null,
      maxMembers: owner.subscription.maxMembers,
      members: members.map((member) => ({ email: member.email, status: member.status === 'active' ? 'active' : 'emailSent' })),
    };
  }

  /**
   * The user's account at the embedded provider, whose password and sign-in address the e-mail
   * change concerns: their login with the main issuer (ADR 028). None with an external main
   * issuer, or for a user who logs in with Vipps only: the address is then changed where they log in.
   */
  async function embeddedAccountOf(user: SessionUser): Promise<string | null> {
    return embeddedProvider ? mainSubjectOf(db, mainIssuerKey, user) : null;
  }

  async function profileOf(user: SessionUser): Promise<ProfileResponse> {
    const [pending] = await db
      .select({ newEmail: emailChange.newEmail })
      .from(emailChange)
      .where(and(eq(emailChange.userId, user.id), isNull(emailChange.confirmedAt), gt(emailChange.expiresAt, now())));
    return {
      givenName: user.givenName,
      familyName: user.familyName,
      phoneNumber: user.phoneNumber,
      birthdate: user.birthdate,
      email: user.email,
      pendingEmail: pending?.newEmail ?? null,
      emailChangeHere: (await embeddedAccountOf(user)) !== null,
      sharing: await sharingOf(user.id),
      sources: await sourcesOf(db, user.id),
    };
  }

  async function reload(userId: string): Promise<SessionUser> {
    const [row] = await db.select().from(appUser).where(eq(appUser.id, userId));
    if (!row) throw new Error('user vanished');
    return row;
  }

  return {
    getProfile: profileOf,

    /** PUT /api/profile. Every field is checked again here; a refusal changes nothing. */
    async updateProfile(user: SessionUser, body: unknown): Promise<ProfileUpdateResponse> {
      const parsed = profileFormSchema.safeParse(body);
      if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? profileMessages.invalidBirthdate);
      const input = parsed.data;
      let phoneNumber: string | null = null;
      if (input.phoneNumber !== '') {
        const phone = parsePhoneNumberFromString(input.phoneNumber, 'NO');
        if (!phone?.isValid()) throw invalid(profileMessages.invalidPhone);
        phoneNumber = phone.number;
      }
      const requested = { givenName: input.givenName, familyName: input.familyName, phoneNumber, birthdate: input.birthdate === '' ? null : input.birthdate };
      const current = await reload(user.id);
      const sources = await sourcesOf(db, user.id);
      // A field the issuer verified, or a birthdate declared at a purchase, is not the user's to change here (issue 24).
      const [locked] = lockedChanges(current, sources, requested);
      const lockedSource = locked ? sources[locked] : null;
      if (locked && lockedSource) throw new AppError(409, profileErrorCodes.fieldLocked, lockedFieldMessage(locked, lockedSource));
      await db.transaction(async (tx) => {
        await tx.update(appUser).set(requested).where(eq(appUser.id, user.id));
        await recordUserEdits(tx, current, requested, now());
      });
      const updated = await reload(user.id);
      return { profile: await profileOf(updated), user: toUserDto(updated, identityProviderName) };
    },

    /**
     * POST /api/profile/email-change: the password again (re-authentication), then a link to
     * the new address. The address changes only when the link is followed.
     */
    async requestEmailChange(user: SessionUser, body: unknown, origin: string): Promise<{ pendingEmail: string }> {
      const identityId = await embeddedAccountOf(user);
      if (identityId === null) throw new AppError(409, profileErrorCodes.emailChangeAtProvider, profileErrorMessages.emailChangeAtProvider);
      const parsed = emailChangeFormSchema.safeParse(body);
      if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? profileMessages.invalidEmail);
      const newEmail = parsed.data.newEmail.toLowerCase();
      if (newEmail === user.email.toLowerCase()) throw new AppError(409, profileErrorCodes.emailUnchanged, profileErrorMessages.emailUnchanged);
      const [identity] = await db.select().from(idpAccount).where(eq(idpAccount.id, identityId));
      if (!(await verifyPassword(parsed.data.password, identity?.passwordHash))) {
        throw new AppError(403, profileErrorCodes.wrongPassword, profileErrorMessages.wrongPassword);
      }
      const [taken] = await db
        .select({ id: idpAccount.id })
        .from(idpAccount)
        .where(and(eq(idpAccount.email, newEmail), ne(idpAccount.id, identityId)));
      if (taken) throw new AppError(409, profileErrorCodes.emailTaken, profileErrorMessages.emailTaken);

      const token = randomToken();
      const at = now();
      await db.transaction(async (tx) => {
        // One pending change at a time: an earlier link stops working.
        await tx.delete(emailChange).where(and(eq(emailChange.userId, user.id), isNull(emailChange.confirmedAt)));
        await tx.insert(emailChange).values({ tokenHash: hashToken(token), userId: user.id, newEmail, createdAt: at, expiresAt: new Date(at.getTime() + EMAIL_CHANGE_TTL_MS) });
        const title = titleFor(`${origin}/`);
        const mail = titleMail(title, {
          subject: 'Bekreft ny e-postadresse på Min Side',
          heading: 'Bekreft ny e-postadresse',
          paragraphs: [`Hei ${user.givenName}!`, 'Du har bedt om å bruke denne e-postadressen på Min Side. Bekreft endringen ved å åpne lenken.'],
          action: { label: 'Bekreft e-postadressen', url: `${origin}/endre-profil?bekreft-epost=${token}` },
          footnotes: ['Lenken virker i 24 timer. Har du ikke bedt om dette, kan du se bort fra e-posten.'],
        });
        await mailer.enqueue(tx, { to: newEmail, title, kind: 'emailChange', ...mail, idempotencyKey: `email-change:${hashToken(token)}` });
      });
      await mailer.deliverPending();
      return { pendingEmail: newEmail };
    },

    /** POST /api/profile/email-change/confirm: the link from the mail, opened by the same user. */
    async confirmEmailChange(user: SessionUser, token: string): Promise<ProfileUpdateResponse> {
      // The account may have been unlinked since the link was sent: then the address is the other issuer's to change.
      const identityId = await embeddedAccountOf(user);
      if (identityId === null) throw new AppError(409, profileErrorCodes.emailChangeAtProvider, profileErrorMessages.emailChangeAtProvider);
      await db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(emailChange)
          .set({ confirmedAt: now() })
          .where(and(eq(emailChange.tokenHash, hashToken(token)), eq(emailChange.userId, user.id), isNull(emailChange.confirmedAt), gt(emailChange.expiresAt, now())))
          .returning();
        if (!claimed) throw new AppError(400, profileErrorCodes.emailTokenInvalid, profileErrorMessages.emailTokenInvalid);
        const [taken] = await tx
          .select({ id: idpAccount.id })
          .from(idpAccount)
          .where(and(eq(idpAccount.email, claimed.newEmail), ne(idpAccount.id, identityId)));
        if (taken) throw new AppError(409, profileErrorCodes.emailTaken, profileErrorMessages.emailTaken);
        // The link proved the new mailbox: mail to the address counts as the user's from now on (issue 20).
        await tx.update(appUser).set({ email: claimed.newEmail, emailVerifiedAt: now() }).where(eq(appUser.id, user.id));
        await recordSource(tx, user.id, 'email', { source: 'USER', issuerLabel: null, verified: true }, now());
        // The provider logs in by e-mail: the new address is the one to sign in with from now on.
        await tx.update(idpAccount).set({ email: claimed.newEmail }).where(eq(idpAccount.id, identityId));
        await tx.delete(emailChange).where(and(eq(emailChange.userId, user.id), isNull(emailChange.confirmedAt)));
      });
      const updated = await reload(user.id);
      return { profile: await profileOf(updated), user: toUserDto(updated, identityProviderName) };
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
