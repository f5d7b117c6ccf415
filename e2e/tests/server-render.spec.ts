import { expect, test, type Browser, type BrowserContext, type Page } from '../fixtures.ts';
import { adresseavisen, signInAtProvider } from './support.ts';

// docs/decisions/032: the public pages come rendered from the server. Without JavaScript they read
// completely and their links work; with it, the browser hydrates the server's markup: no console
// warning or error, no layout shift, and the page afterwards is the page the server sent.

const publicPages: [path: string, heading: string | RegExp][] = [
  ['/kundeservice', 'Kundeservice'],
  ['/vilkaar', /^Vilkår/],
  ['/vilkaar/bedrift', /^Vilkår for bedrift/],
  ['/personvern', /^Personvern/],
  ['/cookie-policy', 'Informasjonskapsler'],
  ['/student', 'Student'],
  ['/nye-priser', 'Nye priser'],
  ['/404', 'Fant ikke siden'],
  ['/maintenance', 'Min Side er oppe'],
];

/**
 * The signed-in pages the server renders (apps/web/src/app/signed-in-render.ts), read as papir@ (read
 * only: nothing here changes the persona), with a text of theirs each page shows.
 */
const signedInPages: [path: string, heading: string, theirs: string | RegExp][] = [
  ['/', 'Min Side', 'Hei, Kari! Her er abonnementet ditt på Adresseavisen.'],
  ['/kontakt', 'Kontaktinformasjon', 'papir@minside.test'],
  ['/endre-profil', 'Endre profil', 'papir@minside.test'],
  ['/mitt-innhold', 'Mitt innhold', 'Dette får du med Komplett.'],
  ['/familiedeling', 'Familiedeling', 'Inviter en i husstanden'],
  ['/personverninnstillinger', 'Personverninnstillinger', 'Informasjonskapsler og sporing'],
  ['/endre-abonnement', 'Endre abonnement', 'Velg hva du vil bytte til.'],
  ['/avslutt-abonnement', 'Avslutt abonnement', 'Hvorfor vil du si opp?'],
  ['/angre-oppsigelse', 'Angre oppsigelse', /ingenting å angre/],
  ['/tilbakemelding', 'Meld fra om levering', 'Hva skjedde?'],
  ['/endre-betalingsmetode', 'Endre betalingsmetode', 'Nåværende betalingsmetode'],
  ['/samtykke1', 'Samtykke', 'Kontakt og tilbud'],
  ['/samtykke2', 'Samtykke', 'Tilpasset innhold'],
  ['/samtykke3', 'Samtykke', 'Undersøkelser'],
];

/** A context signed in as papir@ through the real login (the embedded provider), on a page of its own. */
async function signedInContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await offlineTitleSites(page);
  await page.goto(adresseavisen('/'));
  await signInAtProvider(page, 'papir@minside.test');
  await expect(page).toHaveURL(adresseavisen('/'));
  await expect(page.getByRole('heading', { level: 1, name: 'Min Side' })).toBeVisible();
  await page.close();
  return context;
}

