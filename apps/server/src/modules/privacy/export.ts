import { randomUUID } from 'node:crypto';
import { and, desc, eq, gte, lte } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { EXPORT_DAILY_LIMIT, EXPORT_RETENTION_DAYS, osloToday, privacyErrorCodes, privacyMessages, type ExportList, type ExportRequest, type Title } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { appUser, dataRequest } from '../../db/schema.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { uniqueViolationOf } from '../../lib/pg-errors.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { collectUserData, estimateRows } from './collect.ts';
import { claimDue, DAY_MS, titleForUser, type RequestRow } from './data-request.ts';

const DEFAULT_INLINE_EXPORT_LIMIT = 5_000;

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

export interface DataExportDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  identityProviderName: string;
  mainIssuerKey: string;
  titleOf: (titleCode: string | undefined) => Title;
  inlineExportLimit: number | undefined;
}

/**
 * The right to a copy (issue 9 item 3): the request, at most EXPORT_DAILY_LIMIT a day; the zip,
 * built at once for a normal account and by the job for a big one; its download for 7 days and
 * its expiry. Apart from erasure (deletion.ts), which shares only the request row's claiming.
 */
export function createDataExports({ db, mailer, now, identityProviderName, mainIssuerKey, titleOf, inlineExportLimit = DEFAULT_INLINE_EXPORT_LIMIT }: DataExportDeps) {
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
    const [pending] = await reader
      .select()
      .from(dataRequest)
      .where(and(eq(dataRequest.userId, userId), eq(dataRequest.kind, 'export'), eq(dataRequest.status, 'pending')));
    return pending;
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
      const title = await titleForUser(tx, request.userId, titleOf);
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

  return {
    async listExports(userId: string): Promise<ExportList> {
      const rows = await db
        .select()
        .from(dataRequest)
        .where(and(eq(dataRequest.userId, userId), eq(dataRequest.kind, 'export')))
        .orderBy(desc(dataRequest.requestedAt))
        .limit(10);
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
          const [created] = await tx.insert(dataRequest).values({ id: randomUUID(), userId: user.id, kind: 'export', status: 'pending', requestedAt: at, dueAt: at, details: { origin } }).returning();
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
      const [row] = await db
        .select()
        .from(dataRequest)
        .where(and(eq(dataRequest.id, id), eq(dataRequest.userId, userId), eq(dataRequest.kind, 'export')));
      if (!row) throw notFound();
      if (row.status === 'expired' || (row.expiresAt && row.expiresAt <= now())) throw new AppError(410, privacyErrorCodes.exportExpired, privacyMessages.exportExpired);
      if (row.status !== 'ready' || !row.archive) throw new AppError(409, privacyErrorCodes.exportNotReady, privacyMessages.exportNotReady);
      return { archive: row.archive, requestedAt: row.requestedAt };
    },

    /** Job: builds pending exports (big accounts, or ones a crashed run left) and deletes expired files. */
    async runExports(limit = 20): Promise<number> {
      await expireExports();
      const claimed = await claimDue(db, now(), 'export', limit);
      for (const request of claimed) await buildExport(request);
      if (claimed.length) await mailer.deliverPending();
      return claimed.length;
    },
  };
}
