import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { escapeHtml } from './templates.ts';
import { mailboxOf } from '../../config/mail-sender.ts';

/** Links in a plain-text mail, clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

const LIMIT = 50;

/** Rendered mail HTML has inline styles only; nothing in it may run or load from elsewhere. */
const mailHtmlCsp = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'none'";

/**
 * The list page's one style element, allowed by its hash: under the SPA's CSP (`style-src
 * 'self'`) the browser refused it and reported a violation (issue 20.10).
 */
const listStyle =
  'body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1b1c1f}article{border:1px solid #dcd9d1;border-radius:12px;padding:1rem 1.5rem;margin:1rem 0}pre{white-space:pre-wrap;font:inherit}.meta{color:#4c5058}';
const listCsp = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(listStyle).digest('base64')}'`,
  // The e2e journeys read /_dev/mail.json with fetch from this page.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * GET /_dev/mail (a page), /_dev/mail.json (the same, for e2e tests: newest first) and
 * /_dev/mail/{id}.html (one mail's HTML part): the outbox, for the embedded default without
 * SMTP (README "E-mail"). Registered only when no SMTP server is configured and the site is
 * not served over https, so it never exists in production.
 */
export function registerDevMailPage(app: FastifyInstance, db: Db, mailFrom: string): void {
  const newest = () => db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id)).limit(LIMIT);
  // The From header as the sender writes it (ADR 010 "Sender"): the title's name, MAIL_FROM's address.
  const fromOf = (mail: typeof mailOutbox.$inferSelect) => (mail.fromName ? `"${mail.fromName}" <${mailboxOf(mailFrom).address}>` : mailFrom);

  app.get('/_dev/mail', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await newest();
    const items = mails
      .map(
        (mail) => `<article>
  <h2>${escapeHtml(mail.subject)}</h2>
  <p class="meta">Fra ${escapeHtml(fromOf(mail))}${mail.replyTo ? ` · Svar til ${escapeHtml(mail.replyTo)}` : ''}</p>
  <p class="meta">Til <strong>${escapeHtml(mail.to)}</strong> · ${mail.createdAt.toISOString()}${mail.kind ? ` · ${escapeHtml(mail.kind)}` : ''}${mail.html ? ` · <a href="/_dev/mail/${encodeURIComponent(mail.id)}.html">Vis som HTML</a>` : ''}${mail.listUnsubscribe ? ` · <a href="${escapeHtml(mail.listUnsubscribe)}">Meld av (List-Unsubscribe)</a>` : ''}</p>
  <pre>${linkify(mail.text)}</pre>
</article>`,
      )
      .join('\n');
    const html = `<!doctype html>
<html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Utgående e-post (utvikling)</title>
<style>${listStyle}</style>
</head><body>
<h1>Utgående e-post</h1>
<p>Ingen SMTP-server er satt opp (SMTP_URL), så e-post blir liggende her. Nyeste først. Som JSON: <a href="/_dev/mail.json">/_dev/mail.json</a>.</p>
${items || '<p>Ingen e-post ennå.</p>'}
</body></html>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('content-security-policy', listCsp).send(html);
  });

  app.get('/_dev/mail.json', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await newest();
    return reply.header('cache-control', 'no-store').send(
      mails.map((mail) => ({
        id: mail.id,
        from: fromOf(mail),
        replyTo: mail.replyTo,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        kind: mail.kind,
        listUnsubscribe: mail.listUnsubscribe,
        createdAt: mail.createdAt.toISOString(),
      })),
    );
  });

  app.get('/_dev/mail/:file', { schema: { hide: true, params: z.object({ file: z.string().regex(/^[\w-]+\.html$/) }) } }, async (request, reply) => {
    const id = (request.params as { file: string }).file.replace(/\.html$/, '');
    const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    if (!mail?.html) return reply.status(404).type('text/plain; charset=utf-8').send('Fant ikke e-posten.');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('content-security-policy', mailHtmlCsp).send(mail.html);
  });
}
