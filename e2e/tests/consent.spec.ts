import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Request } from '../fixtures.ts';
import { adresseavisen, apiCall, signInAtProvider } from './support.ts';

// Issue 9 consent and analytics through the real UI: nothing that needs consent runs before
// it (no analytics beacon, no experiments kept); after analytics is granted both happen; the
// footer button reopens the consent manager. The collector is a third party (configured in
// playwright.config.ts), so it is the one thing faked, at its HTTP boundary.

const COLLECTOR = 'https://collector.analytics.test/**';

/** Every beacon the page sends to the collector, answered as the collector would. */
async function recordBeacons(page: Page): Promise<Request[]> {
  const beacons: Request[] = [];
  await page.route(COLLECTOR, (route) => {
    beacons.push(route.request());
    return route.fulfill({ status: 204 });
  });
  return beacons;
}

const storedExperiments = (page: Page) => page.evaluate(() => window.localStorage.getItem('experiments'));
const consentDialog = (page: Page) => page.getByRole('dialog', { name: 'Personverninnstillinger' });

async function openConsentManager(page: Page) {
  await page.getByRole('contentinfo').getByRole('button', { name: 'Personverninnstillinger' }).click();
  await expect(consentDialog(page)).toBeVisible();
}

test('without consent nothing is sent or kept; after granting analytics the page view goes out and the experiment is kept', async ({ page }) => {
  const beacons = await recordBeacons(page);
  await page.goto(adresseavisen('/kundeservice?utm_source=nyhetsbrev&exp=banner:b'));
  await expect(page.getByRole('heading', { level: 1, name: 'Kundeservice' })).toBeVisible();

  // Give a waiting beacon every chance to leave before saying none did.
  await page.waitForLoadState('networkidle');
  expect(beacons).toHaveLength(0);
  expect(await storedExperiments(page)).toBeNull();

  await openConsentManager(page);
  await consentDialog(page).getByRole('button', { name: 'Avslå alle' }).click();
  await expect(consentDialog(page)).toBeHidden();
  await page.waitForLoadState('networkidle');
  expect(beacons).toHaveLength(0);
  expect(await storedExperiments(page)).toBeNull();
  expect(await page.evaluate(() => window.localStorage.getItem('CMP:analytics'))).toBe('0');

  await openConsentManager(page);
  await consentDialog(page).getByRole('switch', { name: 'Analyse' }).check();
  const beacon = page.waitForRequest(COLLECTOR);
  await consentDialog(page).getByRole('button', { name: 'Lagre valg' }).click();
  await expect(consentDialog(page)).toBeHidden();

  const event = (await beacon).postDataJSON() as Record<string, unknown>;
  expect(event).toMatchObject({
    type: 'View',
    trackerId: 'polaris-adressa-unified',
    pageType: 'customerservice',
    deployStage: 'dev',
    origin: { utm: { source: 'nyhetsbrev' } },
    experiments: [{ id: 'banner', name: 'banner', variant: 'b', platform: 'minside' }],
  });
  expect(JSON.parse((await storedExperiments(page)) ?? 'null')).toEqual([{ id: 'banner', name: 'banner', variant: 'b', platform: 'minside' }]);
  expect(await page.evaluate(() => window.localStorage.getItem('CMP:analytics'))).toBe('1');
  expect((await page.context().cookies()).find((cookie) => cookie.name === '_cmp_analytics')?.value).toBe('1');

  // From now on every page is tracked as it is shown, with the consent kept across loads.
  const next = page.waitForRequest(COLLECTOR);
  await page.goto(adresseavisen('/student'));
  expect(((await next).postDataJSON() as { pageType: string }).pageType).toBe('student');
});

test('the footer button reopens the dialog with the choice that holds; Esc closes it once chosen; axe finds no serious violation', async ({ page }) => {
  await recordBeacons(page);
  await page.goto(adresseavisen('/kundeservice'));
  await openConsentManager(page);

  const results = await new AxeBuilder({ page }).include('dialog').withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

  // No choice yet: Esc does not get the visitor out without one.
  await page.keyboard.press('Escape');
  await expect(consentDialog(page)).toBeVisible();
  await consentDialog(page).getByRole('button', { name: 'Godta alle' }).click();
  await expect(consentDialog(page)).toBeHidden();

  await openConsentManager(page);
  for (const name of ['Analyse', 'Markedsføring', 'Personlig tilpasning']) await expect(consentDialog(page).getByRole('switch', { name })).toBeChecked();
  // Focus stays in the modal dialog.
  for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(consentDialog(page)).toBeHidden();
});

test('a signed-in choice is kept on the server with its history', async ({ page }) => {
  await recordBeacons(page);
  await page.goto(adresseavisen('/'));
  await signInAtProvider(page, 'digital@minside.test');
  await expect(page).toHaveURL(adresseavisen('/'));

  await openConsentManager(page);
  await consentDialog(page).getByRole('switch', { name: 'Personlig tilpasning' }).check();
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/consent') && response.request().method() === 'PUT');
  await consentDialog(page).getByRole('button', { name: 'Lagre valg' }).click();
  expect((await saved).status()).toBe(200);

  const { status, body } = await apiCall(page, '/api/consent');
  expect(status).toBe(200);
  expect(body).toMatchObject({
    current: { choices: { analytics: false, marketing: false, personalisation: true }, source: 'dialog', titleCode: 'ADR' },
    history: [{ choices: { analytics: false, marketing: false, personalisation: true } }],
  });
});
