import { QueryClient, QueryClientProvider } from '../lib/query/index.ts';
import { act, cleanup, render, screen, within } from '@testing-library/preact';
import { createMemoryRouter, RouterProvider, type RouteObject } from '../lib/router/index.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialSessionState, sessionStore } from '../features/auth/session.ts';
import { createFakeIdentity, subscriber, withoutSubscription, type FakeIdentity } from '../features/auth/testing/fake-identity.ts';
import { adresseavisen, seedTitle } from '../test/fixtures.ts';
import { pages, redirects, resolvePattern, type PageKey, type RouteModule } from './paths.ts';
import { createRoutes } from './routes.tsx';
import { routePurposes } from './route-purposes.ts';
import { systemClock } from '@minside/domain';

type Access = 'none' | 'public' | 'auth' | 'subscriber' | 'not stated';

/** SPEC §2, transcribed independently of paths.ts. */
const spec: Array<[path: string, access: Access]> = [
  ['/', 'subscriber'],
  ['/callback', 'none'],
  // Issue 24: the portal's login page, listing the issuers when there is more than one.
  ['/logg-inn', 'none'],
  ['/bestill-abonnement', 'auth'],
  ['/winback', 'public'],
  ['/bestilling-feilet', 'auth'],
  ['/completepurchase', 'not stated'],
  ['/completevippspurchase', 'not stated'],
  ['/feil-kjop', 'not stated'],
  ['/ingen-abonnement', 'auth'],
  ['/kvittering', 'subscriber'],
  ['/leveringsadresse', 'subscriber'],
  ['/kontakt', 'subscriber'],
  ['/kundeservice', 'public'],
  ['/familiedeling', 'subscriber'],
  ['/verifiser-familiemedlem', 'auth'],
  ['/deling-akseptert', 'subscriber'],
  ['/tilbakemelding', 'subscriber'],
  ['/koble-bruker', 'auth'],
  ['/allerede-abonnent', 'subscriber'],
  ['/endre-betalingsmetode', 'subscriber'],
  ['/endre-betalingsmetode/verify', 'subscriber'],
  ['/student', 'public'],
  ['/student-verifisering', 'auth'],
  ['/student-kvittering', 'subscriber'],
  ['/bedrift', 'auth'],
  ['/administrer-bedrift', 'subscriber'],
  ['/legg-til-betalingskort', 'subscriber'],
  ['/legg-til-betalingskort/verify', 'subscriber'],
  ['/endre-avislevering', 'subscriber'],
  ['/betaling', 'public'],
  ['/avbryt-bestilling', 'public'],
  ['/fakturaoversikt', 'subscriber'],
  ['/nye-priser', 'public'],
  ['/betal-faktura/:ariaInvoiceNo', 'subscriber'],
  ['/endre-profil', 'subscriber'],
  ['/endre-abonnement', 'subscriber'],
  ['/receipt2', 'public'],
  ['/avslutt-abonnement', 'subscriber'],
  ['/abonnement-avsluttet', 'subscriber'],
  ['/abonnement-reaktivert', 'subscriber'],
  ['/angre-oppsigelse', 'subscriber'],
  // Issue 25.8: the right of withdrawal (ADR 030).
  ['/angre-kjop', 'subscriber'],
  ['/spidTakeoutGateway', 'subscriber'],
  ['/spidDeleteGateway', 'subscriber'],
  ['/vilkaar', 'public'],
  ['/vilkaar/bedrift', 'public'],
  ['/vilkaar-mer', 'public'],
  ['/data', 'public'],
  ['/personvern', 'public'],
  ['/cookie-policy', 'public'],
  ['/personverndetaljer', 'public'],
  ['/personverninnstillinger', 'auth'],
  ['/samtykke1', 'subscriber'],
  ['/samtykke2', 'subscriber'],
  ['/samtykke3', 'subscriber'],
  ['/mitt-innhold', 'subscriber'],
  ['/maintenance', 'none'],
  ['/404', 'none'],
];