/** Records the page's layout shifts not caused by input, from its first paint on (read with layoutShiftsOf). */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // Each shift with the elements that moved, so that a failure names them.
    const shifts: string[] = [];
    (window as unknown as { layoutShifts: string[] }).layoutShifts = shifts;
    const describe = (node: Node | null) => (node instanceof Element ? `${node.localName}${node.id ? `#${node.id}` : ''}.${Array.from(node.classList).join('.')}` : String(node?.nodeName));
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node: Node | null }[] })[]) {
        if (!entry.hadRecentInput) shifts.push(`${entry.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${(entry.sources ?? []).map((source) => describe(source.node)).join(', ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const layoutShiftsOf = (page: Page) => page.evaluate(() => (window as unknown as { layoutShifts: string[] }).layoutShifts);

/** The titles' own sites (the favicon) are not reachable from the test machine: answered empty, so they log no error. */
async function offlineTitleSites(page: Page): Promise<void> {
  await page.route(
    (url) => !url.hostname.endsWith('localhost'),
    (route) => route.fulfill({ status: 204 }),
  );
}

/**
 * Opens `url` with the page's scripts held back until the returned function is called: until then
 * the server's markup is the page. Navigated by the page itself: the fixture's goto would wait for
 * the hydration this holds back.
 */
async function openWithScriptsHeld(page: Page, url: string): Promise<() => void> {
  let releaseScripts: () => void = () => {};
  const scriptsHeld = new Promise<void>((resolve) => {
    releaseScripts = resolve;
  });
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.evaluate((target) => window.location.assign(target), url);
  await page.waitForURL(url, { waitUntil: 'commit' });
  return releaseScripts;
}

/**
 * The attributes Preact's own tree gives each element, against the DOM's. Preact hydrates without
 * comparing attributes (it keeps the server's), so a difference there would go unnoticed and stay:
 * an id the browser's tree no longer matches. Reads Preact's internal fields (`__k` children,
 * `__e` DOM node); `checked` says how many attributes were compared, so that a Preact that renamed
 * them fails here instead of comparing nothing.
 */
async function attributeMismatches(page: Page): Promise<{ checked: number; mismatches: string[] }> {
  return page.evaluate(() => {
    type VNode = { type: unknown; props: Record<string, unknown>; __k?: (VNode | null)[] | null; __e?: unknown };
    const renamed: Record<string, string> = { className: 'class', htmlFor: 'for', tabIndex: 'tabindex' };
    const result = { checked: 0, mismatches: [] as string[] };
    const walk = (vnode: VNode | null | undefined) => {
      if (!vnode) return;
      if (typeof vnode.type === 'string' && vnode.__e instanceof Element) {
        for (const [prop, value] of Object.entries(vnode.props)) {
          const attribute = renamed[prop] ?? prop;
          if (!/^(id|class|for|href|role|type|tabindex|(aria|data)-.+)$/.test(attribute) || value === undefined || value === null || typeof value === 'object' || typeof value === 'function') continue;
          const expected = typeof value === 'boolean' ? (/^(aria|data)-/.test(attribute) ? String(value) : value ? '' : null) : String(value);
          const actual = vnode.__e.getAttribute(attribute);
          result.checked += 1;
          if (actual !== expected) result.mismatches.push(`<${vnode.type} ${attribute}>: the server's ${JSON.stringify(actual)}, the browser's ${JSON.stringify(expected)}`);
        }
      }
      for (const child of vnode.__k ?? []) walk(child);
    };
    walk((document.getElementById('root') as unknown as { __k?: VNode }).__k);
    return result;
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('/kundeservice reads completely: heading, text, contact details, questions with their answers; its links work', async ({ page }) => {
    await page.goto(adresseavisen('/kundeservice'));
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: 'Kundeservice' })).toBeVisible();
    await expect(main.getByText('Her finner du svar på det de fleste lurer på om abonnementet på Adresseavisen.')).toBeVisible();
    await expect(main.getByRole('link', { name: '72 50 00 00' })).toHaveAttribute('href', /^tel:/);
    await expect(main.getByRole('link', { name: 'kundesenter@adressa.no' })).toHaveAttribute('href', 'mailto:kundesenter@adressa.no');
    await expect(main.getByRole('heading', { level: 2, name: 'Vanlige spørsmål' })).toBeVisible();
    // The answers are native disclosures: they open without a script.
    const question = main.getByText('Hvordan stopper jeg avisen mens jeg er på ferie?');
    await question.click();
    await expect(main.getByText(/Du kan stoppe avisen eller få den sendt til en annen adresse/)).toBeVisible();
    // The header's wordmark is inlined by the server too.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Adresseavisen' }).locator('svg')).toBeVisible();

    // A link is a link: the terms come from the server as well.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Vilkår for abonnement' }).click();
    await expect(page).toHaveURL(adresseavisen('/vilkaar'));
    await expect(page.getByRole('heading', { level: 1, name: /^Vilkår/ })).toBeVisible();
    await expect(page.getByRole('main').getByRole('article')).toContainText('Angrerett');

    // An address no page has is redirected by the server, as the browser's router would (SPEC §2).
    await page.goto(adresseavisen('/finnes-ikke/i-det-hele-tatt'));
    await expect(page).toHaveURL(adresseavisen('/404'));
    await expect(page.getByRole('heading', { level: 1, name: 'Fant ikke siden' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Kundeservice' }).click();
    await expect(page).toHaveURL(adresseavisen('/kundeservice'));
  });

  test('at 375 px the menu opens without a script (a popover), and its links work', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(adresseavisen('/vilkaar'));
    const nav = page.getByRole('navigation', { name: 'Hovedmeny' });
    await expect(nav.getByRole('link', { name: 'Kundeservice' })).toBeHidden();
    await page.getByRole('button', { name: 'Meny' }).click();
    await expect(nav.getByRole('link', { name: 'Logg inn' })).toBeVisible();
    // In the title's brand colour (Adresseavisen's #00539f) from the server, not the stylesheet's neutral default.
    await expect(nav.getByRole('link', { name: 'Logg inn' })).toHaveCSS('background-color', 'rgb(0, 83, 159)');
    await expect(nav.getByRole('link', { name: 'Min Side' })).toBeVisible();
    await nav.getByRole('link', { name: 'Kundeservice' }).click();
    await expect(page).toHaveURL(adresseavisen('/kundeservice'));
    await expect(page.getByRole('heading', { level: 1, name: 'Kundeservice' })).toBeVisible();
  });

  for (const [path, heading] of publicPages) {
    test(`${path} has its heading without JavaScript`, async ({ page }) => {
      await page.goto(adresseavisen(path));
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    });
  }
});

test('the public pages hydrate with no console warning or error, and then work', async ({ page }) => {
  await offlineTitleSites(page);
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') messages.push(`${page.url()} ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => messages.push(`${page.url()} pageerror: ${error.message}`));
  for (const [path, heading] of publicPages) {
    // The fixture's goto returns once the page is hydrated (e2e/fixtures.ts).
    await page.goto(adresseavisen(path));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    const attributes = await attributeMismatches(page);
    expect(attributes.checked, path).toBeGreaterThan(20);
    expect(attributes.mismatches, path).toEqual([]);
  }
  // Hydrated, the page works: the search filters the questions, a link navigates in the app.
  await page.goto(adresseavisen('/kundeservice'));
  await page.getByLabel('Søk i spørsmål og svar').fill('ferie');
  await expect(page.getByRole('status').filter({ hasText: 'passer «ferie»' })).toBeVisible();
  await page.getByRole('contentinfo').getByRole('link', { name: 'Personvernerklæring' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Personvern/ })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(messages).toEqual([]);
});

