import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, isNull, lt, lte, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailOptOut, mailOutbox } from '../../db/schema.ts';
import { occasionalSweep } from '../../lib/occasional-sweep.ts';
import { isValidEmail, systemClock, type Title } from '@minside/domain';
import { isOptionalMailKind, type OptionalMailKind, type TransactionalMailKind } from './kinds.ts';
import { mailboxOf, type MailDkimConfig } from '../../config/mail-sender.ts';
import { unsubscribeUrl, type UnsubscribeLinks } from './unsubscribe.ts';

export { subscriberMail, titleMail, type MailContent, type MailTitle } from './templates.ts';
export { mailKinds, type MailKind, type TransactionalMailKind } from './kinds.ts';

/** What the sender needs of the title a message is for: its name (From) and customer centre (Reply-To). */
type MailSender = Pick<Title, 'titleCode' | 'name' | 'customerCenterEmail'>;

/**
 * Outgoing e-mail (ARCHITECTURE "e-mail"): every message is first written to `mail_outbox`
 * in the same transaction as the change that sends it, so a rolled-back change sends
 * nothing and a sent message is never lost. With SMTP_URL set the outbox is delivered with
 * nodemailer right after, and again by the retry job (`deliverPending`) with backoff;
 * without it the messages stay in the outbox, listed at /_dev/mail and /_dev/mail.json.
 */
export type OutgoingMail = OutgoingMailBase &
  (
    | { kind: TransactionalMailKind }
    | {
        /** An optional kind (kinds.ts): it carries a one-click unsubscribe link and is skipped for a user who turned it off. */
        kind: OptionalMailKind;
        /** The recipient's login: whose choice the unsubscribe link changes. */
        userId: string;
      }
  );

interface OutgoingMailBase {
  to: string;
  /**
   * The title the message is for (ADR 010 "Sender"): From is `"{name}" <MAIL_FROM's address>`,
   * Reply-To its customer centre.
   */
  title: MailSender;
  subject: string;
  text: string;
  /** The HTML part (templates.ts `titleMail`); plain text only when absent. */
  html?: string;
  /**
   * One e-mail per key, however often the change is retried: a second enqueue with the same
   * key adds nothing and returns the first message's id.
   */
  idempotencyKey?: string;
}

export interface Mailer {
  /**
   * Writes the message to the outbox inside the caller's transaction. Returns the message id.
   * An optional kind the recipient turned off for the title is not queued (the id is still returned).
   */
  enqueue(tx: Pick<Db, 'insert' | 'select'>, mail: OutgoingMail): Promise<string>;
  /**
   * Hands due messages to the SMTP server (none without SMTP_URL): new ones, and failed ones
   * whose backoff has passed. Returns how many were sent. The retry job: call it on a schedule.
   */
  deliverPending(): Promise<number>;
  readonly delivers: boolean;
}

/** The `last_error` of a queued message not sent because its recipient turned its kind off meanwhile. */
export const MAIL_SKIPPED_OPTED_OUT = 'not sent: the recipient turned this kind of e-mail off';

/** After this many failed attempts a message stays in the outbox with its last error, for an operator. */
const MAIL_MAX_ATTEMPTS = 10;
/** While one instance sends a message, the others leave it alone this long. */
const SEND_LEASE_MS = 5 * 60 * 1000;

/** 1 min, 2 min, 4 min … at most 6 hours between attempts. */
function mailBackoffMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 60 * 60 * 1000);
}

interface SendableMessage {
  from: string | { name: string; address: string };
  replyTo?: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  messageId: string;
  headers?: Record<string, string>;
}

/** How long a message's text and HTML are kept: every link and code in them has expired by then. */
const MAIL_BODY_RETENTION_MS = 8 * 24 * 60 * 60_000;
export const REDACTED_MAIL_TEXT = '[Innholdet er fjernet: e-poster lagres bare i åtte dager.]';

