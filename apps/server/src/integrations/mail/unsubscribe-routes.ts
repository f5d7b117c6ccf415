import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { apiErrorSchema, unsubscribeErrorCodes, unsubscribeMessages, unsubscribeQuerySchema, unsubscribeResponseSchema, type Clock, type UnsubscribeResponse } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { mailOptOut } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { optionalMailKindNames } from './kinds.ts';
import { escapeHtml } from './templates.ts';
import { readUnsubscribeToken, turnOff, UNSUBSCRIBE_PATH, type UnsubscribeTarget } from './unsubscribe.ts';

export interface UnsubscribeRouteOptions {
  db: Db;
  secret: string;
  catalogue: Pick<Catalogue, 'findByTitleCode'>;
  now: Clock;
}

const pageStyle =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1b1c1f;line-height:1.5}button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:0;background:#1b1c1f;color:#fff;cursor:pointer}a{color:#1b1c1f}';
const pageCsp = ["default-src 'none'", `style-src 'sha256-${createHash('sha256').update(pageStyle).digest('base64')}'`, "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');

/**
 * `/e-post/avmelding?token=…` (RFC 8058): outside `/api`, because a mail provider's one-click
 * POST comes from its own servers as a form, not as same-origin JSON; the signed token is its
 * only credential. POST turns the kind off (JSON, or a page for a browser's form); GET only
 * shows a page with the button, so a link scanner that follows the URL turns nothing off.
 */
export async function unsubscribeRoutes(fastify: FastifyInstance, options: UnsubscribeRouteOptions): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, secret, catalogue, now } = options;

  // RFC 8058 bodies (`List-Unsubscribe=One-Click`) come as a form or multipart; the token in the URL is all we read.
  const ignoreBody = (_request: FastifyRequest, _body: string, done: (error: null, body: undefined) => void) => done(null, undefined);
  app.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string', bodyLimit: 4 * 1024 }, ignoreBody);

  const titleName = (titleCode: string) => catalogue.findByTitleCode(titleCode)?.name ?? 'Min Side';
  const wantsPage = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

  const page = (reply: FastifyReply, status: number, heading: string, body: string) =>
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').header('content-security-policy', pageCsp).header('referrer-policy', 'no-referrer').send(`<!doctype html>
<html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(heading)}</title><style>${pageStyle}</style></head>
<body><main><h1>${escapeHtml(heading)}</h1>
${body}
</main></body></html>`);

  const invalidPage = (reply: FastifyReply) => page(reply, 400, 'Lenken virker ikke', `<p>${escapeHtml(unsubscribeMessages.linkInvalid)}</p>`);
  const doneMessage = (target: UnsubscribeTarget) => `Du får ikke lenger ${optionalMailKindNames[target.kind]} fra ${titleName(target.titleCode)} på e-post.`;

  app.get(UNSUBSCRIBE_PATH, { schema: { hide: true, querystring: unsubscribeQuerySchema } }, async (request, reply) => {
    const target = readUnsubscribeToken(secret, request.query.token);
    if (!target) return invalidPage(reply);
    const [already] = await db
      .select({ kind: mailOptOut.kind })
      .from(mailOptOut)
      .where(and(eq(mailOptOut.userId, target.userId), eq(mailOptOut.titleCode, target.titleCode), eq(mailOptOut.kind, target.kind)));
    const name = titleName(target.titleCode);
    if (already) return page(reply, 200, 'Du er meldt av', `<p>${escapeHtml(doneMessage(target))}</p>`);
    return page(
      reply,
      200,
      `Meld deg av e-post fra ${name}`,
      `<p>Vil du slutte å få ${escapeHtml(optionalMailKindNames[target.kind])} fra ${escapeHtml(name)} på e-post? Kvitteringer, fakturaer og koder får du fortsatt.</p>
<form method="post" action="${escapeHtml(`${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(request.query.token)}`)}"><button type="submit">Meld meg av</button></form>`,
    );
  });

  app.post(UNSUBSCRIBE_PATH, { schema: { querystring: unsubscribeQuerySchema, response: { 200: unsubscribeResponseSchema, 400: apiErrorSchema } } }, async (request, reply) => {
    const target = readUnsubscribeToken(secret, request.query.token);
    if (!target) {
      if (wantsPage(request)) return invalidPage(reply);
      throw new AppError(400, unsubscribeErrorCodes.linkInvalid, unsubscribeMessages.linkInvalid);
    }
    await turnOff(db, target, now());
    request.log.info({ titleCode: target.titleCode, kind: target.kind }, 'e-mail kind turned off by its unsubscribe link');
    const message = doneMessage(target);
    if (wantsPage(request)) return page(reply, 200, 'Du er meldt av', `<p>${escapeHtml(message)}</p>`);
    const body: UnsubscribeResponse = { result: 'unsubscribed', titleCode: target.titleCode, kind: target.kind, message };
    return reply.header('cache-control', 'no-store').send(body);
  });
}
