import { writeFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { carrierFeedQuerySchema, creditInvoiceBodySchema, formatKroner, instStatusName, lastDayWithAccess, osloToday, renewalDay, toCsv } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import { appUser, mailOutbox, titleMaintenance } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import { REDACTED_MAIL_TEXT } from '../integrations/mail/index.ts';
import { carrierFeed } from '../modules/delivery/index.ts';
import { recordSource, sourcesOf } from '../modules/profile/index.ts';
import { AdminInputError, parse, type AdminCommand, type AdminContext } from './args.ts';
import { bankCommand, bankUsage } from './bank.ts';
import { catalogueCommand, catalogueUsage, contactsCommand, contactsUsage } from './catalogue.ts';
import { gdprCommand, gdprUsage } from './gdpr.ts';
import { findSubscriber, subscriberHistory, type SubscriberHistory } from './subscriber.ts';

export { AdminInputError, type AdminCommand, type AdminContext } from './args.ts';
export { type SubscriberHistory } from './subscriber.ts';

/** A title of the catalogue the portal serves, or a clear error naming the code. */
function offeredTitle(catalogue: Catalogue, code: string | undefined, usage: string) {
  if (!code) throw new AdminInputError(`Missing title code.\nUsage: npm run admin -- ${usage}`);
  const title = catalogue.findByTitleCode(code);
  if (!title || title.excluded) throw new AdminInputError(`Unknown title code ${code}: no title in the catalogue has it.`);
  return title;
}

const maintenanceUsage = 'maintenance <TITLE> on|off [--message <text>]';

/** Turns one title's maintenance page on or off (the row /api/maintenanceTitle reads; MAINTENANCE=on still wins for all). */
async function setMaintenance(context: AdminContext, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { message: { type: 'string' } }, maintenanceUsage);
  const [code, state, ...rest] = positionals;
  const title = offeredTitle(context.catalogue, code, maintenanceUsage);
  if ((state !== 'on' && state !== 'off') || rest.length > 0) throw new AdminInputError(`Say on or off.\nUsage: npm run admin -- ${maintenanceUsage}`);
  const enabled = state === 'on';
  const message = values.message?.trim();
  const at = context.now();
  await context.db
    .insert(titleMaintenance)
    .values({ titleCode: title.titleCode, enabled, message: message || null, updatedAt: at })
    .onConflictDoUpdate({ target: titleMaintenance.titleCode, set: { enabled, updatedAt: at, ...(message ? { message } : {}) } });
  const global = context.config.maintenance ? ' Note: MAINTENANCE=on is set, so every title is in maintenance regardless.' : '';
  context.print(`Maintenance for ${title.titleCode} (${title.name}) is now ${state}.${global}`);
}

const resendUsage = 'resend-mail <mailId>';

/** Puts a message of the outbox back in the queue, as if new: the mail-outbox job sends it again. */
async function resendMail(context: AdminContext, args: string[]): Promise<void> {
  const { positionals } = parse(args, {}, resendUsage);
  const [id, ...rest] = positionals;
  if (!id || rest.length > 0) throw new AdminInputError(`Usage: npm run admin -- ${resendUsage}`);
  const [mail] = await context.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  if (!mail) throw new AdminInputError(`No e-mail with id ${id} in the outbox.`);
  // Its one-time links and codes have expired by the time the body is blanked: sending the placeholder helps no one.
  if (mail.text === REDACTED_MAIL_TEXT) throw new AdminInputError(`E-mail ${id} is too old to resend: its body has been removed (bodies are kept eight days).`);
  await context.db.update(mailOutbox).set({ sentAt: null, attempts: 0, nextAttemptAt: null, lastError: null }).where(eq(mailOutbox.id, id));
  const how = context.config.smtpUrl ? 'the mail-outbox job sends it on its next run (or: run-job mail-outbox)' : 'SMTP_URL is not set, so it stays in the outbox (/_dev/mail)';
  context.print(`E-mail ${id} to ${mail.to} ("${mail.subject}") is queued again; ${how}.`);
}

