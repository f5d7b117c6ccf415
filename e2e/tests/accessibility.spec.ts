import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Browser, type BrowserContext, type Page } from '../fixtures.ts';
import { adresseavisen, apiCall, operatorCall, signInAtProvider, varden } from './support.ts';

// The server shares its machine with other jobs; a page that takes longer than 5 s to settle is slow, not broken.
const expect = baseExpect.configure({ timeout: 30_000 });

// Issue 10 item 7: axe (WCAG 2 A and AA) on every route of the web's own route table, as a
// persona that can reach it, at 1280 and 375 px, and the key pages at 200 % zoom. The routes
// are read from apps/web/src/app/paths.ts at run time, so a route added there without a visit
// below fails here. Every visit only reads, so this spec runs in parallel with the journeys:
// the personas are ones whose pages stay reachable whatever the other specs change (never
// ny@, which the sequential journeys own, nor slett@ or ansatt@, whose logins other specs end).

interface RouteTable {
  pages: Record<string, { pattern: string; title: string; meta: { requiresAuth: boolean } }>;
  redirects: Record<string, { pattern: string; to: string }>;
  resolvePattern: (pattern: string, identityProviderName: string) => string;
}
// A path held in a variable: tsc does not pull the web app into the e2e project; Playwright
// transpiles the module when it loads it.
const routeTableModule = new URL('../../apps/web/src/app/paths.ts', import.meta.url).href;
const { pages, redirects, resolvePattern } = (await import(routeTableModule)) as RouteTable;

type Persona = 'papir@minside.test' | 'admin@firma.test' | 'familie@minside.test' | 'familiemedlem@minside.test' | 'oppsagt@minside.test' | 'student@minside.test' | 'varden@minside.test';

interface Visit {
  /** Who visits: a demo user (README "Demo users"), or nobody signed in. */
  as: Persona | null;
  /** The site; Adresseavisen unless said. varden@ on Adresseavisen is signed in without a subscription there. */
  site?: 'adresseavisen' | 'varden';
  /** The path to open when it is not the pattern itself: parameters and tokens from the seeded data. */
  path?: (browser: Browser) => Promise<string>;
  /** Where the visit ends when the page itself sends the visitor on. */
  landsOn?: string;
  /** The h1 when it is not the table's title (pages whose content names them). */
  heading?: string | RegExp;
  /** Why the state checked is not the page's main one (a real value would need a change no read-only visit may make). */
  why?: string;
}

const PAPIR: Persona = 'papir@minside.test';
/** Signed in, with no subscription at Adresseavisen (varden@ subscribes to Varden only). */
const NO_SUBSCRIPTION_HERE: Persona = 'varden@minside.test';

/** papir's oldest paid invoice: billing.spec.ts pays only the unpaid one, so this one is stable. */
async function papirPaidInvoice(browser: Browser): Promise<number> {
  const context = await browser.newContext({ storageState: await signedIn(browser, PAPIR) });
  try {
    const page = await context.newPage();
    await page.goto(adresseavisen('/404'));
    const session = (await apiCall(page, '/api/session?titleCode=ADR')).body as { subscription: { ariaAccountNo: number } };
    const { invoices } = (await apiCall(page, `/api/invoice/${session.subscription.ariaAccountNo}`)).body as { invoices: { ariaInvoiceNo: number; status: string }[] };
    const paid = invoices.filter((invoice) => invoice.status === 'PAID').map((invoice) => invoice.ariaInvoiceNo);
    if (paid.length === 0) throw new Error('papir has no paid invoice in the seed');
    return Math.min(...paid);
  } finally {
    await context.close();
  }
}

