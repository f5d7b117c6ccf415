import { randomUUID } from 'node:crypto';
import { and, count, eq, gt, inArray, isNull, sum } from 'drizzle-orm';
import {
  CONNECT_MAX_WRONG_CODES,
  CONNECT_SEARCH_ADDRESS_LIMIT,
  CONNECT_SEARCH_LIMIT,
  CONNECT_THROTTLE_MINUTES,
  connectErrorCodes,
  connectMessages,
  isValidEmail,
  phoneKey,
  VERIFICATION_CODE_TTL_MINUTES,
  type AssignAccountResponse,
  type SearchAccountBody,
  type SearchAccountResponse,
  type Title,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, billingDocument, connectableAccount, connectRequest, deliveryAddress, invoice, payment, subscription, verificationCode } from '../../db/schema.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { claimCode, issueCode } from '../../lib/one-time-code.ts';
import type { RateLimiter } from '../../lib/shared-state/rate-limiter.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';

export interface ConnectDeps {
  db: Db;
  mailer: Mailer;
  accounts: AccountService;
  titles: TitleService;
  now: () => Date;
  identityProviderName: string;
  /** Searches per client address (lib/shared-state): many logins from one place probe no more. */
  rateLimiter: RateLimiter;
}

const MINUTE_MS = 60_000;

/**
 * /koble-bruker (SPEC §7 `search-account`, `verify/`, `account/assign`): an account bought
 * elsewhere has a stand-in user and a `connectable_account` row with its contact e-mail. A
 * search that finds it sends a code there; the right code marks the search verified; assign
 * moves the account (or, if the user has one already, its subscriptions) to the login.
 * Searches and wrong codes are counted per user; a wrong code is written before refusing.
 */
