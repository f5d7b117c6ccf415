import { endSharesOf, type LifecycleService } from '../subscription/index.ts';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import {
  decideTransition,
  EXPORT_DAILY_LIMIT,
  EXPORT_RETENTION_DAYS,
  instStatusCodes,
  osloToday,
  PAYMENT_HISTORY_RETENTION_YEARS,
  privacyErrorCodes,
  privacyMessages,
  type ChangeActor,
  type DeletionRequestBody,
  type DeletionState,
  type ExportList,
  type ExportRequest,
  type Title,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import { issueMissingInvoiceDocuments } from '../billing/index.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  account,
  appUser,
  cancellationSurvey,
  consentChoice,
  consentPermissionChoice,
  dataRequest,
  deliveryAddress,
  deliveryChange,
  deliveryComplaint,
  emailChange,
  familyInvitationLink,
  idpAccount,
  idpLoginFailure,
  idpPayload,
  mailOptOut,
  mailOutbox,
  payment,
  paymentAgreement,
  profileFieldSource,
  studentVerification,
  subscription,
  subscriptionChange,
  subscriptionMember,
  userSession,
  userLogin,
  verificationCode,
  subscriptionOrder,
  connectRequest,
} from '../../db/schema.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import { uniqueViolationOf } from '../../lib/pg-errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { mainSubjectOf } from '../../identity/main-subject.ts';
import { collectUserData, estimateRows } from './collect.ts';

type RequestRow = typeof dataRequest.$inferSelect;

