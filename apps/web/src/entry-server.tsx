// The server render (docs/decisions/032): built by `vite build --ssr` into dist/ssr/entry-server.mjs
// and loaded by the server (apps/server/src/plugins/spa-render.ts), which calls `render` for a page
// load of a public page and puts the markup into #root. The browser then hydrates it (main.tsx).
// Only this file and what it imports run on the server; none of it is in the browser's bundle
// beyond what the browser imports anyway.
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from './lib/router/index.ts';
import type { Query, QueryClient } from './lib/query/index.ts';
import type { BootstrapData } from '@minside/domain';
import { AppProviders } from './app/app.tsx';
import { seedFromBootstrap } from './app/bootstrap.ts';
import { pages, type Area, type PageKey } from './app/paths.ts';
import { createQueryClient } from './app/query-client.ts';
import { createRoutes } from './app/routes.tsx';
import { SERVER_RENDER_ELEMENT_ID, SERVER_RENDER_VERSION, type RenderedQuery, type ServerRenderData } from './app/server-render.ts';
import { titleDocument } from './app/title-theme.ts';
import { identity } from './features/auth/index.ts';
import { loadConsentBar, preloadConsentBar } from './features/privacy/index.ts';
import { setServerScope, type PageScope } from './lib/page-scope.ts';
import { renderedPageFor, renderIdentity, signedInServerPages } from './app/signed-in-render.ts';

export { SERVER_RENDER_ELEMENT_ID };

/**
 * The pages the server renders: the public ones that read the same for every signed-out visitor
 * of a title (issue 27 §1). The others (login, the purchase returns, every signed-in page) are
 * rendered by the browser as before.
 */
export const serverRenderedPages = [
  'customerService',
  'notFound',
  'maintenance',
  'terms',
  'businessTerms',
  'moreTerms',
  'privacy',
  'privacyDetails',
  'cookiePolicy',
  'data',
  'student',
  'newPrices',
] as const satisfies readonly PageKey[];

/** Source modules whose chunks (with their stylesheets) a rendered page needs, as the client build's manifest names them. */
const areaModule = (area: Area) => `src/features/${area}/routes.ts`;
const consentBarModule = 'src/features/privacy/components/consent-banner.tsx';

export interface RenderInput {
  /** The page's address (absolute). Its query string is not rendered: the markup is the path's. */
  url: string;
  /** The page's bootstrap block (docs/decisions/022): the title, and who is signed in, if anybody. */
  bootstrap: BootstrapData;
  /** The request's consent cookies (`_cmp_*`), as a Cookie header: whether the first-visit bar shows. */
  cookie: string;
  /** For the page's own calls (its text, prices; a signed-in visitor's own data), answered by the server itself, as the visitor. */
  fetch: typeof fetch;
  /** The title's logo, inlined as the browser would (lib/load-svg.ts): the server serves it itself. */
  svg: PageScope['svg'];
}

/** Where the browser's router would send a signed-out visitor from this address: the server says so with a redirect. */
export interface RenderedRedirect {
  redirect: string;
}

export interface RenderedPage {
  page: PageKey;
  /** The markup for #root. */
  html: string;
  /** The second data block's content (app/server-render.ts): the answers the markup was rendered with. */
  data: ServerRenderData;
  /** Source modules (client build manifest keys) whose chunks and stylesheets the page needs. */
  modules: string[];
  /** The title's branding of the document: `<title>`, favicon, the root class and brand colours. */
  document: ReturnType<typeof titleDocument>;
  /** Milliseconds the render took, data included. */
  renderMs: number;
  /** Rounds of the page's own calls the render waited for: one when the page asks for all its data at once. */
  dataRounds: number;
}

const scope = new AsyncLocalStorage<PageScope>();
setServerScope(() => {
  const current = scope.getStore();
  if (!current) throw new Error('Server render: the page was asked about outside a render');
  return current;
});

/** The guard's session check outside a page load (warming up): nobody. */
const signedOut = renderIdentity(null);

/** Loads the modules of the pages the server renders (and the consent bar), so that no first page load waits on them. */
export async function warmUp(): Promise<void> {
  const routes = createRoutes({ queryClient: createQueryClient(), identity: signedOut, identityProviderName: '' });
  const rendered = new Set<string>([...serverRenderedPages, ...signedInServerPages]);
  const pageRoutes = (routes[0]?.children ?? []).filter((route) => route.id !== undefined && rendered.has(route.id));
  await Promise.all([...pageRoutes.map((route) => (typeof route.lazy === 'function' ? route.lazy() : undefined)), loadConsentBar()]);
}