test('"Logg inn" works on the server’s markup, before the scripts have taken over: the login starts, "Avbryt" and the login both end back on the page', async ({ page }) => {
  await offlineTitleSites(page);
  const releaseScripts = await openWithScriptsHeld(page, adresseavisen('/vilkaar'));
  await expect(page.locator('#root[data-server-rendered]')).toBeAttached();
  await page.getByRole('banner').getByRole('link', { name: 'Logg inn' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Logg inn' })).toBeVisible();
  releaseScripts();
  // "Avbryt" at the provider: back on the page, though the tab never learnt where the login began (the server knew).
  await page.getByRole('link', { name: 'Avbryt' }).click();
  await expect(page).toHaveURL(adresseavisen('/vilkaar'));
  await expect(page.getByRole('heading', { level: 1, name: /^Vilkår/ })).toBeVisible();
  // And again, to the end.
  await page.getByRole('banner').getByRole('link', { name: 'Logg inn' }).click();
  await signInAtProvider(page, 'digital@minside.test');
  await expect(page).toHaveURL(adresseavisen('/vilkaar'));
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logg ut' })).toBeVisible();
});

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1280, height: 900 },
]) {
  test(`/kundeservice at ${viewport.width} px: no layout shift, and the hydrated page is the page the server sent`, async ({ browser }) => {
    const withoutScripts = await browser.newContext({ javaScriptEnabled: false, viewport });
    const serverPage = await withoutScripts.newPage();
    await serverPage.goto(adresseavisen('/kundeservice'));
    const sent = await serverPage.locator('#root').innerHTML();
    await withoutScripts.close();

    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await offlineTitleSites(page);
    await recordLayoutShifts(page);
    await page.goto(adresseavisen('/kundeservice'));
    await page.waitForLoadState('networkidle');
    expect(await layoutShiftsOf(page)).toEqual([]);
    expect(await page.locator('#root').innerHTML()).toBe(sent);
    await context.close();
  });
}