export function createConnectService({ db, mailer, accounts, titles, now, identityProviderName, rateLimiter }: ConnectDeps) {
  const windowStart = () => new Date(now().getTime() - CONNECT_THROTTLE_MINUTES * MINUTE_MS);
  const error = (status: number, code: string, message: string) => new AppError(status, code, message);

  async function wrongCodesInWindow(reader: Db | Tx, userId: string): Promise<number> {
    const [row] = await reader
      .select({ n: sum(verificationCode.attempts) })
      .from(verificationCode)
      .where(and(eq(verificationCode.userId, userId), eq(verificationCode.purpose, 'connect'), gt(verificationCode.createdAt, windowStart())));
    return Number(row?.n ?? 0);
  }

  async function refuseIfThrottled(reader: Db | Tx, userId: string): Promise<void> {
    if ((await wrongCodesInWindow(reader, userId)) >= CONNECT_MAX_WRONG_CODES) throw error(429, connectErrorCodes.codeThrottled, connectMessages.codeThrottled);
  }

  async function subscriptionsOf(reader: Db | Tx, ariaAccountNo: number) {
    const rows = await reader.select().from(subscription).where(eq(subscription.ariaAccountNo, ariaAccountNo));
    return rows.map((row) => ({ titleCode: row.titleCode, titleName: titles.getTitle(row.titleCode).name, planName: row.planName }));
  }

  /** The user's own search (someone else's id is 404), whether or not it found an account. */
  async function ownRequest(reader: Db | Tx, userId: string, requestId: string) {
    const [row] = await reader
      .select()
      .from(connectRequest)
      .where(and(eq(connectRequest.id, requestId), eq(connectRequest.userId, userId)));
    if (!row) throw error(404, connectErrorCodes.notFound, connectMessages.notFound);
    return row;
  }

  return {
    /**
     * POST /api/search-account: at most CONNECT_SEARCH_LIMIT per user and
     * CONNECT_SEARCH_ADDRESS_LIMIT per client address in the window. Every search answers the
     * same (issue 20): a code is issued for each, and mailed only when an account that can be
     * connected matched; a match that is connected already gets a notice in its owner's mailbox
     * instead; nothing matched, nothing is sent. The answer never waits for the mail to go out.
     */
    async search(user: SessionUser, title: Title, body: SearchAccountBody, clientAddress: string): Promise<SearchAccountResponse> {
      await refuseIfThrottled(db, user.id);
      const perAddress = await rateLimiter.hit(`connect-search:${clientAddress}`, { limit: CONNECT_SEARCH_ADDRESS_LIMIT, windowMs: CONNECT_THROTTLE_MINUTES * MINUTE_MS });
      if (!perAddress.allowed) throw error(429, connectErrorCodes.searchThrottled, connectMessages.searchThrottled);
      const requestId = randomUUID();
      const found = await db.transaction(async (tx) => {
        // Counted under a lock on the user's row, so parallel searches cannot pass the limit together.
        await tx.select({ id: appUser.id }).from(appUser).where(eq(appUser.id, user.id)).for('update');
        const [searches] = await tx
          .select({ n: count() })
          .from(connectRequest)
          .where(and(eq(connectRequest.userId, user.id), gt(connectRequest.createdAt, windowStart())));
        if ((searches?.n ?? 0) >= CONNECT_SEARCH_LIMIT) return { throttled: true as const };
        await tx.insert(connectRequest).values({ id: requestId, userId: user.id, ariaAccountNo: null, createdAt: now() });

        let match: { ariaAccountNo: number; contactEmail: string } | undefined;
        /** Whom to tell that someone tried to connect a subscription that is connected already. */
        let connectedElsewhere: string | undefined;
        if (body.ariaAccountNo !== undefined && body.postalCode !== undefined) {
          const [byNumber] = await tx
            .select({ account, connectable: connectableAccount, ownerEmail: appUser.email })
            .from(account)
            .innerJoin(appUser, eq(appUser.id, account.userId))
            .leftJoin(connectableAccount, eq(connectableAccount.ariaAccountNo, account.ariaAccountNo))
            .where(eq(account.ariaAccountNo, body.ariaAccountNo));
          const addresses = byNumber
            ? await tx
                .select({ postalCode: deliveryAddress.postalCode })
                .from(deliveryAddress)
                .innerJoin(subscription, eq(subscription.id, deliveryAddress.subscriptionId))
                .where(eq(subscription.ariaAccountNo, body.ariaAccountNo))
            : [];
          if (byNumber && addresses.some((address) => address.postalCode === body.postalCode)) {
            // The owner asking about their own account learns nothing new.
            if (byNumber.account.userId === user.id) return { yours: true as const };
            if (byNumber.connectable && !byNumber.connectable.claimedAt) match = { ariaAccountNo: byNumber.account.ariaAccountNo, contactEmail: byNumber.connectable.contactEmail };
            else connectedElsewhere = byNumber.connectable?.contactEmail ?? byNumber.ownerEmail;
          }
        } else if (body.phoneNumber !== undefined) {
          const [byPhone] = await tx
            .select()
            .from(connectableAccount)
            .where(and(eq(connectableAccount.contactPhoneKey, phoneKey(body.phoneNumber)), isNull(connectableAccount.claimedAt)));
          if (byPhone) match = { ariaAccountNo: byPhone.ariaAccountNo, contactEmail: byPhone.contactEmail };
        }
        // A code for every search, so the answer and the work are the same whatever matched; with no
        // match it goes nowhere and every try at it is a wrong code. The user's search limit bounds them.
        const issued = await issueCode(tx, { purpose: 'connect', userId: user.id, email: match?.contactEmail ?? '', now: now(), sendLimit: CONNECT_SEARCH_LIMIT });
        if (match) {
          await tx.update(connectRequest).set({ ariaAccountNo: match.ariaAccountNo }).where(eq(connectRequest.id, requestId));
          await mailer.enqueue(tx, {
            to: match.contactEmail,
            title,
            kind: 'connectCode',
            ...titleMail(title, {
              heading: 'Koden for å koble til abonnementet',
              subject: `Koden din for å koble til abonnementet på ${title.name}`,
              paragraphs: [
                `Noen vil koble abonnementet ditt til en innlogging på Min Side hos ${title.name}. Bruk denne koden for å bekrefte at det er deg:`,
                issued.code,
                `Koden virker i ${VERIFICATION_CODE_TTL_MINUTES} minutter. Har du ikke bedt om den, kan du se bort fra e-posten.`,
              ],
            }),
          });
        } else if (connectedElsewhere && isValidEmail(connectedElsewhere)) {
          await mailer.enqueue(tx, {
            to: connectedElsewhere,
            title,
            kind: 'connectAlreadyConnected',
            ...titleMail(title, {
              heading: 'Abonnementet ditt er allerede koblet til en bruker',
              subject: `Noen prøvde å koble til abonnementet ditt på ${title.name}`,
              paragraphs: [
                `Noen prøvde å koble abonnementet ditt hos ${title.name} til en innlogging på Min Side, men det er allerede koblet til en bruker.`,
                `Var det deg, og kommer du ikke inn? Ta kontakt med kundesenteret på telefon ${title.customerCenterPhoneNumber} eller ${title.customerCenterEmail}, så hjelper vi deg. Var det ikke deg, trenger du ikke gjøre noe.`,
              ],
            }),
          });
        }
        return { expiresAt: issued.expiresAt };
      });
      if ('throttled' in found) throw error(429, connectErrorCodes.searchThrottled, connectMessages.searchThrottled);
      if ('yours' in found) throw error(409, connectErrorCodes.alreadyYours, connectMessages.alreadyYours);
      // Sent now when SMTP is set, without the caller waiting for it (the outbox job retries).
      void mailer.deliverPending().catch(() => undefined);
      return { requestId, message: connectMessages.searchSent, expiresAt: found.expiresAt.toISOString() };
    },

    /**
     * POST /api/verify/: the code from the e-mail. The third wrong code in the window throttles.
     * A search that found nothing (or found an account connected already) has a code nobody
     * received: every try is a wrong code, answered exactly like one.
     */
    async verify(user: SessionUser, requestId: string, code: string): Promise<{ result: 'VERIFIED'; requestId: string }> {
      await refuseIfThrottled(db, user.id);
      const request = await ownRequest(db, user.id, requestId);
      const [target] = request.ariaAccountNo === null ? [] : await db.select().from(connectableAccount).where(eq(connectableAccount.ariaAccountNo, request.ariaAccountNo));
      if (target?.claimedAt) throw error(409, connectErrorCodes.alreadyConnected, connectMessages.notFound);
      const outcome = await db.transaction(async (tx) => {
        const claim = await claimCode(tx, { purpose: 'connect', userId: user.id, email: target?.contactEmail ?? '', code, now: now() });
        if (claim.status === 'ok' && target) await tx.update(connectRequest).set({ verifiedAt: now() }).where(eq(connectRequest.id, request.id));
        return claim;
      });
      if (outcome.status === 'ok' && target) return { result: 'VERIFIED', requestId };
      if (outcome.status === 'wrong' || outcome.status === 'ok') {
        const wrong = await wrongCodesInWindow(db, user.id);
        if (wrong >= CONNECT_MAX_WRONG_CODES) throw error(429, connectErrorCodes.codeThrottled, connectMessages.codeThrottled);
        throw error(400, connectErrorCodes.codeWrong, connectMessages.codeWrong(CONNECT_MAX_WRONG_CODES - wrong));
      }
      throw error(400, connectErrorCodes.invalidCode, connectMessages.invalidCode);
    },

    /**
     * PUT /api/account/assign: a verified search's account becomes the user's. With no
     * account of their own the whole account moves (its subscriber number stays); otherwise
     * its subscriptions, invoices and payments move into the user's account, unless the user
     * already has a subscription at one of its titles (one per account and title).
     */
    async assign(user: SessionUser, title: Title, requestId: string): Promise<AssignAccountResponse> {
      const found = await ownRequest(db, user.id, requestId);
      const verifiedSince = new Date(now().getTime() - VERIFICATION_CODE_TTL_MINUTES * MINUTE_MS);
      // Unverified first: a search that found nothing is never verified, so it answers like one that did.
      if (!found.verifiedAt || found.verifiedAt.getTime() < verifiedSince.getTime() || found.ariaAccountNo === null) throw error(403, connectErrorCodes.notVerified, connectMessages.notVerified);
      const request = { ...found, ariaAccountNo: found.ariaAccountNo };
      const moved = await db.transaction(async (tx) => {
        const [target] = await tx.select().from(connectableAccount).where(eq(connectableAccount.ariaAccountNo, request.ariaAccountNo)).for('update');
        if (!target) throw error(404, connectErrorCodes.notFound, connectMessages.notFound);
        if (target.claimedAt) {
          if (target.claimedByUserId === user.id) return subscriptionsOf(tx, request.ariaAccountNo).then((list) => ({ list, already: true }));
          throw error(409, connectErrorCodes.alreadyConnected, connectMessages.alreadyConnected(title.customerCenterPhoneNumber, title.customerCenterEmail));
        }
        const [own] = await tx.select().from(account).where(eq(account.userId, user.id)).for('update');
        const theirs = await tx.select().from(subscription).where(eq(subscription.ariaAccountNo, request.ariaAccountNo)).for('update');
        if (!own) {
          await tx.update(account).set({ userId: user.id }).where(eq(account.ariaAccountNo, request.ariaAccountNo));
        } else {
          const titleCodes = theirs.map((row) => row.titleCode);
          if (titleCodes.length > 0) {
            const [clash] = await tx
              .select()
              .from(subscription)
              .where(and(eq(subscription.ariaAccountNo, own.ariaAccountNo), inArray(subscription.titleCode, titleCodes)));
            if (clash) throw error(409, connectErrorCodes.titleConflict, connectMessages.titleConflict(titles.getTitle(clash.titleCode).name));
            const ids = theirs.map((row) => row.id);
            await tx.update(subscription).set({ ariaAccountNo: own.ariaAccountNo }).where(inArray(subscription.id, ids));
            await tx.update(invoice).set({ ariaAccountNo: own.ariaAccountNo }).where(inArray(invoice.subscriptionId, ids));
            // The invoices' documents follow them (whose list and PDFs they are); what the documents say stays as issued.
            await tx
              .update(billingDocument)
              .set({ ariaAccountNo: own.ariaAccountNo })
              .where(inArray(billingDocument.ariaInvoiceNo, tx.select({ no: invoice.ariaInvoiceNo }).from(invoice).where(inArray(invoice.subscriptionId, ids))));
            await tx.update(payment).set({ ariaAccountNo: own.ariaAccountNo }).where(inArray(payment.subscriptionId, ids));
          }
        }
        await tx.update(connectableAccount).set({ claimedAt: now(), claimedByUserId: user.id }).where(eq(connectableAccount.ariaAccountNo, request.ariaAccountNo));
        await tx.update(connectRequest).set({ assignedAt: now() }).where(eq(connectRequest.id, request.id));
        return { list: theirs.map((row) => ({ titleCode: row.titleCode, titleName: titles.getTitle(row.titleCode).name, planName: row.planName })), already: false };
      });
      const own = await accounts.accountOf(user.id);
      if (!own) throw new Error('assign left no account');
      const names = moved.list.map((item) => `${item.planName} (${item.titleName})`).join(', ');
      return {
        result: 'ASSIGNED',
        message: moved.already ? connectMessages.alreadyYours : `Abonnementet er koblet til brukeren din: ${names}.`,
        subscriptions: moved.list,
        user: toUserDto(user, identityProviderName),
        account: toAccountDto(own, user, identityProviderName),
        subscription: await accounts.subscriptionForTitle(own, title.titleCode),
      };
    },
  };
}

export type ConnectService = ReturnType<typeof createConnectService>;
