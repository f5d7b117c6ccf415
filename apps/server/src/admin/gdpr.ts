import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { EXPORT_RETENTION_DAYS, formatKroner, osloToday } from '@minside/domain';
import { appUser, dataRequest } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import { collectUserData, exportArchiveOf } from '../modules/privacy/index.ts';
import { AdminInputError, parse, type AdminContext } from './args.ts';
import { findSubscriber, subscriberHistory } from './subscriber.ts';

export const gdprUsage = 'gdpr export <email|accountNo> [--out file.zip] | erase <email|accountNo> [--confirm]';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The person an operator names, refused once erased: what is left names nobody (ADR 015). */
async function livingUser(context: AdminContext, who: string) {
  const userId = await findSubscriber(context, who);
  const [user] = await context.db.select().from(appUser).where(eq(appUser.id, userId));
  if (!user) throw new AdminInputError(`No subscriber ${who}.`);
  if (user.identitySub.startsWith('erased:')) {
    const [done] = await context.db
      .select()
      .from(dataRequest)
      .where(and(eq(dataRequest.userId, user.id), eq(dataRequest.kind, 'erasure')));
    throw new AdminInputError(`The personal data of ${who} was erased${done?.completedAt ? ` on ${done.completedAt.toISOString()}` : ''}; only pseudonymised bookkeeping is left. Nothing was done.`);
  }
  return user;
}

/**
 * A request by letter or phone for a copy of one's data: the same archive as the
 * self-service export (exportArchiveOf), written for the customer centre to send, and
 * recorded as a data request by the customer centre that the person can also download on
 * Min Side for the usual seven days. No e-mail: the customer centre answers the request.
 */
async function gdprExport(context: AdminContext, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { out: { type: 'string' } }, gdprUsage);
  const [who, ...rest] = positionals;
  if (!who || rest.length > 0) throw new AdminInputError(`Give one e-mail address or account number.\nUsage: npm run admin -- ${gdprUsage}`);
  const user = await livingUser(context, who);
  const at = context.now();
  const id = randomUUID();
  const out = values.out ?? `minside-data-${user.id}-${osloToday(at)}.zip`;
  // One transaction: the request row exists while the data is collected (so the archive lists it, as a self-service one
  // lists its own), and a file that cannot be written rolls it back.
  const archive = await context.db.transaction(async (tx) => {
    await tx.insert(dataRequest).values({ id, userId: user.id, kind: 'export', status: 'pending', requestedAt: at, dueAt: at, details: { requestedBy: 'customerCentre' } });
    const zip = exportArchiveOf(await collectUserData(tx, user.id, context.config.identityProviderName, context.config.oidcKey), at);
    // Never over an existing file: personal data must not land on top of someone else's.
    try {
      writeFileSync(out, zip, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      throw new AdminInputError(`Cannot write ${out}: ${(error as Error).message}. Nothing was stored.`);
    }
    await tx
      .update(dataRequest)
      .set({ status: 'ready', completedAt: at, expiresAt: new Date(at.getTime() + EXPORT_RETENTION_DAYS * DAY_MS), archive: Buffer.from(zip), sizeBytes: zip.byteLength })
      .where(eq(dataRequest.id, id));
    return zip;
  });
  context.print(`Data export of ${user.email} written to ${out} (${archive.byteLength} bytes: minside-data.json and LESMEG.txt, as the self-service export).`);
  context.print(`Recorded as data request ${id} by the customer centre; the person can also download it on Min Side for ${EXPORT_RETENTION_DAYS} days.`);
}

/**
 * A request by letter or phone to delete the account: the self-service deletion with its
 * rules (privacy.requestDeletion, actor customerCentre), carried out at once by the
 * data-erasure job. Without --confirm it only shows what would happen.
 */
async function gdprErase(context: AdminContext, args: string[]): Promise<number | void> {
  const { values, positionals } = parse(args, { confirm: { type: 'boolean' } }, gdprUsage);
  const [who, ...rest] = positionals;
  if (!who || rest.length > 0) throw new AdminInputError(`Give one e-mail address or account number.\nUsage: npm run admin -- ${gdprUsage}`);
  const user = await livingUser(context, who);
  const history = await subscriberHistory(context, who);
  const running = history.subscriptions.filter((row) => row.status !== 'TERMINATED');
  const unpaid = history.invoices.filter((row) => row.status !== 'PAID');
  const preview = [
    `Erasing ${user.email} (account ${history.subscriber.accounts.join(', ') || 'none'}):`,
    `  subscriptions that end now: ${running.map((row) => `${row.titleCode} ${row.planName} [${row.status}]`).join(', ') || 'none'}`,
    `  kept without name for bookkeeping (5 years, ADR 015): ${history.invoices.length} invoices${
      unpaid.length
        ? ` (${unpaid.length} unpaid, ${formatKroner(
            unpaid.reduce((sum, row) => sum + row.amountOre, 0),
            { withOre: true },
          )})`
        : ''
    }, their payments, the change log`,
    '  deleted: the login, sessions, consents, addresses, mail, memberships and stored payment methods',
  ];
  if (!values.confirm) {
    for (const line of preview) context.print(line);
    throw new AdminInputError(`Nothing was done. Run again with --confirm once the person's identity and request are verified.`);
  }
  const [owned] = history.subscriptions;
  const title = owned ? context.catalogue.findByTitleCode(owned.titleCode) : undefined;
  try {
    await context.app.privacy.requestDeletion(user, { confirmConsequences: true, confirmPaymentHistory: true }, (title?.minsideUrl ?? '').replace(/\/$/, ''), 'customerCentre');
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) throw new AdminInputError(`Refused (${error.code}): ${error.message}`);
    throw error;
  }
  for (const line of preview) context.print(line);
  const run = await context.app.jobs.runNow('data-erasure').catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'JOB_RUNNING') return undefined;
    throw error;
  });
  const [request] = await context.db
    .select()
    .from(dataRequest)
    .where(and(eq(dataRequest.userId, user.id), eq(dataRequest.kind, 'erasure')));
  if (request?.status === 'completed') {
    context.print(`Erased at the customer centre's request (data request ${request.id}).`);
    return;
  }
  context.print(
    `Deletion is scheduled (data request ${request?.id}), not yet carried out: ${run ? `the data-erasure run ${run.outcome}${run.error ? ` (${run.error})` : ''}` : 'the data-erasure job is running on another instance'}. Its next run erases it; check with: npm run admin -- jobs`,
  );
  return 1;
}

export async function gdprCommand(context: AdminContext, args: string[]): Promise<number | void> {
  const [sub, ...rest] = args;
  if (sub === 'export') return gdprExport(context, rest);
  if (sub === 'erase') return gdprErase(context, rest);
  throw new AdminInputError(`${sub ? `Unknown gdpr command ${sub}.\n` : ''}Usage: npm run admin -- ${gdprUsage}`);
}