const expectedMeta: Record<Access, { requiresAuth: boolean; requiresSubscription: boolean }> = {
  none: { requiresAuth: false, requiresSubscription: false },
  public: { requiresAuth: false, requiresSubscription: false },
  'not stated': { requiresAuth: false, requiresSubscription: false },
  auth: { requiresAuth: true, requiresSubscription: false },
  subscriber: { requiresAuth: true, requiresSubscription: true },
};

function childRoutes(identityProviderName = 'spid'): RouteObject[] {
  const [root] = createRoutes({ queryClient: new QueryClient(), identity: createFakeIdentity(), identityProviderName });
  return root?.children ?? [];
}

describe('route table (SPEC §2)', () => {
  const keys = Object.keys(pages) as PageKey[];

  it.each(spec)('%s is a page with the right meta', (path, access) => {
    const key = keys.find((k) => resolvePattern(pages[k].pattern, 'spid') === path);
    expect(key, `no page for ${path}`).toBeDefined();
    const page = pages[key as PageKey];
    expect(page.meta).toEqual({ ...expectedMeta[access], isMaintenance: false });
    expect(page.title).not.toBe('');
    expect(routePurposes[key as PageKey]).not.toBe('');
    expect(childRoutes().find((route) => route.path === path)?.id).toBe(key);
  });

  it('has no page the spec does not list', () => {
    expect(keys.map((k) => resolvePattern(pages[k].pattern, 'spid')).sort()).toEqual(spec.map(([path]) => path).sort());
  });

  it('names the gateway routes after the identity provider', () => {
    const paths = childRoutes('schibsted').map((route) => route.path);
    expect(paths).toContain('/schibstedTakeoutGateway');
    expect(paths).toContain('/schibstedDeleteGateway');
    expect(paths).not.toContain('/spidTakeoutGateway');
  });

  it('redirects /order-timeout to /bestilling-feilet and nothing else', () => {
    expect(Object.values(redirects)).toEqual([{ kind: 'redirect', pattern: '/order-timeout', to: 'orderFailed' }]);
  });

  it('gives every page an area module that provides it', async () => {
    const byArea = new Map<string, Record<string, unknown>>();
    for (const key of keys) {
      const area = pages[key].area;
      if (!byArea.has(area)) byArea.set(area, (await import(`../features/${area}/routes.ts`)).routes as Record<string, RouteModule>);
      const module = byArea.get(area)?.[key] as RouteModule | undefined;
      expect(module, `${area} lacks ${key}`).toBeDefined();
      // A page split off its area's chunk must load to a component.
      const Component = module && 'load' in module ? await module.load() : module?.Component;
      expect(typeof Component, `${area}'s ${key} has no component`).toBe('function');
    }
    // Imports every area's pages: slow on a busy machine.
  }, 30_000);
});

