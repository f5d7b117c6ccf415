import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../fixtures.ts';
import { strFromU8, unzipSync } from 'fflate';
import { adresseavisen, errorSummary, operatorCall, signInAtProvider } from './support.ts';

// Issue 9 data rights, consent pages, terms and customer service through the real UI.
// digital@ is read by other journeys at the same time, so it only exports (adds a request,
// changes nothing they read); the deletion runs on slett@, a persona seeded for it alone.

async function signIn(page: Page, email: string, path: string): Promise<void> {
  await page.goto(adresseavisen(path));
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(adresseavisen(path));
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${page.url()} ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('digital@ downloads a copy of their data: a zip with the subscription and the invoices', async ({ page }) => {
  await signIn(page, 'digital@minside.test', '/spidTakeoutGateway');
  await expect(page.getByRole('heading', { level: 1, name: 'Last ned dataene dine' })).toBeVisible();
  await page.getByRole('button', { name: 'Be om kopi av dataene mine' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Kopien er klar' })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page
    .getByRole('link', { name: /^Last ned \(/ })
    .first()
    .click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^minside-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile(await download.path())));
  const data = JSON.parse(strFromU8(files['minside-data.json'] ?? new Uint8Array())) as {
    profile: { email: string };
    subscriptions: { ariaPlanID: string; titleCode: string }[];
    invoices: { kid: string; amountOre: number }[];
  };
  expect(data.profile.email).toBe('digital@minside.test');
  expect(data.subscriptions).toEqual([expect.objectContaining({ ariaPlanID: 'ADR-DIGITAL-M', titleCode: 'ADR' })]);
  expect(data.invoices.length).toBeGreaterThan(0);
  expect(data.invoices[0]).toEqual(expect.objectContaining({ amountOre: 29_900 }));

  await expectNoSeriousViolations(page);
});

test('slett@ deletes the account: both boxes are needed, and after the job the login no longer works', async ({ page, browser }) => {
  await signIn(page, 'slett@minside.test', '/spidDeleteGateway');
  await expect(page.getByText('Fakturaer og betalinger må vi ta vare på i 5 år etter bokføringsloven. De beholdes uten navnet ditt.')).toBeVisible();
  await expectNoSeriousViolations(page);

  const submit = page.getByRole('button', { name: 'Slett kontoen min' });
  await submit.click();
  await expect(errorSummary(page)).toBeFocused();
  await expect(errorSummary(page).getByRole('link')).toHaveText(['Du må krysse av for begge bekreftelsene for å slette kontoen.']);
  await page.getByRole('checkbox', { name: /kontoen og abonnementene mine avsluttes/ }).check();
  await submit.click();
  await expect(errorSummary(page)).toBeFocused();
  await expect(errorSummary(page).getByRole('link')).toHaveText(['Du må krysse av for begge bekreftelsene for å slette kontoen.']);
  await page.getByRole('checkbox', { name: /fakturaer og betalinger tas vare på i 5 år/ }).check();
  await submit.click();
  await expect(page.getByRole('heading', { name: 'Slettingen er bestilt' })).toBeVisible();
  await expect(page.getByText('Vi har sagt opp: Digital.')).toBeVisible();

  const job = await operatorCall('/api/operator/jobs/data-erasure', {});
  expect(job.status).toBe(200);
  expect((job.body as { processed: number }).processed).toBeGreaterThanOrEqual(1);

  // The old session is gone…
  await page.goto(adresseavisen('/spidDeleteGateway'));
  await expect(page.getByRole('heading', { level: 1, name: 'Logg inn' })).toBeVisible();
  // …and a fresh browser cannot sign in with the deleted login.
  const fresh = await browser.newPage();
  await fresh.goto(adresseavisen('/personverninnstillinger'));
  await signInAtProvider(fresh, 'slett@minside.test');
  await expect(fresh.getByText('Feil e-post eller passord.')).toBeVisible();
  await fresh.close();
});

test('consent pages keep what was given when, and the privacy settings link everything', async ({ page }) => {
  // papir@ is read by other journeys too; the consent permissions are a table of their own that no other journey reads.
  await signIn(page, 'papir@minside.test', '/personverninnstillinger');
  await expect(page.getByRole('heading', { level: 1, name: 'Personverninnstillinger' })).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.getByRole('link', { name: 'Undersøkelser' }).first().click();
  await expect(page).toHaveURL(adresseavisen('/samtykke3'));
  await page.getByRole('checkbox', { name: /Spørreundersøkelser/ }).check();
  await page.getByRole('button', { name: 'Lagre samtykker' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Samtykkene er lagret' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Historikk' }).getByText('Spørreundersøkelser: gitt')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: /Spørreundersøkelser/ })).toBeChecked();
  await page.getByRole('checkbox', { name: /Spørreundersøkelser/ }).uncheck();
  await page.getByRole('button', { name: 'Lagre samtykker' }).click();
  await expect(page.getByRole('region', { name: 'Historikk' }).getByText('Spørreundersøkelser: trukket tilbake')).toBeVisible();

  for (const path of ['/samtykke1', '/samtykke2', '/samtykke3']) {
    await page.goto(adresseavisen(path));
    await expect(page.getByRole('button', { name: 'Lagre samtykker' })).toBeEnabled();
    await expectNoSeriousViolations(page);
  }
});

test('terms and policy pages are rendered from the Markdown of the title group', async ({ page }) => {
  await page.goto(adresseavisen('/vilkaar'));
  await expect(page.getByRole('heading', { level: 1, name: 'Vilkår for abonnement i Adresseavisen Gruppen' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'si opp' })).toHaveAttribute('href', '/avslutt-abonnement');
  await expectNoSeriousViolations(page);
  for (const [path, heading] of [
    ['/vilkaar/bedrift', 'Vilkår for bedriftsabonnement'],
    ['/vilkaar-mer', 'Flere vilkår'],
    ['/data', 'Dine data'],
    ['/personvern', 'Personvernerklæring for Adresseavisen Gruppen'],
    ['/cookie-policy', 'Informasjonskapsler'],
    ['/personverndetaljer', 'Personverndetaljer'],
  ] as const) {
    await page.goto(adresseavisen(path));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expectNoSeriousViolations(page);
  }
});

test('customer service: the FAQ is searchable, answers link to the page that solves them, and the contact details show', async ({ page }) => {
  await page.goto(adresseavisen('/kundeservice'));
  await expect(page.getByRole('heading', { level: 3, name: 'Digital tilgang' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Kontakt oss' })).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.getByRole('searchbox', { name: 'Søk i spørsmål og svar' }).fill('ferie');
  await expect(page.getByRole('status').filter({ hasText: '1 svar passer «ferie».' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ferie og leveringsendring' })).toHaveAttribute('href', '/endre-avislevering');
  await expect(page.getByText('Hvordan sier jeg opp abonnementet?')).toBeHidden();

  await page.getByRole('searchbox', { name: 'Søk i spørsmål og svar' }).fill('kopi av dataene');
  await expect(page.getByRole('link', { name: 'Last ned dataene dine' })).toHaveAttribute('href', '/spidTakeoutGateway');
  await page.getByRole('searchbox', { name: 'Søk i spørsmål og svar' }).fill('xyzzy');
  await expect(page.getByRole('status').filter({ hasText: 'Ingen svar passer «xyzzy».' })).toBeVisible();
  await expectNoSeriousViolations(page);
});
