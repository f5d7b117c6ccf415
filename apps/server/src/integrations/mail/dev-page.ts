import type { FastifyInstance } from 'fastify';
import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

/** Links in a plain-text mail, clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

/**
 * GET /_dev/mail: the outbox as a page, for the embedded default without SMTP (README
 * "E-mail"). Registered only when no SMTP server is configured and the site is not served
 * over https, so it never exists in production.
 */
export function registerDevMailPage(app: FastifyInstance, db: Db): void {
  app.get('/_dev/mail', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(50);
    const items = mails
      .map(
        (mail) => `<article>
  <h2>${escapeHtml(mail.subject)}</h2>
  <p class="meta">Til <strong>${escapeHtml(mail.to)}</strong> · ${mail.createdAt.toISOString()}</p>
  <pre>${linkify(mail.text)}</pre>
</article>`,
      )
      .join('\n');
    const html = `<!doctype html>
<html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Utgående e-post (utvikling)</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1b1c1f}article{border:1px solid #dcd9d1;border-radius:12px;padding:1rem 1.5rem;margin:1rem 0}pre{white-space:pre-wrap;font:inherit}.meta{color:#4c5058}</style>
</head><body>
<h1>Utgående e-post</h1>
<p>Ingen SMTP-server er satt opp (SMTP_URL), så e-post blir liggende her. Nyeste først.</p>
${items || '<p>Ingen e-post ennå.</p>'}
</body></html>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });
}