test.describe('signed in (docs/decisions/032, "Signed-in pages")', () => {
  test('the signed-in pages come with their markup: without JavaScript each reads with the visitor’s own data', async ({ browser }) => {
    test.slow();
    const signedIn = await signedInContext(browser);
    const withoutScripts = await browser.newContext({ javaScriptEnabled: false, storageState: await signedIn.storageState() });
    await signedIn.close();
    const page = await withoutScripts.newPage();
    for (const [path, heading, theirs] of signedInPages) {
      await page.goto(adresseavisen(path));
      await expect(page.getByRole('heading', { level: 1, name: heading }), path).toBeVisible();
      await expect(page.getByRole('main').getByText(theirs).first(), path).toBeVisible();
      // The signed-in header, as the server knows the visitor.
      await expect(page.getByRole('banner').getByRole('button', { name: 'Logg ut' }), path).toBeAttached();
    }
    await withoutScripts.close();
  });

  test('the signed-in pages hydrate with no console warning or error, every attribute the browser’s own, and then work', async ({ browser }) => {
    // A login, fourteen page loads, a logout: more than a journey's 30 s on a loaded 2-core machine.
    test.slow();
    const context = await signedInContext(browser);
    const page = await context.newPage();
    await offlineTitleSites(page);
    const messages: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') messages.push(`${page.url()} ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => messages.push(`${page.url()} pageerror: ${error.message}`));
    for (const [path, heading] of signedInPages) {
      // The fixture's goto returns once the page is hydrated (e2e/fixtures.ts); a mismatch fails the test there.
      const response = await page.goto(adresseavisen(path));
      expect(await response?.text(), `${path} is sent with its markup`).toContain('<div id="root" data-server-rendered>');
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      const attributes = await attributeMismatches(page);
      expect(attributes.checked, path).toBeGreaterThan(20);
      expect(attributes.mismatches, path).toEqual([]);
    }
    // The loader preloads the page's chunks a few per task (pages/script-loader.ts): every one it was given, each once.
    await page.goto(adresseavisen('/'));
    const preloads = () =>
      page.evaluate(() => ({
        given: (document.querySelector('script[data-modules]')?.getAttribute('data-modules') ?? '').split(' ').slice(1),
        added: Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')).map((link) => new URL(link.href).pathname),
      }));
    expect((await preloads()).given.length).toBeGreaterThan(6);
    // The last ones are added a few tasks after the entry (Vite's own preloads of what loads later, analytics at idle, come after them).
    await expect
      .poll(async () => {
        const { given, added } = await preloads();
        return added.filter((file) => given.includes(file)).join(' ') === given.join(' ');
      })
      .toBe(true);
    // Hydrated, the page works: a link navigates in the app, and logging out ends the session.
    await page.goto(adresseavisen('/'));
    await page.getByRole('link', { name: 'Vanlige spørsmål og svar' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Kundeservice' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(messages).toEqual([]);
    await page.getByRole('banner').getByRole('button', { name: 'Logg ut' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Logg inn' })).toBeVisible();
    // Signed out, `/` comes without markup again (read without scripts, which would leave for the login at once).
    const signedOut = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
    const withoutScripts = await signedOut.newPage();
    await withoutScripts.goto(adresseavisen('/'));
    await expect(withoutScripts.locator('#root')).toBeEmpty();
    await expect(withoutScripts.locator('#root[data-server-rendered]')).toHaveCount(0);
    await signedOut.close();
    // And with scripts, the browser sends the visitor to the login, as before.
    await page.goto(adresseavisen('/'));
    await expect(page.getByRole('heading', { level: 1, name: 'Logg inn' })).toBeVisible();
    await context.close();
  });

  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1280, height: 900 },
  ]) {
    test(`/ signed in at ${viewport.width} px: on screen before the scripts, no layout shift, and the hydrated page is the page the server sent`, async ({ browser }) => {
      const context = await signedInContext(browser, { viewport });
      const page = await context.newPage();
      await offlineTitleSites(page);
      await recordLayoutShifts(page);
      // The page's scripts held back: what is on screen is the server's markup alone.
      const releaseScripts = await openWithScriptsHeld(page, adresseavisen('/'));
      await expect(page.getByRole('heading', { level: 1, name: 'Min Side' })).toBeVisible();
      await expect(page.getByText('Hei, Kari! Her er abonnementet ditt på Adresseavisen.')).toBeVisible();
      await expect(page.locator('#root[data-server-rendered]')).toBeAttached();
      const sent = await page.locator('#root').innerHTML();
      releaseScripts();
      await expect(page.locator('#root[data-server-rendered]')).not.toBeAttached({ timeout: 15_000 });
      await page.waitForLoadState('networkidle');
      expect(await layoutShiftsOf(page)).toEqual([]);
      expect(await page.locator('#root').innerHTML()).toBe(sent);
      await context.close();
    });
  }
});
