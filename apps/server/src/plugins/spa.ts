import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendNoRoute } from './errors.ts';
import { bootstrapElement, type PageBootstrap } from './spa-bootstrap.ts';
import { loadServerRenderer } from './spa-render.ts';

/**
 * Paths that are never the SPA: an unknown one of these is a JSON 404, not index.html. A
 * hashed asset that is gone (an older build's chunk) is one too: a module script must fail
 * as such, not receive a page, and the page is built per request (docs/decisions/022).
 */
const nonSpaPrefixes = ['/api/', '/api', '/logos/', '/_dev/', '/idp/', '/assets/'];

/** How long a page waits for its bootstrap data before it is sent without (the SPA then asks itself). */
const BOOTSTRAP_WAIT_MS = 1500;

/** index.html cut where the bootstrap block goes: just before `</body>` (module scripts run after parsing). */
function splitTemplate(html: string): { before: string; after: string } {
  const at = html.lastIndexOf('</body>');
  return at === -1 ? { before: html, after: '' } : { before: html.slice(0, at), after: html.slice(at) };
}

/** The encoding to send the page in: Brotli, else gzip, when the browser accepts it (q > 0). */
function pageEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const header = request.headers['accept-encoding'];
  const accepted = new Set(
    (typeof header === 'string' ? header : '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(/\s*;\s*/))
      .filter(([, q]) => !q || !/^q=0(?:\.0*)?$/.test(q))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * Serves the built SPA: hashed assets cached for a year and sent Brotli- or gzip-compressed
 * when the browser accepts it, index.html for every other GET that asks for a page (the
 * client router then shows the route, or redirects to /404).
 *
 * With `bootstrap`, index.html carries what the SPA's first calls would answer (title, client
 * config, maintenance, session) as a JSON data block, so it starts without waiting on them
 * (docs/decisions/022). The page then holds the session of whoever asked for it: it is never
 * stored (`no-store`) and is built, and compressed, per request.
 */
export async function registerSpa(app: FastifyInstance, webDist: string | undefined, bootstrap?: PageBootstrap): Promise<void> {
  const indexFile = webDist ? path.join(webDist, 'index.html') : undefined;
  const indexHtml = indexFile && existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
  if (webDist && indexHtml) {
    await app.register(fastifyStatic, {
      root: path.resolve(webDist),
      index: false,
      // One route per built file: `/` and every client route fall through to index.html.
      wildcard: false,
      // The web build writes .br and .gz beside each text asset (apps/web/vite.config.ts).
      preCompressed: true,
      // The server render's bundle (docs/decisions/032) is the server's, not the browser's.
      globIgnore: ['ssr/**'],
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }
  const template = indexHtml === undefined ? undefined : splitTemplate(indexHtml);
  // The web build's server bundle (docs/decisions/032), loaded ahead of the pages it will render.
  const renderer = webDist && indexHtml && bootstrap ? await loadServerRenderer(app, webDist) : undefined;
  app.log.debug({ serverRender: renderer !== undefined }, renderer ? 'The web build’s server bundle is loaded' : 'The web build has no server bundle (dist/ssr): pages are rendered in the browser only');

  async function pageFor(request: FastifyRequest): Promise<string> {
    // Only a browser loading the page gets the block: HEAD, and a request for something else
    // that fell through to the page (an <img>, a bot after /robots.txt), need no database
    // reads and must not slide the session's idle time.
    const destination = request.headers['sec-fetch-dest'];
    const forDocument = request.method === 'GET' && (destination === undefined || destination === 'document');
    if (!template || !bootstrap || !forDocument) return indexHtml ?? '';
    let timer: NodeJS.Timeout | undefined;
    try {
      // A stalled database must not hold the page itself for the query timeout (30 s): after
      // a moment the page goes without the block, and the SPA's own calls show the outage.
      const gaveUp = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`bootstrap data took longer than ${BOOTSTRAP_WAIT_MS} ms`)), BOOTSTRAP_WAIT_MS);
      });
      return `${template.before}${bootstrapElement(await Promise.race([bootstrap(request), gaveUp]))}${template.after}`;
    } catch (error) {
      // The page still works without the block: the SPA then makes the calls itself.
      request.log.error({ err: error }, 'Could not build the bootstrap data for index.html');
      return indexHtml ?? '';
    } finally {
      clearTimeout(timer);
    }
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !nonSpaPrefixes.some((prefix) => pathname === prefix || pathname.startsWith(prefix));
    if (!indexHtml || !wantsPage) return sendNoRoute(app, request, reply);
    // `private` as well: an edge cache set to keep HTML whatever the origin says must still
    // leave a page that holds someone's session alone (docs/operations.md).
    reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').header('cross-origin-resource-policy', 'same-origin');
    // Compressed here: @fastify/compress (app.ts) handles route answers, not this fallback's.
    const page = Buffer.from(await pageFor(request));
    reply.header('vary', 'accept-encoding');
    const encoding = pageEncoding(request);
    // A few kilobytes: Brotli at a middle level takes well under a millisecond.
    if (encoding === 'br') return reply.header('content-encoding', 'br').send(brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: page.length } }));
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzipSync(page, { level: 6 }));
    return reply.send(page);
  });
}
