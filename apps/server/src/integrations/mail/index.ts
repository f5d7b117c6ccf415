import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

/**
 * Outgoing e-mail (ARCHITECTURE "e-mail"): every message is first written to `mail_outbox`
 * in the same transaction as the change that sends it, so a rolled-back change sends
 * nothing and a sent message is never lost. With SMTP_URL set the outbox is delivered with
 * nodemailer right after; without it the messages stay in the outbox, listed at /_dev/mail.
 */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Writes the message to the outbox inside the caller's transaction. */
  enqueue(tx: Pick<Db, 'insert'>, mail: OutgoingMail): Promise<string>;
  /** Hands unsent messages to the SMTP server (none without SMTP_URL). Returns how many were sent. */
  deliverPending(): Promise<number>;
  readonly delivers: boolean;
}

interface Transport {
  sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
}

export function createMailer(deps: { db: Db; smtpUrl: string | undefined; from: string; log: FastifyBaseLogger }): Mailer {
  const { db, smtpUrl, from, log } = deps;
  let transport: Promise<Transport> | undefined;
  const transportFor = (url: string) => (transport ??= import('nodemailer').then((nodemailer) => nodemailer.createTransport(url) as Transport));

  return {
    delivers: smtpUrl !== undefined,

    async enqueue(tx, mail) {
      const id = randomUUID();
      await tx.insert(mailOutbox).values({ id, to: mail.to, subject: mail.subject, text: mail.text });
      return id;
    },

    async deliverPending() {
      if (!smtpUrl) return 0;
      const pending = await db.select().from(mailOutbox).where(isNull(mailOutbox.sentAt)).orderBy(asc(mailOutbox.createdAt)).limit(20);
      let sent = 0;
      for (const mail of pending) {
        try {
          await (await transportFor(smtpUrl)).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
          // Claimed by the update: a second instance sending at the same moment finds it sent.
          const [claimed] = await db.update(mailOutbox).set({ sentAt: new Date(), lastError: null }).where(and(eq(mailOutbox.id, mail.id), isNull(mailOutbox.sentAt))).returning({ id: mailOutbox.id });
          if (claimed) sent += 1;
        } catch (error) {
          log.error({ err: error, mailId: mail.id }, 'could not send e-mail; it stays in the outbox');
          await db.update(mailOutbox).set({ lastError: error instanceof Error ? error.message.slice(0, 500) : 'unknown error' }).where(eq(mailOutbox.id, mail.id));
        }
      }
      return sent;
    },
  };
}