const creditUsage = 'credit-invoice <ariaInvoiceNo> --reason "Reklamasjon på levering"';

/** Credits a whole invoice with a credit note (issue 23), as POST /api/operator/invoice/{no}/credit. */
async function creditInvoice(context: AdminContext, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { reason: { type: 'string' } }, creditUsage);
  const [no, ...rest] = positionals;
  const body = creditInvoiceBodySchema.safeParse({ reason: values.reason });
  if (!no || !/^\d+$/.test(no) || rest.length > 0 || !body.success) throw new AdminInputError(`Give the invoice number and a reason (at most 200 characters).\nUsage: npm run admin -- ${creditUsage}`);
  try {
    const credited = await context.app.invoiceCrediting.creditInvoice(Number(no), body.data.reason);
    context.print(
      `Invoice ${no} credited: credit note ${credited.creditNoteNumber}${credited.refunded ? ', the payment refunded at the provider' : ', the invoice is no longer payable'}; the subscriber is e-mailed.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof AppError) throw new AdminInputError(`Invoice ${no} not credited: ${error.message} (${error.code})`);
    throw error;
  }
}

const birthdateUsage = 'correct-birthdate <email|accountNo> YYYY-MM-DD';

/**
 * The customer centre corrects a birthdate the subscriber declared at a purchase, or typed (issue
 * 24, ADR 028): recorded as the customer centre's, locked against the subscriber's own edits. An
 * issuer's verified birthdate is not ours to correct: it changes at the issuer.
 */
async function correctBirthdate(context: AdminContext, args: string[]): Promise<void> {
  const { positionals } = parse(args, {}, birthdateUsage);
  const [who, birthdate, ...rest] = positionals;
  const today = osloToday(context.now());
  if (!who || !birthdate || rest.length > 0 || !z.iso.date().safeParse(birthdate).success || birthdate > today || birthdate < '1900-01-01') {
    throw new AdminInputError(`Give a subscriber and a birthdate that exists (YYYY-MM-DD, not in the future).\nUsage: npm run admin -- ${birthdateUsage}`);
  }
  const userId = await findSubscriber(context, who);
  const sources = await sourcesOf(context.db, userId);
  const current = sources.birthdate;
  if (current?.source === 'ISSUER' && current.verified)
    throw new AdminInputError(`The birthdate is verified by ${current.issuerLabel ?? 'the issuer'}: it is corrected there, and the next login brings it.`);
  await context.db.transaction(async (tx) => {
    await tx.update(appUser).set({ birthdate }).where(eq(appUser.id, userId));
    await recordSource(tx, userId, 'birthdate', { source: 'CUSTOMER_SERVICE', issuerLabel: null, verified: false }, context.now());
  });
  context.print(`Birthdate of ${who} set to ${birthdate} by the customer centre; the subscriber cannot change it on Min Side.`);
}

const feedUsage = 'delivery-feed --title ADR --date YYYY-MM-DD [--out feed.csv]';

/** The carrier feed of one title and day as CSV (the same rows as GET /api/operator/delivery-feed). */
async function deliveryFeed(context: AdminContext, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { title: { type: 'string' }, date: { type: 'string' }, out: { type: 'string' } }, feedUsage);
  const query = carrierFeedQuerySchema.safeParse({ title: values.title, date: values.date });
  if (!query.success || positionals.length > 0) throw new AdminInputError(`Give a title code and a date (YYYY-MM-DD).\nUsage: npm run admin -- ${feedUsage}`);
  const title = offeredTitle(context.catalogue, query.data.title, feedUsage);
  const rows = await carrierFeed({ db: context.db, catalogue: context.catalogue, cutoffTime: context.config.deliveryCutoffTime }, title.titleCode, query.data.date);
  const csv = toCsv(rows);
  if (values.out) {
    writeFileSync(values.out, csv);
    context.print(`${rows.length} rows for ${title.titleCode} on ${query.data.date} written to ${values.out}.`);
  } else {
    context.write(csv);
  }
}

/** The history as lines an operator reads down, newest first within each section. */
function historyText(history: SubscriberHistory): string[] {
  const lines = [`${history.subscriber.name || '(no name)'} <${history.subscriber.email}>, account ${history.subscriber.accounts.join(', ') || '(none)'}`];
  const section = (heading: string, items: string[]) => {
    lines.push('', `${heading} (${items.length})`, ...(items.length ? items.map((item) => `  ${item}`) : ['  none']));
  };
  section(
    'Subscriptions',
    history.subscriptions.map(
      (row) =>
        `${row.titleCode} ${row.planName} [${row.status}] ${row.billingPeriod} ${formatKroner(row.priceOre, { withOre: true })}, ${row.paymentMethod}; started ${row.startedOn}, paid through ${lastDayWithAccess(row.currentPeriodEnd)} (renews ${renewalDay(row.currentPeriodEnd)})${row.cancelledAt ? `, cancelled ${row.cancelledAt}` : ''}${row.pendingPlanName ? `, changes to ${row.pendingPlanName} on ${row.pendingChangeOn}` : ''} (id ${row.id})`,
    ),
  );
  section(
    'Change log',
    history.changeLog.map(
      (row) =>
        `${row.at} ${titleLabel(history, row.subscriptionId)} ${row.kind} by ${row.actor}${row.fromStatusCode !== null || row.toStatusCode !== null ? ` (status ${statusLabel(row.fromStatusCode)} -> ${statusLabel(row.toStatusCode)})` : ''}${Object.keys(row.details).length ? ` ${JSON.stringify(row.details)}` : ''}`,
    ),
  );
  section(
    'Delivery changes',
    history.deliveryChanges.map(
      (row) =>
        `${row.placedAt} ${titleLabel(history, row.subscriptionId)} ${row.type} ${row.fromDate}${row.toDate ? `..${row.toDate}` : '..'} [${row.status}]${row.address ? ` to ${row.address.street} ${row.address.streetNumber}, ${row.address.postalCode} ${row.address.town}` : ''}`,
    ),
  );
  section(
    'Complaints',
    history.complaints.map(
      (row) =>
        `${row.createdAt} case ${row.caseNo} ${titleLabel(history, row.subscriptionId)} ${row.code} on ${row.days.map((day) => day.issueDate).join(', ')}, remedy ${row.remedy}${row.flagged ? ' [flagged: repeat]' : ''}`,
    ),
  );
  section(
    'Invoices',
    history.invoices.map(
      (row) =>
        `${row.ariaInvoiceNo} ${row.titleCode} ${row.periodFrom}..${row.periodTo} ${formatKroner(row.amountOre, { withOre: true })} due ${row.dueOn} [${row.status}]${row.paidAt ? ` paid ${row.paidAt}${row.settledBy ? ` by ${row.settledBy}` : ''}` : ''}`,
    ),
  );
  section(
    'Credits to pay back through the bank',
    history.creditsToPayBack.map((row) => `credit note ${row.creditNoteNumber} ${formatKroner(row.amountOre, { withOre: true })}, handed over ${row.handedOverAt} (the subscription was withdrawn)`),
  );
  return lines;
}

function titleLabel(history: SubscriberHistory, subscriptionId: string): string {
  return history.subscriptions.find((row) => row.id === subscriptionId)?.titleCode ?? subscriptionId;
}

function statusLabel(code: number | null): string {
  return code === null ? '-' : (instStatusName(code) ?? String(code));
}

const historyUsage = 'history <email|accountNo> [--json]';

async function printHistory(context: AdminContext, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } }, historyUsage);
  const [who, ...rest] = positionals;
  if (!who || rest.length > 0) throw new AdminInputError(`Usage: npm run admin -- ${historyUsage}`);
  const history = await subscriberHistory(context, who);
  if (values.json) context.print(JSON.stringify(history));
  else for (const line of historyText(history)) context.print(line);
}

/**
 * The operator commands (issue 11 item 5). Add a command here: it runs against whatever
 * database the configuration names, with the whole app built as the server builds it, so it
 * uses the same services and rules as the API.
 */
export const adminCommands: Record<string, AdminCommand> = {
  jobs: {
    usage: 'jobs [--json]',
    summary: 'List the scheduled jobs with their schedule and last run',
    async run({ app, print }, args) {
      const { values } = parse(args, { json: { type: 'boolean' } }, 'jobs [--json]');
      const jobs = await app.jobs.status();
      if (values.json) {
        print(JSON.stringify({ jobs }));
        return;
      }
      for (const job of jobs) {
        const last = job.lastRun;
        const lastText = last
          ? `${last.outcome}${job.running ? ' (running)' : ''} at ${last.startedAt}${last.durationMs === null ? '' : ` in ${last.durationMs} ms`} on ${last.instance}${last.error ? ` — ${last.error}` : ''}`
          : 'never run';
        print(`${job.name.padEnd(24)} ${job.schedule.padEnd(28)} next ${job.nextRunAt}  last: ${lastText}`);
      }
    },
  },
  'run-job': {
    usage: 'run-job <name>',
    summary: 'Run one job now (claimed like a scheduled run: refused while it runs elsewhere)',
    async run({ app, print }, args) {
      const [name] = args;
      const names = app.jobs.jobs.map((job) => job.name);
      if (!name || !names.includes(name)) throw new AdminInputError(`${name ? `Unknown job ${name}.\n` : ''}Usage: npm run admin -- run-job <name>\nJobs: ${names.join(', ')}`);
      const run = await app.jobs.runNow(name).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'JOB_RUNNING') throw new AdminInputError(`Job ${name} is running on another instance; try again when it has finished.`);
        throw error;
      });
      print(JSON.stringify(run));
      return run.outcome === 'succeeded' ? 0 : 1;
    },
  },
  maintenance: { usage: maintenanceUsage, summary: "Turn one title's maintenance page on or off", run: setMaintenance },
  'resend-mail': { usage: resendUsage, summary: 'Queue an e-mail of the outbox again (not once its body is removed)', run: resendMail },
  'correct-birthdate': { usage: birthdateUsage, summary: "Correct a subscriber's declared or typed birthdate as the customer centre (issue 24)", run: correctBirthdate },
  'credit-invoice': { usage: creditUsage, summary: 'Credit a whole invoice with a credit note: cancel it when unpaid, refund a Vipps or card payment (issue 23)', run: creditInvoice },
  'delivery-feed': { usage: feedUsage, summary: 'The carrier feed of one title and day as CSV (stdout or --out)', run: deliveryFeed },
  history: { usage: historyUsage, summary: "A subscriber's subscriptions, change log, delivery changes, complaints and invoices (read-only)", run: printHistory },
  catalogue: { usage: catalogueUsage, summary: 'Validate, diff and store a title catalogue as the new version; write one out; list versions (ADR 019)', run: catalogueCommand },
  contacts: { usage: contactsUsage, summary: "Change one title's customer-centre phone and e-mail as a new catalogue version", run: contactsCommand },
  bank: {
    usage: bankUsage,
    summary: 'Bank files (issue 21): import one, exchange with the bank (SFTP or folder), write the day’s AvtaleGiro claims, the settlement CSV, what needs a person',
    run: bankCommand,
  },
  gdpr: { usage: gdprUsage, summary: 'Data export or erasure asked for by letter or phone, as the self-service ones (ADR 015)', run: gdprCommand },
};

export function adminUsage(): string {
  const line = ({ usage, summary }: AdminCommand) => (usage.length <= 60 ? `  ${usage.padEnd(60)} ${summary}` : `  ${usage}\n  ${' '.repeat(60)} ${summary}`);
  return ['Usage: npm run admin -- <command>', ...Object.values(adminCommands).map(line)].join('\n');
}