export interface PrivacyDeps {
  db: Db;
  mailer: Mailer;
  lifecycle: LifecycleService;
  now: () => Date;
  identityProviderName: string;
  /** The main issuer's key (`OIDC_KEY`): the user's login with it is their account at the embedded provider. */
  mainIssuerKey: string;
  /** The title whose name and colours a mail to this user carries (the account's first title). */
  titleOf: (titleCode: string | undefined) => Title;
  /** Accounts with more rows than this are exported by the job rather than during the request. */
  inlineExportLimit?: number;
  /** Ends the user's sessions wherever they live (Redis or database, ADR 018); erasure calls it. */
  endSessionsOf?: (userId: string) => Promise<void>;
  /** The catalogue: an erasure first issues the documents of invoices that have none (ADR 026). */
  catalogue: Catalogue;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A job run holds a claimed request this long; a crashed run's requests come back after it. */
const CLAIM_MS = 10 * 60 * 1000;
const DEFAULT_INLINE_EXPORT_LIMIT = 5_000;

const ERASED_EMAIL_DOMAIN = 'slettet.invalid';

/** The zip a data export delivers, whoever asked for it (Min Side, or the customer centre by `admin gdpr export`). */
export function exportArchiveOf(data: Awaited<ReturnType<typeof collectUserData>>, at: Date): Uint8Array {
  const readme = [
    'Min Side – kopi av dataene dine',
    '',
    `Laget ${at.toISOString()}.`,
    'minside-data.json inneholder alt vi har lagret om deg på Min Side, i maskinlesbar form (JSON):',
    'profil, konto, abonnementer, leveringsadresser og -endringer, reklamasjoner, fakturaer, betalinger,',
    'betalingsmåter (maskert), samtykker med historikk, familie- og bedriftsdeling, e-post vi har sendt deg og endringslogg.',
    'Beløp er i øre. Tidspunkter er i UTC (ISO 8601).',
  ].join('\n');
  return zipSync({ 'minside-data.json': strToU8(JSON.stringify({ exportedAt: at.toISOString(), ...data }, null, 2)), 'LESMEG.txt': strToU8(readme) }, { level: 6 });
}

/**
 * Data rights (issue 9 item 3). Both rights are a `data_request` row plus a job function
 * (`runExports`, `runErasures`): the request is recorded at once, the work can run now (a
 * normal export) or later in a job, and a job claims each row so two instances never do the
 * same one.
 */
export function createPrivacyService({ db, mailer, lifecycle, now, identityProviderName, mainIssuerKey, titleOf, inlineExportLimit = DEFAULT_INLINE_EXPORT_LIMIT, endSessionsOf, catalogue }: PrivacyDeps) {
  const gateway = (kind: 'Takeout' | 'Delete') => `/${identityProviderName}${kind}Gateway`;

  function toExport(row: RequestRow): ExportRequest {
    const ready = row.status === 'ready';
    return {
      id: row.id,
      status: row.status === 'ready' || row.status === 'expired' ? row.status : 'pending',
      requestedAt: row.requestedAt.toISOString(),
      readyAt: row.completedAt?.toISOString() ?? null,
      expiresAt: ready ? (row.expiresAt?.toISOString() ?? null) : null,
      downloadUrl: ready ? `/api/privacy/export/${row.id}/download` : null,
      sizeBytes: ready ? row.sizeBytes : null,
    };
  }

  /** How many exports the user asked for on the Oslo calendar day of `at` (any status: a copy mailed is a copy mailed). */
  async function exportsOnDayOf(reader: Pick<Db, 'select'>, userId: string, at: Date): Promise<number> {
    const today = osloToday(at);
    // The Oslo day lies within the last 26 hours whatever daylight saving does; the day itself is decided here, by the clock.
    const recent = await reader
      .select({ requestedAt: dataRequest.requestedAt })
      .from(dataRequest)
      .where(and(eq(dataRequest.userId, userId), eq(dataRequest.kind, 'export'), gte(dataRequest.requestedAt, new Date(at.getTime() - 26 * 60 * 60 * 1000))));
    return recent.filter((row) => osloToday(row.requestedAt) === today).length;
  }

  async function pendingExportOf(reader: Pick<Db, 'select'>, userId: string): Promise<RequestRow | undefined> {
    const [pending] = await reader.select().from(dataRequest).where(and(eq(dataRequest.userId, userId), eq(dataRequest.kind, 'export'), eq(dataRequest.status, 'pending')));
    return pending;
  }

  async function titleForUser(tx: Pick<Db, 'select'>, userId: string): Promise<Title> {
    const [owned] = await tx.select({ code: account.firstTitleCode }).from(account).where(eq(account.userId, userId));
    return titleOf(owned?.code);
  }

  /** Claims due requests of a kind for this run (SKIP LOCKED: one runner per request across instances). */
  async function claim(kind: 'export' | 'erasure', limit: number): Promise<RequestRow[]> {
    const at = now();
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: dataRequest.id })
        .from(dataRequest)
        .where(and(eq(dataRequest.kind, kind), eq(dataRequest.status, 'pending'), lte(dataRequest.dueAt, at), or(isNull(dataRequest.lockedUntil), lt(dataRequest.lockedUntil, at))))
        .orderBy(dataRequest.dueAt)
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(dataRequest)
        .set({ lockedUntil: new Date(at.getTime() + CLAIM_MS) })
        .where(inArray(dataRequest.id, due.map((row) => row.id)))
        .returning();
    });
  }

  /** The job's work for one export: the zip, stored 7 days, and the e-mail that it is ready. */
  async function buildExport(request: RequestRow): Promise<RequestRow> {
    const data = await collectUserData(db, request.userId, identityProviderName, mainIssuerKey);
    const at = now();
    const zip = exportArchiveOf(data, at);
    const origin = typeof request.details['origin'] === 'string' ? request.details['origin'] : null;
    return db.transaction(async (tx) => {
      const [done] = await tx
        .update(dataRequest)
        .set({ status: 'ready', archive: Buffer.from(zip), sizeBytes: zip.byteLength, completedAt: at, expiresAt: new Date(at.getTime() + EXPORT_RETENTION_DAYS * DAY_MS), lockedUntil: null })
        .where(and(eq(dataRequest.id, request.id), eq(dataRequest.status, 'pending')))
        .returning();
      if (!done) return request;
      const title = await titleForUser(tx, request.userId);
      const mail = titleMail(title, {
        subject: 'Kopien av dataene dine er klar',
        heading: 'Kopien av dataene dine er klar',
        paragraphs: [`Hei ${data.profile.givenName || ''}!`.replace(' !', '!'), 'Du ba om en kopi av dataene vi har om deg. Den er klar til nedlasting på Min Side når du er logget inn.'],
        action: { label: 'Last ned dataene dine', url: `${origin ?? title.minsideUrl.replace(/\/$/, '')}${gateway('Takeout')}` },
        footnotes: [`Kopien kan lastes ned i ${EXPORT_RETENTION_DAYS} dager. Etter det sletter vi den, og du kan be om en ny.`],
      });
      await mailer.enqueue(tx, { to: data.profile.email, title, kind: 'dataExport', ...mail, idempotencyKey: `data-export:${request.id}` });
      return done;
    });
  }

  async function expireExports(): Promise<number> {
    const expired = await db
      .update(dataRequest)
      .set({ status: 'expired', archive: null })
      .where(and(eq(dataRequest.kind, 'export'), eq(dataRequest.status, 'ready'), lte(dataRequest.expiresAt, now())))
      .returning({ id: dataRequest.id });
    return expired.length;
  }

  /**
   * The erasure of one person. Kept: invoices and payments (bookkeeping, SPEC §9: 5 years),
   * the account and subscriptions they hang on, and the change log — all without a name,
   * because the user row they point at is pseudonymised — and the issued invoices and credit
   * notes as they were issued, with the name they were issued to (ADR 026). Deleted: the identity account (so
   * the login stops working), sessions, consents, mail, codes, memberships, addresses.
   */
  async function erase(tx: Tx, request: RequestRow): Promise<void> {
    const [user] = await tx.select().from(appUser).where(eq(appUser.id, request.userId)).for('update');
    if (!user) return;
    const at = now();
    const email = user.email;
    const accounts = await tx.select({ no: account.ariaAccountNo }).from(account).where(eq(account.userId, user.id));
    const subscriptions = accounts.length
      ? await tx.select().from(subscription).where(inArray(subscription.ariaAccountNo, accounts.map((row) => row.no)))
      : [];
    const subscriptionIds = subscriptions.map((row) => row.id);
    // The sales documents name the buyer as invoiced and are kept as issued (bokføringsloven § 13, ADR 026):
    // an invoice from before documents gets its document now, before the name and address go.
    await issueMissingInvoiceDocuments(tx, catalogue, accounts.map((row) => row.no), at);

    // Access ends now: a cancelled subscription would otherwise run to its period end for nobody.
    for (const row of subscriptions) {
      if (row.instStatusCode === instStatusCodes.TERMINATED || row.instStatusCode === instStatusCodes.CANCELLED) continue;
      await tx.update(subscription).set({ instStatusCode: instStatusCodes.TERMINATED, cancelledAt: row.cancelledAt ?? at, currentPeriodEnd: osloToday(at), pendingPlanId: null, pendingPlanName: null, pendingChangeOn: null, resumeStatusCode: null }).where(eq(subscription.id, row.id));
      await tx.insert(subscriptionChange).values({ id: randomUUID(), subscriptionId: row.id, at, actor: 'system', actorUserId: null, kind: 'expired', fromStatusCode: row.instStatusCode, toStatusCode: instStatusCodes.TERMINATED, details: { on: osloToday(at) } });
    }

    if (subscriptionIds.length) {
      await tx.update(deliveryAddress).set({ name: '', coName: null, street: 'Slettet', streetNumber: '', apartment: null, floor: null }).where(inArray(deliveryAddress.subscriptionId, subscriptionIds));
      await tx.update(deliveryChange).set({ address: null }).where(inArray(deliveryChange.subscriptionId, subscriptionIds));
      await tx.update(deliveryComplaint).set({ text: null }).where(inArray(deliveryComplaint.subscriptionId, subscriptionIds));
      await tx.update(cancellationSurvey).set({ reasonText: null }).where(inArray(cancellationSurvey.subscriptionId, subscriptionIds));
      // Cards, Vipps numbers and bank accounts are not bookkeeping: the payments keep method and amount.
      await tx.delete(paymentAgreement).where(inArray(paymentAgreement.subscriptionId, subscriptionIds));
      // Others this person invited: their invitations name them by e-mail and lead nowhere now.
      await tx.delete(familyInvitationLink).where(inArray(familyInvitationLink.subscriptionId, subscriptionIds));
      await tx.delete(subscriptionMember).where(inArray(subscriptionMember.subscriptionId, subscriptionIds));
      // Members and employees lose the access they had through this person's subscriptions.
      for (const id of subscriptionIds) await endSharesOf(tx, id, at);
    }
    // Shares this person held in someone else's subscription.
    await tx.delete(familyInvitationLink).where(eq(familyInvitationLink.email, email));
    await tx.delete(subscriptionMember).where(or(eq(subscriptionMember.userId, user.id), eq(subscriptionMember.email, email)));

    await tx.update(payment).set({ userId: null, details: {} }).where(eq(payment.userId, user.id));
    await tx.delete(consentChoice).where(eq(consentChoice.userId, user.id));
    await tx.delete(consentPermissionChoice).where(eq(consentPermissionChoice.userId, user.id));
    await tx.delete(emailChange).where(eq(emailChange.userId, user.id));
    await tx.delete(profileFieldSource).where(eq(profileFieldSource.userId, user.id));
    await tx.delete(studentVerification).where(eq(studentVerification.userId, user.id));
    await tx.delete(verificationCode).where(eq(verificationCode.userId, user.id));
    // Orders stay for bookkeeping (what was bought and paid), without the delivery address.
    await tx.update(subscriptionOrder).set({ deliveryAddress: null }).where(eq(subscriptionOrder.userId, user.id));
    await tx.delete(connectRequest).where(eq(connectRequest.userId, user.id));
    await tx.delete(mailOutbox).where(eq(mailOutbox.to, email));
    await tx.delete(mailOptOut).where(eq(mailOptOut.userId, user.id));
    await tx.delete(dataRequest).where(and(eq(dataRequest.userId, user.id), eq(dataRequest.kind, 'export')));
    await tx.delete(userSession).where(eq(userSession.userId, user.id));

    // The account at the embedded provider is the user's login with the main issuer, read before
    // the login rows go: not `identity_sub`, which names Vipps for a user who came by it first. A
    // user who logs in with Vipps only has none here (an account they unlinked is no longer theirs).
    const identityId = await mainSubjectOf(tx, mainIssuerKey, user);
    // No login reaches the erased user any more (issue 24: the group's account, Vipps).
    await tx.delete(userLogin).where(eq(userLogin.userId, user.id));
    // The embedded provider's login, its sessions and grants: the person cannot sign in again.
    if (identityId !== null) {
      await tx.delete(idpAccount).where(eq(idpAccount.id, identityId));
      await tx.delete(idpPayload).where(sql`${idpPayload.payload}->>'accountId' = ${identityId}`);
    }
    await tx.delete(idpLoginFailure).where(eq(idpLoginFailure.key, `email:${email}`));

    // The row stays so invoices, payments and the change log keep their keys, but it names nobody.
    await tx
      .update(appUser)
      .set({ identitySub: `erased:${user.id}`, email: `${user.id}@${ERASED_EMAIL_DOMAIN}`, givenName: '', familyName: '', phoneNumber: null, birthdate: null })
      .where(eq(appUser.id, user.id));
    await tx
      .update(dataRequest)
      .set({ status: 'completed', completedAt: at, lockedUntil: null, details: { cancelledSubscriptions: request.details['cancelledSubscriptions'] ?? [], requestedBy: request.details['requestedBy'] ?? 'self' } })
      .where(eq(dataRequest.id, request.id));
  }

  async function deletionState(userId: string): Promise<DeletionState> {
    const [row] = await db.select().from(dataRequest).where(and(eq(dataRequest.userId, userId), eq(dataRequest.kind, 'erasure')));
    if (!row) return { request: null };
    const cancelled = row.details['cancelledSubscriptions'];
    return {
      request: {
        status: row.status === 'completed' ? 'completed' : 'scheduled',
        requestedAt: row.requestedAt.toISOString(),
        scheduledFor: row.dueAt.toISOString(),
        cancelledSubscriptions: Array.isArray(cancelled) ? cancelled.filter((name): name is string => typeof name === 'string') : [],
      },
    };
  }

  return {
    async listExports(userId: string): Promise<ExportList> {
      const rows = await db.select().from(dataRequest).where(and(eq(dataRequest.userId, userId), eq(dataRequest.kind, 'export'))).orderBy(desc(dataRequest.requestedAt)).limit(10);
      return { exports: rows.map(toExport), remainingToday: Math.max(0, EXPORT_DAILY_LIMIT - (await exportsOnDayOf(db, userId, now()))) };
    },

    /**
     * POST /api/privacy/export: a pending request is answered with itself (a double click
     * asks once); otherwise a new one, built at once unless the account is big. Each one mails
     * the user, so at most EXPORT_DAILY_LIMIT a day (issue 20): then 429 EXPORT_DAILY_LIMIT,
     * nothing stored and nothing sent. The user's row is locked while deciding, and the
     * database holds one pending export per user (data_request_one_pending_export_idx).
     */
    async requestExport(user: SessionUser, origin: string): Promise<ExportRequest> {
      const at = now();
      const decided = await db
        .transaction(async (tx) => {
          await tx.select({ id: appUser.id }).from(appUser).where(eq(appUser.id, user.id)).for('update');
          const pending = await pendingExportOf(tx, user.id);
          if (pending) return { fresh: false, row: pending };
          if ((await exportsOnDayOf(tx, user.id, at)) >= EXPORT_DAILY_LIMIT) {
            throw new AppError(429, privacyErrorCodes.exportDailyLimit, privacyMessages.exportDailyLimit);
          }
          const [created] = await tx
            .insert(dataRequest)
            .values({ id: randomUUID(), userId: user.id, kind: 'export', status: 'pending', requestedAt: at, dueAt: at, details: { origin } })
            .returning();
          if (!created) throw new Error('export request not stored');
          return { fresh: true, row: created };
        })
        .catch(async (error: unknown) => {
          if (uniqueViolationOf(error) !== 'data_request_one_pending_export_idx') throw error;
          const pending = await pendingExportOf(db, user.id);
          if (!pending) throw error;
          return { fresh: false, row: pending };
        });
      if (!decided.fresh) return toExport(decided.row);
      const created = decided.row;
      if ((await estimateRows(db, user.id)) > inlineExportLimit) return toExport(created);
      const done = await buildExport(created);
      await mailer.deliverPending();
      return toExport(done);
    },

    /** GET …/download: only the owner's own ready file; someone else's id is a plain 404. */
    async exportArchive(userId: string, id: string): Promise<{ archive: Uint8Array; requestedAt: Date }> {
      const [row] = await db.select().from(dataRequest).where(and(eq(dataRequest.id, id), eq(dataRequest.userId, userId), eq(dataRequest.kind, 'export')));
      if (!row) throw notFound();
      if (row.status === 'expired' || (row.expiresAt && row.expiresAt <= now())) throw new AppError(410, privacyErrorCodes.exportExpired, privacyMessages.exportExpired);
      if (row.status !== 'ready' || !row.archive) throw new AppError(409, privacyErrorCodes.exportNotReady, privacyMessages.exportNotReady);
      return { archive: row.archive, requestedAt: row.requestedAt };
    },

    getDeletion: deletionState,

    /**
     * POST /api/privacy/deletion (SPEC §5: two ticked confirmations). Ends what runs — each
     * active subscription is cancelled through the lifecycle service, as if the subscriber
     * had done it — then schedules the erasure and confirms it by e-mail. `requestedBy` is
     * customerCentre when the request came by letter or phone (`admin gdpr erase`): the change
     * log and the request row say so.
     */
    async requestDeletion(user: SessionUser, body: DeletionRequestBody, origin: string, requestedBy: ChangeActor = 'self'): Promise<DeletionState> {
      if (!body.confirmConsequences || !body.confirmPaymentHistory) throw new AppError(400, privacyErrorCodes.confirmationRequired, privacyMessages.confirmationRequired);
      const existing = await deletionState(user.id);
      if (existing.request) return existing;

      const today = osloToday(now());
      const owned = await db
        .select({ sub: subscription })
        .from(subscription)
        .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
        .where(eq(account.userId, user.id));
      const cancelled: string[] = [];
      for (const { sub } of owned) {
        const view = { instStatusCode: sub.instStatusCode, currentPeriodEnd: sub.currentPeriodEnd, resumeStatusCode: sub.resumeStatusCode, sharedFrom: sub.sharedFromSubscriptionId, subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: sub.subscriptionInfo1 } };
        if (!decideTransition(view, 'cancel', today).allowed) continue;
        await lifecycle.deleteSubscription(user, { ariaAccountNo: sub.ariaAccountNo, titleCode: sub.titleCode, actionType: 'CANCELLATION', reasonCode: 'OTHER', reasonText: 'Kontoen slettes' }, requestedBy, { confirm: false });
        cancelled.push(sub.planName);
      }

      const at = now();
      await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(dataRequest)
          .values({ id: randomUUID(), userId: user.id, kind: 'erasure', status: 'pending', requestedAt: at, dueAt: at, details: { cancelledSubscriptions: cancelled, origin, requestedBy } })
          .onConflictDoNothing()
          .returning();
        if (!created) return;
        const title = await titleForUser(tx, user.id);
        const mail = titleMail(title, {
          subject: 'Vi sletter kontoen din',
          heading: 'Vi sletter kontoen din',
          paragraphs: [
            `Hei ${user.givenName}!`.replace(' !', '!'),
            `Du har bedt ${requestedBy === 'customerCentre' ? 'kundesenteret' : 'oss'} slette kontoen din på Min Side. Vi sletter personopplysningene dine og brukeren du logger inn med. Etter det kan du ikke logge inn med den lenger.`,
            ...(cancelled.length ? [`Vi har sagt opp: ${cancelled.join(', ')}.`] : []),
            `Fakturaer og betalinger må vi ta vare på i ${PAYMENT_HISTORY_RETENTION_YEARS} år etter bokføringsloven, men uten navnet ditt.`,
          ],
          footnotes: ['Har du ikke bedt om dette? Kontakt kundeservice med en gang.'],
        });
        await mailer.enqueue(tx, { to: user.email, title, kind: 'dataErasure', ...mail, idempotencyKey: `data-erasure:${created.id}` });
      });
      await mailer.deliverPending();
      return deletionState(user.id);
    },

    /** Job: builds pending exports (big accounts, or ones a crashed run left) and deletes expired files. */
    async runExports(limit = 20): Promise<number> {
      await expireExports();
      const claimed = await claim('export', limit);
      for (const request of claimed) await buildExport(request);
      if (claimed.length) await mailer.deliverPending();
      return claimed.length;
    },

    /** Job: carries out the scheduled erasures that are due, each in one transaction. */
    async runErasures(limit = 20): Promise<number> {
      const claimed = await claim('erasure', limit);
      for (const request of claimed) {
        // Before the erasure: if the session store is away, the request stays claimed and is retried.
        await endSessionsOf?.(request.userId);
        await db.transaction((tx) => erase(tx, request));
      }
      return claimed.length;
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;