interface MailTransport {
  sendMail(message: SendableMessage): Promise<unknown>;
}

export interface MailerDeps {
  db: Db;
  smtpUrl: string | undefined;
  /**
   * MAIL_FROM. Its address is every message's From address (the domain DKIM signs for); the
   * display name is the title's. Its own display name is used only for rows queued before issue 23.
   */
  from: string;
  /** DKIM signing (MAIL_DKIM_*); unset leaves signing to the SMTP relay, if it does. */
  dkim?: MailDkimConfig | undefined;
  /** Signs the one-click unsubscribe links of optional kinds, on the title's own Min Side. */
  unsubscribe: UnsubscribeLinks;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** Headers RFC 8058 wants covered by the DKIM signature, besides nodemailer's default list. */
const DKIM_HEADER_FIELDS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:' +
  'List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive';

/** The message nodemailer sends for an outbox row: the sender fixed when it was queued, MAIL_FROM's address. */
function sendableMessage(mail: typeof mailOutbox.$inferSelect, from: string): SendableMessage {
  const mailbox = mailboxOf(from);
  return {
    from: mail.fromName ? { name: mail.fromName, address: mailbox.address } : from,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    // A stable Message-ID: should a retry follow a send whose reply got lost, receivers can drop the copy.
    messageId: `<${mail.id}@minside>`,
    ...(mail.listUnsubscribe ? { headers: { 'List-Unsubscribe': `<${mail.listUnsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
  };
}

/** A keyed message gets an id derived from its key, so the primary key itself refuses the duplicate. */
function idFor(mail: OutgoingMail): string {
  return mail.idempotencyKey ? `mail-${createHash('sha256').update(mail.idempotencyKey).digest('base64url')}` : randomUUID();
}

export function createMailer(deps: MailerDeps): Mailer {
  const { db, smtpUrl, from, dkim, unsubscribe, log } = deps;
  const now = deps.now ?? systemClock;
  let transport: Promise<MailTransport> | undefined;
  const transportFor = (url: string) =>
    (transport ??= import('nodemailer').then(
      (nodemailer) =>
        nodemailer.createTransport({
          url,
          ...(dkim ? { dkim: { domainName: dkim.domainName, keySelector: dkim.keySelector, privateKey: dkim.privateKey, headerFieldNames: DKIM_HEADER_FIELDS } } : {}),
        }) as MailTransport,
    ));
  const optedOut = async (reader: Pick<Db, 'select'>, userId: string, titleCode: string, kind: string) =>
    (
      await reader
        .select({ kind: mailOptOut.kind })
        .from(mailOptOut)
        .where(and(eq(mailOptOut.userId, userId), eq(mailOptOut.titleCode, titleCode), eq(mailOptOut.kind, kind)))
        .limit(1)
    ).length > 0;
  // Bodies carry one-time links, codes and pay-links that are stored only as hashes elsewhere:
  // they are kept while they can be useful (for a retry, for /_dev/mail) and then blanked. The
  // row itself stays (who was sent what, when) for support and the data export.
  const redactOldBodies = occasionalSweep({
    intervalMs: 10 * 60_000,
    sweep: (at) =>
      db
        .update(mailOutbox)
        .set({ text: REDACTED_MAIL_TEXT, html: null })
        .where(and(lt(mailOutbox.createdAt, new Date(at.getTime() - MAIL_BODY_RETENTION_MS)), ne(mailOutbox.text, REDACTED_MAIL_TEXT))),
    onError: (error) => log.error({ err: error }, 'could not blank old e-mail bodies'),
  });

  return {
    delivers: smtpUrl !== undefined,

    async enqueue(tx, mail) {
      // The last line behind every form's check (issue 20): nothing is queued for an address the
      // product would not accept. Such an address can only be an old stored one (from before the
      // one validator, or from an issuer): the change that sends the mail still stands, and the
      // operator is told — a 500 here would fail the subscriber's action, and on the account
      // search would tell a caller that the number matched.
      const id = idFor(mail);
      if (!isValidEmail(mail.to)) {
        log.warn({ mailId: id, subject: mail.subject }, 'not queued: the stored recipient is not a valid e-mail address');
        return id;
      }
      const titleCode = mail.title.titleCode.toUpperCase();
      const optional = 'userId' in mail && isOptionalMailKind(mail.kind) ? { userId: mail.userId, kind: mail.kind } : undefined;
      if (optional && (await optedOut(tx, optional.userId, titleCode, optional.kind))) {
        log.info({ mailId: id, kind: mail.kind, titleCode }, 'not queued: the recipient turned this kind of e-mail off');
        return id;
      }
      await tx
        .insert(mailOutbox)
        .values({
          id,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html ?? null,
          idempotencyKey: mail.idempotencyKey ?? null,
          createdAt: now(),
          titleCode,
          fromName: mail.title.name,
          replyTo: isValidEmail(mail.title.customerCenterEmail) ? mail.title.customerCenterEmail : null,
          kind: mail.kind,
          userId: optional?.userId ?? null,
          listUnsubscribe: optional ? unsubscribeUrl(unsubscribe, { userId: optional.userId, titleCode, kind: optional.kind }) : null,
        })
        .onConflictDoNothing();
      return id;
    },

    async deliverPending() {
      await redactOldBodies(now());
      if (!smtpUrl) return 0;
      const started = now();
      const due = await db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(isNull(mailOutbox.sentAt), lt(mailOutbox.attempts, MAIL_MAX_ATTEMPTS), or(isNull(mailOutbox.nextAttemptAt), lte(mailOutbox.nextAttemptAt, started))))
        .orderBy(asc(mailOutbox.createdAt))
        .limit(20);
      let sent = 0;
      for (const { id } of due) {
        const at = now();
        // Claimed with a lease: another instance running the job at the same moment skips it.
        const [mail] = await db
          .update(mailOutbox)
          .set({ nextAttemptAt: new Date(at.getTime() + SEND_LEASE_MS) })
          .where(and(eq(mailOutbox.id, id), isNull(mailOutbox.sentAt), or(isNull(mailOutbox.nextAttemptAt), lte(mailOutbox.nextAttemptAt, at))))
          .returning();
        if (!mail) continue;
        // Turned off after it was queued (a retry, or the job ran later): it stays, marked, and is never sent.
        if (mail.userId && mail.titleCode && mail.kind && isOptionalMailKind(mail.kind) && (await optedOut(db, mail.userId, mail.titleCode, mail.kind))) {
          await db.update(mailOutbox).set({ lastError: MAIL_SKIPPED_OPTED_OUT, attempts: MAIL_MAX_ATTEMPTS, nextAttemptAt: null }).where(eq(mailOutbox.id, mail.id));
          continue;
        }
        try {
          await (await transportFor(smtpUrl)).sendMail(sendableMessage(mail, from));
          await db
            .update(mailOutbox)
            .set({ sentAt: now(), lastError: null, attempts: mail.attempts + 1, nextAttemptAt: null })
            .where(eq(mailOutbox.id, mail.id));
          sent += 1;
        } catch (error) {
          const attempts = mail.attempts + 1;
          const giveUp = attempts >= MAIL_MAX_ATTEMPTS;
          log[giveUp ? 'error' : 'warn']({ err: error, mailId: mail.id, attempts }, giveUp ? 'could not send e-mail; giving up, it stays in the outbox' : 'could not send e-mail; will retry');
          await db
            .update(mailOutbox)
            .set({
              lastError: error instanceof Error ? error.message.slice(0, 500) : 'unknown error',
              attempts,
              nextAttemptAt: new Date(now().getTime() + mailBackoffMs(attempts)),
            })
            .where(eq(mailOutbox.id, mail.id));
        }
      }
      return sent;
    },
  };
}