/** A query the page asked for whose answer the cache does not have yet. */
function isWaiting(query: Query): boolean {
  const { enabled } = query.options as { enabled?: unknown };
  return query.state.status === 'pending' && query.state.fetchStatus === 'idle' && enabled !== false && typeof enabled !== 'function';
}

/** Fetches what the last render asked for; false when it asked for nothing new. */
async function fetchWaiting(queryClient: QueryClient): Promise<boolean> {
  const waiting = queryClient.getQueryCache().getAll().filter(isWaiting);
  await Promise.all(waiting.map((query) => queryClient.fetchQuery({ ...query.options, queryKey: query.queryKey, retry: false }).catch(() => undefined)));
  return waiting.length > 0;
}

/** How many renders a page may take to ask for all its data (a call that waits on another's answer asks one render later). */
const MAX_PASSES = 3;

/**
 * A page load: the markup of a public page, or of a signed-in visitor's page (app/signed-in-render.ts)
 * for that visitor; or, where the browser's router would redirect a signed-out visitor at once (an
 * address no route has, an old address, maintenance), that redirect; or null, when the browser is
 * to render the page as before (every other page).
 * A page's markup depends on its path, never on its query string; a redirect keeps the query
 * string where the router's does.
 */
export async function render(input: RenderInput): Promise<RenderedPage | RenderedRedirect | null> {
  const started = performance.now();
  const url = new URL(input.url);
  const { session } = input.bootstrap;
  const page = renderedPageFor(url.pathname, session, serverRenderedPages);
  const location = new URL(url.pathname, url.origin);
  const pageScope: PageScope = {
    location: { origin: location.origin, href: location.href, host: location.host, hostname: location.hostname, protocol: location.protocol, pathname: location.pathname, search: '', hash: '' },
    cookie: input.cookie,
    fetch: (resource, init) => input.fetch(resource, init),
    svg: (svgUrl, options) => input.svg(svgUrl, options),
    // The session, consent and spinner of this render (lib/page-scope.ts, `perPage`): this request's alone.
    instances: new Map(),
  };

  return scope.run(pageScope, async () => {
    const queryClient = createQueryClient();
    seedFromBootstrap(input.bootstrap, queryClient, identity, pageScope.location);
    const seeded = new Set(
      queryClient
        .getQueryCache()
        .getAll()
        .map((query) => query.queryHash),
    );
    const routes = createRoutes({ queryClient, identity: renderIdentity(session), initTracking: () => {}, identityProviderName: input.bootstrap.title.identityProviderName });
    const handler = createStaticHandler(routes);
    // The guard's redirects of a signed-out visitor. (A page that needs a login never gets here: its
    // guard starts the login, which the server cannot, and fails; the browser does it.) A signed-in
    // visitor's are left to the browser: they may depend on what their own calls answer.
    const routed = await handler.query(new Request(url.href)).catch(() => null);
    if (routed instanceof Response) {
      if (session !== null) return null;
      const target = routed.headers.get('location');
      return routed.status >= 300 && routed.status < 400 && target?.startsWith('/') ? { redirect: target } : null;
    }
    if (!page) return null;
    const context = url.search === '' ? routed : await handler.query(new Request(location.href)).catch(() => null);
    // A loader that failed: the browser decides, as without a server render.
    if (!context || context instanceof Response || context.errors || context.matches.at(-1)?.route.id !== page) return null;
    const router = createStaticRouter(handler.dataRoutes, context);
    const consentBar = await preloadConsentBar(input.bootstrap.clientConfig, location.pathname);
    const tree = (
      <AppProviders queryClient={queryClient} identity={identity}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    );

    // Render, fetch what the render asked for, render again: until it asks for nothing new.
    let html = renderToString(tree);
    let dataRounds = 0;
    for (let pass = 1; pass < MAX_PASSES && (await fetchWaiting(queryClient)); pass += 1) {
      dataRounds += 1;
      html = renderToString(tree);
    }
    // What did not arrive is rendered as the browser's first render will show it: still loading. (A
    // query the page has turned off is pending in both, as it is: no render again for it.)
    const failed = queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.status === 'error' || isWaiting(query));
    if (failed.length > 0) {
      for (const query of failed) queryClient.getQueryCache().remove(query);
      html = renderToString(tree);
    }

    const queries: RenderedQuery[] = queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.status === 'success' && !seeded.has(query.queryHash))
      .map((query) => ({ key: query.queryKey, data: query.state.data, updatedAt: query.state.dataUpdatedAt }));
    return {
      page,
      html,
      data: { version: SERVER_RENDER_VERSION, path: location.pathname, queries },
      modules: [areaModule(pages[page].area), ...(consentBar ? [consentBarModule] : [])],
      document: titleDocument(input.bootstrap.title),
      renderMs: performance.now() - started,
      dataRounds,
    };
  });
}
