import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { consentCookieName, optionalConsentPurposes, systemClock, type BootstrapData } from '@minside/domain';
import { createRenderLimiter } from './render-limiter.ts';

// docs/decisions/032: pages rendered on the server. The web build's server bundle
// (apps/web/dist/ssr/entry-server.mjs, from apps/web/src/entry-server.tsx) renders a page's markup;
// this file loads it, links the page's stylesheets and chunks from the client build's manifest,
// and keeps each rendered public page in memory per (title, path, consent bar): it reads the same
// for every signed-out visitor. A signed-in visitor's page is rendered for that page load alone,
// its calls made with the visitor's cookies, and never kept. Only markup is kept: the document
// around it, with the bootstrap block, is built per request and never stored (docs/decisions/022).

/** What the server bundle's `render` gives back (apps/web/src/entry-server.tsx, `RenderedPage`). */
interface RenderedPage {
  page: string;
  html: string;
  data: unknown;
  modules: string[];
  document: { title: string; favicon: string; rootClass: string; palette: { brand: string; onBrand: string; brandInk: string } };
  renderMs: number;
  /** Rounds of the page's own calls the render waited for (one when the page asks for all at once). */
  dataRounds: number;
}

/** The server bundle, as far as the server uses it. The apps share no code: the types are restated here. */
interface ServerBundle {
  /** Loads the modules of the pages it renders ahead of the first page load. */
  warmUp?(): Promise<void>;
  render(input: {
    url: string;
    bootstrap: BootstrapData;
    cookie: string;
    fetch: typeof fetch;
    svg: (url: string, options: { decorative: boolean }) => Promise<string>;
  }): Promise<RenderedPage | { redirect: string } | null>;
  SERVER_RENDER_ELEMENT_ID: string;
}

/** An SVG this server serves (a title's wordmark), as the page inlines it; undefined for any other. */
export type InlineSvg = (url: string, options: { decorative: boolean }) => string | undefined;

/** One entry of Vite's build manifest (apps/web/dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/** The parts of a server-rendered document that differ from index.html. */
export interface RenderedDocument {
  /** The markup inside #root. */
  root: string;
  /** Tags for the end of `<head>`: the page's styles (inline). */
  head: string;
  /** The page's own module chunks (`/assets/…js`, its area's), for the script loader (pages/script-loader.ts). */
  modules: string[];
  /** index.html's own stylesheets (`/assets/…css`), inlined in `head`: their `<link>`s go. */
  inlinedStylesheets: string[];
  /** The data block for the end of `<body>`, beside the bootstrap block. */
  data: string;
  title: string;
  rootClass: string;
  /** CSP hashes of the inline `<style>` in `head`. */
  styleHashes: string[];
}

/** Where the browser's router would send this page load at once: the server redirects instead. */
export interface RenderedRedirect {
  redirect: string;
}

export interface ServerRenderer {
  /** The rendered parts of this page load, a redirect, or undefined: not a page the server renders (for this visitor), or no render in time. */
  render(request: FastifyRequest, bootstrap: BootstrapData): Promise<RenderedDocument | RenderedRedirect | undefined>;
}

/** How long a rendered page is fresh: after it, the next page load still gets it, and it is rendered again for the ones after (a text or price change shows within this). */
const KEEP_MS = 5 * 60_000;
/** Rendered pages kept at most (a few dozen titles × a dozen pages × with and without the bar). */
const MAX_KEPT = 2000;
/**
 * A Host a page is rendered for: a name or an address, and a port — nothing else. The header is
 * the client's to write, and the page's address is built from it: `Host: a.no/vilkaar#` would
 * otherwise render another page than the path asks for.
 */
const plainHost = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
/**
 * A path the markup is kept for: as the route table spells a public page (lower case, no trailing
 * slash, nothing encoded). The router also matches `/KundeService/`; those are rendered but not
 * kept, so nobody can fill the store with spellings of one page.
 */