const visits: Record<string, Visit> = {
  home: { as: PAPIR },
  callback: { as: null, heading: 'Du ble ikke logget inn', why: 'a real callback carries the provider’s one-time code; without it the page explains the failed login' },
  login: {
    as: null,
    why: 'the choice of issuers needs a login token and a second issuer (the third e2e server): login-with-vipps.spec.ts goes through it; without a token the page offers to start a login',
  },
  orderSubscription: { as: NO_SUBSCRIPTION_HERE },
  winback: { as: NO_SUBSCRIPTION_HERE },
  orderFailed: { as: PAPIR },
  completePurchase: { as: PAPIR, landsOn: '/feil-kjop', heading: 'Kjøp feilet', why: 'a real return needs a purchase (ordering.spec.ts); without an order the page sends the buyer to /feil-kjop' },
  completeVippsPurchase: { as: PAPIR, landsOn: '/feil-kjop', heading: 'Kjøp feilet', why: 'as completePurchase' },
  purchaseError: { as: null },
  noSubscription: { as: NO_SUBSCRIPTION_HERE },
  receipt: { as: PAPIR, why: 'a receipt of a real order needs a purchase; without an order id the page says so' },
  withdrawal: { as: PAPIR, why: 'papir@ bought nothing here, so the page says the right of withdrawal does not apply; the form itself is in ordering.spec.ts' },
  deliveryAddress: { as: PAPIR },
  contact: { as: 'familie@minside.test' },
  customerService: { as: null },
  familySharing: { as: 'familie@minside.test' },
  verifyFamilyMember: {
    as: 'familiemedlem@minside.test',
    why: 'a real token comes with a new invitation, which changes a subscription’s sharing (family.spec.ts does that); without one the page explains the missing link',
  },
  familyShareAccepted: { as: 'familiemedlem@minside.test' },
  deliveryComplaint: { as: PAPIR },
  connectSubscription: { as: NO_SUBSCRIPTION_HERE },
  alreadySubscriber: { as: PAPIR },
  changePaymentMethod: { as: 'student@minside.test' },
  changePaymentMethodVerify: { as: 'student@minside.test', why: 'a real return needs a started change at the payment provider; without one the page says what is missing' },
  student: { as: null },
  studentVerification: { as: 'student@minside.test' },
  studentReceipt: { as: 'student@minside.test', why: 'the message comes with the verification; opened directly the page shows its general confirmation' },
  business: { as: NO_SUBSCRIPTION_HERE },
  businessAdmin: { as: 'admin@firma.test' },
  addPaymentCard: { as: 'student@minside.test' },
  addPaymentCardVerify: { as: 'student@minside.test', why: 'as changePaymentMethodVerify' },
  deliveryChange: { as: PAPIR },
  payment: {
    as: null,
    // A pay-link as the customer centre sends it, for an invoice that stays paid; the unpaid
    // pay form is checked by axe in keyboard.spec.ts, which pays admin@'s invoice.
    path: async (browser) => {
      const link = await operatorCall('/api/operator/paylink', { ariaInvoiceNo: await papirPaidInvoice(browser) });
      expect(link.status).toBe(200);
      return (link.body as { path: string }).path;
    },
  },
  cancelOrder: { as: null },
  invoiceOverview: { as: 'admin@firma.test' },
  newPrices: { as: null },
  payInvoice: { as: PAPIR, path: async (browser) => `/betal-faktura/${await papirPaidInvoice(browser)}` },
  editProfile: { as: 'familiemedlem@minside.test' },
  changeSubscription: { as: PAPIR },
  changeSubscriptionReceipt: { as: PAPIR, why: 'the receipt’s details come with the change; opened directly the page shows its general text' },
  cancelSubscription: { as: PAPIR },
  subscriptionCancelled: { as: 'oppsagt@minside.test' },
  subscriptionReactivated: { as: PAPIR },
  undoCancellation: { as: 'oppsagt@minside.test' },
  dataTakeout: { as: PAPIR },
  accountDeletion: { as: PAPIR },
  terms: { as: null, heading: /^Vilkår/ },
  businessTerms: { as: null, heading: /^Vilkår/ },
  moreTerms: { as: null },
  data: { as: null },
  privacy: { as: null, heading: /^Personvern/ },
  cookiePolicy: { as: null },
  privacyDetails: { as: null },
  privacySettings: { as: PAPIR },
  consent1: { as: PAPIR, heading: /^Samtykke/ },
  consent2: { as: PAPIR, heading: /^Samtykke/ },
  consent3: { as: PAPIR, heading: /^Samtykke/ },
  myContent: { as: 'admin@firma.test' },
  // Reached while the service is up, the page says so (issue 25.5); the maintenance journey sees the other heading.
  maintenance: { as: null, heading: 'Min Side er oppe' },
  notFound: { as: null },
  // The redirect table too: the page it lands on.
  orderTimeout: { as: PAPIR, landsOn: '/bestilling-feilet', heading: 'Bestillingen feilet' },
};

/** Signed-in browser state per persona, one login per worker and persona. */
type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
const sessions = new Map<Persona, Promise<StorageState>>();
function signedIn(browser: Browser, persona: Persona): Promise<StorageState> {
  let state = sessions.get(persona);
  if (!state) {
    state = (async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(adresseavisen('/kundeservice'));
      await page.getByRole('banner').getByRole('link', { name: 'Logg inn' }).first().click();
      await signInAtProvider(page, persona);
      await expect(page.getByRole('heading', { level: 1, name: 'Kundeservice' })).toBeVisible({ timeout: 30_000 });
      const stored = await context.storageState();
      await context.close();
      return stored;
    })();
    // A failed login is not remembered: the next test signs in again.
    state.catch(() => sessions.delete(persona));
    sessions.set(persona, state);
  }
  return state;
}

async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    what,
  ).toEqual([]);
}

test('every route of the web route table has a visit here', () => {
  expect(Object.keys(visits).sort()).toEqual([...Object.keys(pages), ...Object.keys(redirects)].sort());
});

const identityProviderName = async (page: Page) => ((await apiCall(page, '/api/title/ADR')).body as { identityProviderName: string }).identityProviderName;

