import type { ReactNode } from 'react';
import type { QueryClient } from './lib/query/index.ts';
import type { Title } from '@minside/domain';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { identity, returnTargetOf } from './features/auth/index.ts';
import { clientConfigQueryOptions, preloadConsentBar } from './features/privacy/index.ts';
import { maintenanceQueryOptions, resolveTitle, titleCodeQueryOptions, titleQueryOptions } from './features/titles/index.ts';
import { App } from './app/app.tsx';
import { startFromBootstrap } from './app/bootstrap.ts';
import { StartupError } from './app/error-pages.tsx';
import { createQueryClient } from './app/query-client.ts';
import { createRouter } from './app/routes.tsx';
import { SERVER_RENDERED_ATTRIBUTE, seedRenderedQueries, takeServerRender, type ServerRenderData } from './app/server-render.ts';
import { BootSpinner } from './app/spinner-overlay.tsx';
import { consentStore } from './lib/consent/index.ts';
import { http } from './lib/http.ts';
import { hydrateInParts } from './lib/hydrate-later.tsx';
import { nextTask } from './lib/next-task.ts';
import { DEFAULT_SPINNER_MESSAGE, spinner } from './lib/spinner.ts';
import './app/tokens.css';
import './app/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// A page the server rendered (docs/decisions/032) stays on screen until it is hydrated; any other
// shows the spinner until the app has started.
const serverRender = takeServerRender(container);
let root: Root | undefined;

/** The browser's own root: it renders without hydrating, replacing what the server may have put there. */
function ownRoot(): Root {
  if (!root) {
    container!.replaceChildren();
    container!.removeAttribute(SERVER_RENDERED_ATTRIBUTE);
    root = createRoot(container!);
  }
  return root;
}

if (!serverRender) ownRoot().render(<BootSpinner message={DEFAULT_SPINNER_MESSAGE} />);

/** The identity client gets the title code it logs in for, and clears the title on logout (SPEC §4). */
function initIdentity(queryClient: QueryClient, title: Title): void {
  const titleCodeKey = titleCodeQueryOptions().queryKey;
  const titleCode = () => queryClient.getQueryData(titleCodeKey) ?? title.titleCode;
  identity.init({
    titleCode,
    onSignedOut: () => {
      queryClient.removeQueries({ queryKey: titleQueryOptions(titleCode()).queryKey, exact: true });
      queryClient.removeQueries({ queryKey: titleCodeKey, exact: true });
    },
  });
  // SPEC §8: any call answering 401 or 406 sends the user to the login, back to where they are.
  http.setUnauthenticatedHandler(() => identity.handleUnauthenticated(returnTargetOf(window.location)));
}

/**
 * Bootstrap: seed the caches from the page's bootstrap block when it has one; resolve the
 * title (retrieveTitleCode with location.href, POL on any failure), fetch it, and fetch the
 * maintenance status in parallel (cache hits after seeding); then create the router, whose
 * gateway routes are named after the identity provider the title names.
 */
async function bootstrap() {
  const queryClient = createQueryClient();
  // The answers the server put into the page (docs/decisions/022) make the calls below cache hits.
  const seeded = startFromBootstrap(queryClient, identity);
  // And those it rendered the page with (the page's text, prices): the first render shows the same.
  if (serverRender) seedRenderedQueries(serverRender, queryClient);
  const [title] = await Promise.all([resolveTitle(queryClient), queryClient.prefetchQuery(maintenanceQueryOptions())]);
  initIdentity(queryClient, title);
  // The router (matching the address, the guard, the page's loaders) in a task of its own: with the
  // modules' evaluation and the seeding above it would be one long task (docs/performance.md).
  await nextTask();
  const router = createRouter({ queryClient, identity, identityProviderName: title.identityProviderName });
  return { queryClient, router, title, seeded };
}

type AppRouter = ReturnType<typeof createRouter>;

/** Resolves once the router has run the first page's guard and loaded its module (its first render then shows the page, not the fallback). */
function routerReady(router: AppRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Whether the browser's first render will be the page the server rendered: its router landed on
 * the same path without an error (maintenance switched on since, say, sends it elsewhere), and no
 * state. Loads the first-visit bar first when the page shows it, so nothing suspends while hydrating.
 */
async function canHydrate(rendered: ServerRenderData, { queryClient, router, title }: { queryClient: QueryClient; router: AppRouter; title: Title }): Promise<boolean> {
  await routerReady(router);
  const { location, errors } = router.state;
  // A location with state (a reload after an in-app navigation that left a notice) may read it in
  // its first render; the server rendered the page without any.
  if (errors || location.pathname !== rendered.path || location.state != null) return false;
  await preloadConsentBar(queryClient.getQueryData(clientConfigQueryOptions(title.titleCode).queryKey), location.pathname);
  return true;
}

/**
 * Hydrates the server's markup, the parts below the first screen each in a task of its own
 * (lib/hydrate-later.tsx). Resolves once the whole page is hydrated. Where the e2e suite asks for
 * it (`window.__minsideHydrationCheck`, e2e/fixtures.ts), with the mismatch check around each step.
 */
async function hydrate(element: ReactNode): Promise<void> {
  const asked = (window as unknown as { __minsideHydrationCheck?: boolean }).__minsideHydrationCheck === true;
  const check = asked ? (await import('./app/hydration-check.ts')).createHydrationCheck(container!) : null;
  const hydrateFirst = () => hydrateRoot(container!, element);
  await hydrateInParts(() => (check ? check.around(hydrateFirst) : hydrateFirst()), check ?? undefined);
}

bootstrap().then(
  async (started) => {
    const { queryClient, router, seeded } = started;
    const app = <App queryClient={queryClient} router={router} identity={identity} />;
    // Without the bootstrap block the first render waits on calls the server's did not: not the same page.
    if (serverRender && seeded && (await canHydrate(serverRender, started))) {
      // The route is loaded: SPEC §4 would stop the spinner after it now (app/after-each-route.tsx).
      spinner.stop();
      await hydrate(app);
      container.removeAttribute(SERVER_RENDERED_ATTRIBUTE);
      return;
    }
    // Nothing to hydrate (a server-rendered page that no longer fits is replaced). No server render
    // to match either: the first render may go by the whole consent choice, local storage too.
    consentStore.settle();
    ownRoot().render(app);
  },
  (error: unknown) => {
    console.error('Min Side could not start', error);
    ownRoot().render(<StartupError />);
  },
);