describe('router', () => {
  let queryClient: QueryClient;
  let identity: FakeIdentity;

  beforeEach(() => {
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    identity = createFakeIdentity({ session: subscriber });
    // The header's logo request has no server here; its failure is logged, not thrown.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    cleanup();
    sessionStore.setState(initialSessionState);
  });

  async function navigateTo(url: string) {
    const router = createMemoryRouter(createRoutes({ queryClient, identity, identityProviderName: 'spid' }), { initialEntries: [url] });
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await vi.waitFor(() => {
      expect(router.state.initialized).toBe(true);
      expect(router.state.navigation.state).toBe('idle');
    });
    return router;
  }

  it('redirects /order-timeout to /bestilling-feilet, keeping the query', async () => {
    seedTitle(queryClient, adresseavisen);
    const router = await navigateTo('/order-timeout?ordre=42');
    expect(router.state.location.pathname).toBe('/bestilling-feilet');
    expect(router.state.location.search).toBe('?ordre=42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bestillingen feilet' })).toBeDefined();
  });

  it.each(['/finnes-ikke', '/vilkaar/privat', '/betal-faktura', '/a/b/c'])('redirects the unknown path %s to /404', async (path) => {
    seedTitle(queryClient, adresseavisen);
    const router = await navigateTo(path);
    expect(router.state.location.pathname).toBe('/404');
    expect(await screen.findByRole('heading', { level: 1, name: 'Fant ikke siden' })).toBeDefined();
  });

  it('passes the invoice number to the pay-invoice view', async () => {
    seedTitle(queryClient, adresseavisen);
    await navigateTo('/betal-faktura/INV-2024-0042');
    expect(await screen.findByRole('heading', { level: 1, name: 'Betal faktura' })).toBeDefined();
    expect(screen.getByText('INV-2024-0042')).toBeDefined();
  });

  it('renders a placeholder page with its Norwegian title and purpose, inside the shell', async () => {
    seedTitle(queryClient, adresseavisen);
    await navigateTo('/fakturaoversikt');
    expect(await screen.findByRole('heading', { level: 1, name: 'Fakturaoversikt' })).toBeDefined();
    expect(screen.getByText(routePurposes.invoiceOverview)).toBeDefined();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Adresseavisen' }).getAttribute('href')).toBe('https://www.adressa.no');
    expect(screen.getByRole('contentinfo').textContent).toContain(`© ${systemClock().getFullYear()} Adresseavisen-gruppen`);
  });

  it('sends every route to /maintenance while maintenance is on', async () => {
    seedTitle(queryClient, adresseavisen, true);
    const router = await navigateTo('/kundeservice');
    expect(router.state.location.pathname).toBe('/maintenance');
    expect(await screen.findByRole('heading', { level: 1, name: 'Min Side er midlertidig utilgjengelig' })).toBeDefined();
    expect(screen.getByText('Vi oppgraderer Min Side.')).toBeDefined();

    await act(() => router.navigate('/404'));
    expect(router.state.location.pathname).toBe('/maintenance');
  });

  it('shows /maintenance without redirecting when maintenance is off', async () => {
    seedTitle(queryClient, adresseavisen, false);
    const router = await navigateTo('/maintenance');
    expect(router.state.location.pathname).toBe('/maintenance');
  });

  it('stops the spinner once the first route has rendered', async () => {
    const { spinner } = await import('../lib/spinner.ts');
    spinner.start('Laster');
    seedTitle(queryClient, adresseavisen);
    await navigateTo('/kundeservice');
    await screen.findByRole('heading', { level: 1, name: 'Kundeservice' });
    // The stop runs in the route's effect, which may commit just after the heading paints.
    await vi.waitFor(() => expect(spinner.getState().showSpinner).toBe(false));
  });

  it('never renders a guarded page for a signed-out visitor: the login starts instead', async () => {
    identity = createFakeIdentity({ session: null });
    seedTitle(queryClient, adresseavisen);
    const router = createMemoryRouter(createRoutes({ queryClient, identity, identityProviderName: 'spid' }), { initialEntries: ['/kundeservice'] });
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await screen.findByRole('heading', { level: 1, name: 'Kundeservice' });
    act(() => void router.navigate('/fakturaoversikt?a=1'));
    await vi.waitFor(() => expect(identity.logins).toEqual(['/fakturaoversikt?a=1']));
    expect(router.state.location.pathname).toBe('/kundeservice');
    expect(screen.queryByRole('heading', { level: 1, name: 'Fakturaoversikt' })).toBeNull();
  });

  it('sends a signed-in user without a subscription to /ingen-abonnement', async () => {
    identity = createFakeIdentity({ session: withoutSubscription });
    seedTitle(queryClient, adresseavisen);
    const router = await navigateTo('/endre-profil');
    expect(router.state.location.pathname).toBe('/ingen-abonnement');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ingen abonnement' })).toBeDefined();
  });

  it('shows "Logg ut" on a public page when signed in', async () => {
    seedTitle(queryClient, adresseavisen);
    await navigateTo('/kundeservice');
    expect(await screen.findByRole('button', { name: 'Logg ut' })).toBeDefined();
    expect(identity.checks).toEqual(['opportunistic']);
  });
});