const keptPath = (pathname: string) => pathname === pathname.toLowerCase() && !/%|\/\/|.\/$/.test(pathname);
/** How long a page load waits for a render that is not kept yet; after it the page goes without markup and the render still finishes into the cache. */
const RENDER_WAIT_MS = 1000;
/**
 * Renders for one page load (a signed-in visitor's page; a public page at a spelling that is not
 * kept) under way at once, at most, per process (pages/render-limiter.ts). They wait mostly on
 * their own API calls' database answers, so a few at once keep the one event loop busy; more
 * would only make every page load and call wait. Kept public pages render once per 5 minutes and
 * need no limit.
 */
export const MAX_PAGE_LOAD_RENDERS = 4;
/** A render for one page load that has not finished after this gives its place back (and is logged). */
const RENDER_SLOT_MS = 10_000;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const isColour = (value: string) => /^#[0-9a-f]{3,8}$/i.test(value);

/** JSON for inside a `<script type="application/json">` (as pages/spa-bootstrap.ts writes the bootstrap block). */
function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The consent cookies (`_cmp_*`) as the server bundle reads them, normalised: 1, 0 or absent per purpose. */
function consentCookiesOf(request: FastifyRequest): string {
  const cookies = request.cookies ?? {};
  return optionalConsentPurposes
    .map((purpose) => consentCookieName(purpose))
    .filter((name) => cookies[name] !== undefined)
    .map((name) => `${name}=${cookies[name] === '1' ? '1' : '0'}`)
    .join('; ');
}

/** The page's assets for the given source modules: index.html's stylesheets, and the stylesheets and chunks it does not load itself. */
function assetsFrom(manifest: Record<string, ManifestChunk>) {
  const closure = (keys: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      manifest[key].imports?.forEach(visit);
    };
    keys.forEach(visit);
    return [...seen];
  };
  const documentKeys = new Set(closure(['index.html']));
  const documentCss = [...new Set([...documentKeys].flatMap((key) => manifest[key]?.css ?? []))];
  return (modules: string[]) => {
    const keys = closure(modules).filter((key) => !documentKeys.has(key));
    return {
      documentCss,
      css: [...new Set(keys.flatMap((key) => manifest[key]?.css ?? []))].filter((file) => !documentCss.includes(file)),
      js: keys.map((key) => manifest[key]!.file),
    };
  };
}

type AssetsOf = ReturnType<typeof assetsFrom>;

/**
 * Loads the server bundle beside the web build (`<webDist>/ssr/entry-server.mjs`) and the client
 * build's manifest; undefined when either is missing (`npm run dev`, an older build): the pages are
 * then served exactly as before, rendered by the browser.
 */
export async function loadServerRenderer(app: FastifyInstance, webDist: string, inlineSvg: InlineSvg = () => undefined): Promise<ServerRenderer | undefined> {
  const bundleFile = path.join(webDist, 'ssr', 'entry-server.mjs');
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  if (!existsSync(bundleFile) || !existsSync(manifestFile)) return undefined;
  const bundle = (await import(pathToFileURL(bundleFile).href)) as ServerBundle;
  await bundle.warmUp?.();
  const assetsOf = assetsFrom(JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>);
  const stylesheets = new Map<string, string>();
  const stylesheet = (file: string) => {
    let css = stylesheets.get(file);
    if (css === undefined) {
      css = readFileSync(path.join(webDist, file), 'utf8');
      stylesheets.set(file, css);
    }
    return css;
  };
  return createServerRenderer(app, bundle, assetsOf, stylesheet, inlineSvg, app.log);
}