const routes: [string, { pattern: string; title: string }][] = [
  ...Object.entries(pages),
  ...Object.entries(redirects).map(([key, redirect]): [string, { pattern: string; title: string }] => [key, { pattern: redirect.pattern, title: pages[redirect.to]?.title ?? '' }]),
];
for (const [key, route] of routes) {
  test(`${key} (${route.pattern}) has no serious or critical violations at 1280 and 375 px`, async ({ browser }) => {
    // A login, a page and two axe runs: on a loaded machine that is more than the default 30 s.
    test.setTimeout(150_000);
    const visit = visits[key];
    if (!visit) throw new Error(`${route.pattern} is in apps/web/src/app/paths.ts but has no visit in accessibility.spec.ts: add who can reach it`);
    const context = await browser.newContext(visit.as ? { storageState: await signedIn(browser, visit.as) } : {});
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      const site = visit.site === 'varden' ? varden : adresseavisen;
      let path = route.pattern;
      if (path.includes('{')) {
        await page.goto(site('/404'));
        path = resolvePattern(path, await identityProviderName(page));
      }
      if (visit.path) path = await visit.path(browser);
      await page.goto(site(path));
      await expect(page).toHaveURL(site(visit.landsOn ?? path));
      const heading = page.getByRole('heading', { level: 1, name: visit.heading ?? route.title, exact: typeof visit.heading !== 'object' });
      await expect(heading).toBeVisible();
      // Whatever the page loads after its heading (lists, forms) is part of what axe judges.
      await page.waitForLoadState('networkidle');
      await expectNoSeriousViolations(page, `${path} at 1280 px`);

      await page.setViewportSize({ width: 375, height: 812 });
      await expect(heading).toBeVisible();
      await expectNoSeriousViolations(page, `${path} at 375 px`);
    } finally {
      await context.close();
    }
  });
}

// WCAG 1.4.4 / 1.4.10: a 1280 px window at 200 % zoom lays the page out in 640 CSS px. The
// test renders at 640 × 450 CSS px with deviceScaleFactor 2, which is what Chromium's zoom
// does too (CSS viewport halved, devicePixelRatio 2), so the same media queries apply.
test.describe('at 200 % zoom (1280 × 900 window, 640 × 450 CSS px)', () => {
  test.use({ viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 });

  for (const path of ['/', '/fakturaoversikt', '/endre-avislevering', '/kundeservice', '/endre-profil']) {
    test(`${path}: no horizontal scrolling, nothing cut off, the menu reachable`, async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({ storageState: await signedIn(browser, PAPIR), viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 });
      try {
        const page = await context.newPage();
        await page.goto(adresseavisen(path));
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => window.devicePixelRatio)).toBe(2);

        const layout = await page.evaluate(() => {
          const root = document.documentElement;
          const width = root.clientWidth;
          const describe = (element: Element) =>
            `<${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ')[0]}` : ''}> "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
          const scrollsSideways = (element: Element) => {
            for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
              if (['auto', 'scroll'].includes(getComputedStyle(parent).overflowX)) return true;
            }
            return false;
          };
          const outside: string[] = [];
          const cut: string[] = [];
          for (const element of Array.from(document.querySelectorAll('header *, main *, footer *'))) {
            const rect = element.getBoundingClientRect();
            // Empty and visually hidden (1 px, clipped) elements take no room on screen.
            if (rect.width <= 1 || rect.height <= 1 || getComputedStyle(element).visibility === 'hidden') continue;
            // A wide table in its own scrolling box is allowed by 1.4.10 (two-dimensional content).
            if (scrollsSideways(element)) continue;
            if (rect.left < -1 || rect.right > width + 1) outside.push(`${describe(element)} spans ${Math.round(rect.left)}–${Math.round(rect.right)} px`);
            const style = getComputedStyle(element);
            if (['hidden', 'clip'].includes(style.overflowX) && element.scrollWidth > element.clientWidth + 1)
              cut.push(`${describe(element)} shows ${element.clientWidth} of ${element.scrollWidth} px`);
          }
          return { scrollWidth: root.scrollWidth, clientWidth: width, outside, cut };
        });
        expect(layout.scrollWidth, 'no horizontal scrolling').toBeLessThanOrEqual(layout.clientWidth);
        expect(layout.outside, 'nothing reaches outside the viewport').toEqual([]);
        expect(layout.cut, 'nothing is cut off by its box').toEqual([]);

        // The main content and its actions can be scrolled to and seen.
        const main = page.getByRole('main');
        for (const action of await main.getByRole('button').or(main.getByRole('link')).all()) {
          if (!(await action.isVisible())) continue;
          await action.scrollIntoViewIfNeeded();
          await expect(action).toBeInViewport();
        }

        // The header navigation: inline, or behind the menu button.
        const nav = page.getByRole('navigation', { name: 'Hovedmeny' });
        const menu = page.getByRole('button', { name: 'Meny' });
        if (await menu.isVisible()) {
          await menu.press('Enter');
          await expect(menu).toHaveAttribute('aria-expanded', 'true');
        }
        for (const name of ['Min Side', 'Kundeservice']) await expect(nav.getByRole('link', { name, exact: true })).toBeInViewport();
        await expect(nav.getByRole('button', { name: 'Logg ut' })).toBeInViewport();
      } finally {
        await context.close();
      }
    });
  }
});
