import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendNoRoute } from '../plugins/errors.ts';
import { bootstrapElement, type PageBootstrap } from './spa-bootstrap.ts';
import { SCRIPT_LOADER_HASH, scriptLoader, takeModuleScripts } from './script-loader.ts';
import { loadServerRenderer, type InlineSvg, type RenderedDocument, type RenderedRedirect } from './spa-render.ts';

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

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The page without its `<link rel="stylesheet">` to `href`. */
function withoutStylesheet(html: string, href: string): string {
  const at = html.indexOf(`href="${href}"`);
  const start = html.lastIndexOf('<link', at);
  const end = html.indexOf('>', at);
  if (at === -1 || start === -1 || end === -1 || !html.slice(start, end).includes('rel="stylesheet"')) return html;
  return html.slice(0, start) + html.slice(end + 1);
}

/**
 * index.html around a page the server rendered (docs/decisions/032): the title's branding in
 * `<html>` and `<title>` (what the browser's title-theme.ts would set; the favicon it sets itself), the page's
 * stylesheets and chunks in `<head>`, and the markup in #root. Undefined when the template does
 * not have the shape Vite builds (the page is then sent without markup).
 */
function renderedTemplate(html: string, rendered: RenderedDocument): string | undefined {
  // Its scripts start after its first paint (pages/script-loader.ts): the page shows without them.
  const scripts = takeModuleScripts(html);
  if (!scripts) return undefined;
  const steps: [RegExp, (match: string) => string][] = [
    [/<html\b[^>]*>/, (tag) => tag.replace(/>$/, ` class="${escapeHtml(rendered.rootClass)}">`)],
    [/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(rendered.title)}</title>`],
    [/<\/head>/, (tag) => `${rendered.head}${scriptLoader([...new Set([...scripts.modules, ...rendered.modules])])}${tag}`],
    // Marked until the browser takes it over (apps/web/src/app/server-render.ts, SERVER_RENDERED_ATTRIBUTE).
    [/<div id="root"><\/div>/, () => `<div id="root" data-server-rendered>${rendered.root}</div>`],
  ];
  // The favicon is left to the browser's app (title-theme.ts sets it once running): it is the title's
  // own site's, another origin, and requested with the document it was a new connection the page's
  // first paint was simulated to wait on (Lighthouse: LCP 0.8 or 1.4 s by whether it came first).
  let page = scripts.html;
  // The stylesheets the rendered page has inline.
  for (const href of rendered.inlinedStylesheets) page = withoutStylesheet(page, href);
  for (const [pattern, replace] of steps) {
    if (!pattern.test(page)) return undefined;
    // A function, so that no `$` in the markup is read as a replacement pattern.
    page = page.replace(pattern, (match) => replace(match));
  }
  return page;
}

/** The encoding to send the page in: Brotli, else gzip, when the browser accepts it (q > 0). */
function pageEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const header = request.headers['accept-encoding'];
  const accepted = new Set(
    (typeof header === 'string' ? header : '')
      .split(',')
      .map((part) =>
        part
          .trim()
          .toLowerCase()
          .split(/\s*;\s*/),
      )
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
/** CSP sources of a page's inline styles and scripts. */
interface InlineHashes {
  styleHashes: string[];
  scriptHashes: string[];
}

export interface SpaOptions {
  /** The page's Content-Security-Policy with these inline styles and scripts allowed (a server-rendered page's styles and script loader). */
  csp?: (inline: InlineHashes) => string;
  /** The SVGs the server serves itself (the titles' wordmarks), for a server-rendered page's header. */
  inlineSvg?: InlineSvg;
}

export async function registerSpa(app: FastifyInstance, webDist: string | undefined, bootstrap?: PageBootstrap, options: SpaOptions = {}): Promise<void> {
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
  // The public pages' markup from the web build's server bundle, when the build has one (docs/decisions/032).
  const renderer = webDist && indexHtml && bootstrap && options.csp ? await loadServerRenderer(app, webDist, options.inlineSvg) : undefined;
  if (webDist && indexHtml && !renderer) app.log.info('The web build has no server bundle (dist/ssr): pages are rendered in the browser only');

  /** The page, and the inline styles its CSP must allow; or where the page load goes instead. */
  async function pageFor(request: FastifyRequest): Promise<({ html: string } & InlineHashes) | RenderedRedirect> {
    const plain = { html: indexHtml ?? '', styleHashes: [], scriptHashes: [] };
    // Only a browser loading the page gets the block: HEAD, and a request for something else
    // that fell through to the page (an <img>, a bot after /robots.txt), need no database
    // reads and must not slide the session's idle time.
    const destination = request.headers['sec-fetch-dest'];
    const forDocument = request.method === 'GET' && (destination === undefined || destination === 'document');
    if (!template || !bootstrap || !forDocument) return plain;
    let timer: NodeJS.Timeout | undefined;
    try {
      // A stalled database must not hold the page itself for the query timeout (30 s): after
      // a moment the page goes without the block, and the SPA's own calls show the outage.
      const gaveUp = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`bootstrap data took longer than ${BOOTSTRAP_WAIT_MS} ms`)), BOOTSTRAP_WAIT_MS);
      });
      const data = await Promise.race([bootstrap(request), gaveUp]);
      clearTimeout(timer);
      const rendered = await renderer?.render(request, data);
      if (rendered && 'redirect' in rendered) return rendered;
      const page = rendered && renderedTemplate(template.before, rendered);
      if (rendered && page) return { html: `${page}${bootstrapElement(data)}${rendered.data}${template.after}`, styleHashes: rendered.styleHashes, scriptHashes: [SCRIPT_LOADER_HASH] };
      return { ...plain, html: `${template.before}${bootstrapElement(data)}${template.after}` };
    } catch (error) {
      // The page still works without the block: the SPA then makes the calls itself.
      request.log.error({ err: error }, 'Could not build the bootstrap data for index.html');
      return plain;
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
    const answer = await pageFor(request);
    // Where the browser's router would go at once (an unknown address goes to /404, SPEC §2): said by the server, it works without JavaScript too.
    if ('redirect' in answer) return reply.redirect(answer.redirect, 302);
    const { html, ...inline } = answer;
    if ((inline.styleHashes.length > 0 || inline.scriptHashes.length > 0) && options.csp) reply.header('content-security-policy', options.csp(inline));
    const page = Buffer.from(html);
    reply.header('vary', 'accept-encoding');
    const encoding = pageEncoding(request);
    // A few kilobytes: Brotli at a middle level takes well under a millisecond.
    if (encoding === 'br')
      return reply.header('content-encoding', 'br').send(brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: page.length } }));
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzipSync(page, { level: 6 }));
    return reply.send(page);
  });
}