function createServerRenderer(app: FastifyInstance, bundle: ServerBundle, assetsOf: AssetsOf, stylesheet: (file: string) => string, inlineSvg: InlineSvg, log: FastifyBaseLogger): ServerRenderer {
  const kept = new Map<string, { document: RenderedDocument; until: number }>();
  const rendering = new Map<string, Promise<RenderedDocument | RenderedRedirect | undefined>>();
  const pageLoadRenders = createRenderLimiter({ max: MAX_PAGE_LOAD_RENDERS, slotMs: RENDER_SLOT_MS, log });

  /**
   * The page's own calls, answered by this server, reads only: for a public page without the
   * visitor's cookies (public answers only: the markup is kept for everyone); for a signed-in
   * visitor's page with their cookies, so through the same session and authorization checks as
   * the browser's own calls would be.
   */
  const fetchFor =
    (host: string, visitorCookies?: string): typeof fetch =>
    async (resource, init) => {
      const method = init?.method ?? 'GET';
      if (method !== 'GET') throw new Error(`Server render: a page may only read (${method} ${String(resource)})`);
      const url = typeof resource === 'string' ? resource : resource instanceof URL ? resource.href : resource.url;
      // Only this page's own API: a page path would render a page inside the render, with the visitor's cookies.
      const target = new URL(url, `http://${host}`);
      if (target.host !== host || !target.pathname.startsWith('/api/')) throw new Error(`Server render: a page may only call this site's API (${url})`);
      const asked: Record<string, string> = { host, accept: new Headers(init?.headers).get('accept') ?? '*/*', 'sec-fetch-site': 'same-origin' };
      if (visitorCookies !== undefined) asked['cookie'] = visitorCookies;
      const answer = await app.inject({ method: 'GET', url, headers: asked });
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) if (typeof value === 'string') headers.set(name, value);
      return new Response(answer.statusCode === 204 ? null : answer.rawPayload, { status: answer.statusCode, headers });
    };

  /**
   * The document's parts. Every stylesheet the page needs is inlined, index.html's and the page's
   * area's, with the title's brand colours (what title-theme.ts sets in the browser): the page
   * paints with its first response, without waiting on a stylesheet (docs/decisions/032). The area's
   * stylesheets also get a `disabled` `<link>`, which the browser does not fetch: Vite's loader,
   * loading the area's chunk, takes it for loaded and does not fetch it either.
   */
  function documentOf(rendered: RenderedPage): RenderedDocument {
    const { palette } = rendered.document;
    const brand = [palette.brand, palette.onBrand, palette.brandInk].every(isColour) ? `:root{--brand:${palette.brand};--on-brand:${palette.onBrand};--brand-ink:${palette.brandInk}}` : '';
    const { documentCss, css, js } = assetsOf(rendered.modules);
    // The brand last: the stylesheets' own `:root` (tokens.css) sets a neutral default, which would
    // otherwise win and paint the page in it until the scripts set the title's.
    const style = [...[...documentCss, ...css].map(stylesheet), brand].join('\n');
    // A stylesheet cannot end the element (ours never would); if one did, it is linked instead.
    const inline = !/<\/style/i.test(style);
    const head = [...(inline ? [`<style>${style}</style>`] : []), ...css.map((file) => `<link rel="stylesheet" crossorigin href="/${escapeHtml(file)}"${inline ? ' disabled' : ''}>`)].join('');
    return {
      root: rendered.html,
      head,
      modules: js.map((file) => `/${file}`),
      inlinedStylesheets: inline ? documentCss.map((file) => `/${file}`) : [],
      data: `<script type="application/json" id="${bundle.SERVER_RENDER_ELEMENT_ID}">${serializeForScript(rendered.data)}</script>`,
      title: rendered.document.title,
      rootClass: rendered.document.rootClass,
      styleHashes: inline ? [`'sha256-${createHash('sha256').update(style).digest('base64')}'`] : [],
    };
  }

  const svg = async (url: string, options: { decorative: boolean }) => {
    const markup = inlineSvg(url, options);
    if (markup === undefined) throw new Error(`Server render: no SVG of ours at ${url}`);
    return markup;
  };

  /** Waits for a render at most RENDER_WAIT_MS; undefined after it (the render still finishes). */
  async function withinBudget<T>(pending: Promise<T>): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), RENDER_WAIT_MS);
    });
    try {
      return await Promise.race([pending, gaveUp]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A signed-in visitor's page: rendered for this page load with its bootstrap data (their session)
   * and their cookies, sent with it, and forgotten: never kept, never shared with another page load,
   * not even the same visitor's next. A render that fails or takes too long sends the page without.
   */
  async function renderForVisitor(request: FastifyRequest, bootstrap: BootstrapData): Promise<RenderedDocument | undefined> {
    const rendering = pageLoadRenders.run(() =>
      bundle.render({
        url: `${request.protocol}://${request.host}${request.url}`,
        bootstrap,
        cookie: consentCookiesOf(request),
        fetch: fetchFor(request.host, request.headers.cookie ?? ''),
        svg,
      }),
    );
    if (!rendering) return undefined;
    const document = rendering
      .then((rendered) => {
        // The browser's router makes a signed-in visitor's redirects (the server render gives none).
        if (!rendered || 'redirect' in rendered) return undefined;
        request.log.debug({ page: rendered.page, renderMs: Math.round(rendered.renderMs), dataRounds: rendered.dataRounds }, 'server-rendered a signed-in page');
        return documentOf(rendered);
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'Could not render the signed-in page on the server');
        return undefined;
      });
    return withinBudget(document);
  }

  async function renderNew(key: string, request: FastifyRequest, bootstrap: BootstrapData, cookie: string): Promise<RenderedDocument | RenderedRedirect | undefined> {
    try {
      const rendered = await bundle.render({ url: `${request.protocol}://${request.host}${request.url}`, bootstrap, cookie, fetch: fetchFor(request.host), svg });
      // A redirect is not kept: it may carry the query string, which the key leaves out.
      if (!rendered || 'redirect' in rendered) return rendered ?? undefined;
      request.log.debug({ page: rendered.page, renderMs: Math.round(rendered.renderMs), dataRounds: rendered.dataRounds }, 'server-rendered a page');
      const document = documentOf(rendered);
      // Kept only as the page the path names, spelt as the route table spells it.
      const pathname = request.url.split('?')[0] ?? '/';
      if (keptPath(pathname) && (rendered.data as { path?: unknown } | null)?.path === pathname) {
        if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
        kept.set(key, { document, until: performance.now() + KEEP_MS });
      }
      return document;
    } catch (error) {
      // The page still works without: the browser renders it, as before.
      log.error({ err: error }, 'Could not render the page on the server');
      return undefined;
    }
  }

  return {
    async render(request, bootstrap) {
      if (!plainHost.test(request.host)) return undefined;
      // Signed in: the page is that person's (the header says "Logg ut", a page shows their
      // subscription). Rendered for this page load alone, and never kept for anyone else.
      if (bootstrap.session !== null) return renderForVisitor(request, bootstrap);
      const pathname = request.url.split('?')[0] ?? '/';
      const cookie = consentCookiesOf(request);
      // Everything the markup is made of: the path, the title and what the server said about it,
      // the consent bar, and the footer's year. Another host of the same title shares it.
      const key = createHash('sha256')
        .update(JSON.stringify([pathname, cookie, bootstrap.title, bootstrap.clientConfig, bootstrap.maintenance, systemClock().getFullYear()]))
        .digest('base64url');
      const hit = kept.get(key);
      if (hit && hit.until > performance.now()) return hit.document;
      // Page loads of one address at the same moment share one render.
      const once = `${key}${request.url.slice(pathname.length)}`;
      let pending = rendering.get(once);
      if (!pending) {
        // A spelling that is not kept (`/KundeService/`) would render on every page load: limited as a signed-in page's render is.
        const started = keptPath(pathname) ? renderNew(key, request, bootstrap, cookie) : pageLoadRenders.run(() => renderNew(key, request, bootstrap, cookie));
        if (!started) return undefined;
        pending = started.finally(() => rendering.delete(once));
        rendering.set(once, pending);
      }
      // No longer fresh: this page load gets it as it is, while it is rendered anew.
      if (hit) return hit.document;
      return withinBudget(pending);
    },
  };
}
