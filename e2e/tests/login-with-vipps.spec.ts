import { expect, test, type Page } from '../fixtures.ts';
import { apiCall, DEMO_PASSWORD, signInAtProvider } from './support.ts';

// Issue 24: the third server of the config offers "Logg inn med Vipps" beside the demo account,
// as `npm start` does (VIPPS_LOGIN=simulator: the Vipps Login simulator, its demo persons in
// identity/vipps-login/embedded.ts). The journeys run in order on their own data.
const port = process.env.E2E_VIPPS_LOGIN_PORT;
const adresseavisen = (path: string) => `http://adresseavisen.localhost:${port}${path}`;
const faedrelandsvennen = (path: string) => `http://faedrelandsvennen.localhost:${port}${path}`;

async function signInAtVipps(page: Page, email: string) {
  await expect(page.getByRole('heading', { level: 1, name: 'Logg inn med Vipps' })).toBeVisible();
  await page.getByLabel('E-post').fill(email);
  await page.getByLabel('Passord').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Godta og logg inn' }).click();
}

test.describe.serial('logging in with Vipps beside the account', () => {
  test('a person who declines at Vipps (its consent is all or nothing) is back where they started, signed in nowhere', async ({ page }) => {
    await page.goto(adresseavisen('/kundeservice'));
    await page.getByRole('banner').getByRole('link', { name: 'Logg inn' }).click();
    await expect(page).toHaveURL(/\/logg-inn\?login=/);
    await page.getByRole('button', { name: 'Logg inn med Vipps' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Logg inn med Vipps' })).toBeVisible();
    await page.getByRole('button', { name: 'Avbryt' }).click();
    await expect(page).toHaveURL(adresseavisen('/kundeservice'));
    await expect(page.getByRole('heading', { level: 1, name: 'Kundeservice' })).toBeVisible();
    expect((await apiCall(page, '/api/session')).status).toBe(401);
  });

  test('Kari picks "Logg inn med Vipps", reaches her own subscription, and sees where her birthdate comes from', async ({ page }) => {
    await page.goto(adresseavisen('/'));
    await expect(page).toHaveURL(/\/logg-inn\?login=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Logg inn' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Logg inn med e-post og passord' })).toBeVisible();
    await page.getByRole('button', { name: 'Logg inn med Vipps' }).click();
    await signInAtVipps(page, 'papir@minside.test');
    // Her verified address at Vipps is papir@'s: the same subscriber, with her paper subscription.
    await expect(page).toHaveURL(adresseavisen('/'));
    await page.goto(adresseavisen('/endre-profil'));
    await expect(page.getByText(/Bekreftet fra Vipps/).first()).toBeVisible();
    const logins = page.getByRole('region', { name: 'Slik logger du inn' });
    await expect(logins.getByText('Vipps', { exact: true })).toBeVisible();
    await expect(logins.getByText(/^Koblet til \d/)).toHaveCount(2);
    await expect(page.getByLabel('Fødselsdato')).toHaveAttribute('readonly', '');
  });

  test('a buyer at a title that takes no self-declared age confirms it with Vipps, and comes back to pay', async ({ page }) => {
    await page.goto(faedrelandsvennen('/bestill-abonnement'));
    await page.getByRole('button', { name: 'Logg inn med e-post og passord' }).click();
    await signInAtProvider(page, 'ung@minside.test');
    await expect(page.getByRole('heading', { level: 1, name: 'Bestill abonnement' })).toBeVisible();
    await page.getByRole('radio', { name: /^Ung/ }).first().check();
    await page.getByRole('button', { name: 'Gå videre' }).click();
    await page.getByRole('button', { name: 'Betal med Vipps' }).click();
    await expect(page.getByRole('alert')).toContainText('Bekreft alderen med Vipps');
    await page.getByRole('button', { name: 'Bekreft alderen med Vipps' }).click();
    await signInAtVipps(page, 'vipps@minside.test');
    await expect(page).toHaveURL(/\/bestill-abonnement/);
    // Still Emma, now with Vipps' birthdate (her name stays the one her account gives).
    expect((await apiCall(page, '/api/session?titleCode=FVN')).body).toMatchObject({ user: { givenName: 'Emma' } });
    await page.goto(faedrelandsvennen('/bestill-abonnement'));
    await page.getByRole('radio', { name: /^Ung/ }).first().check();
    await page.getByRole('button', { name: 'Gå videre' }).click();
    await page.getByRole('button', { name: 'Betal med Vipps' }).click();
    await expect(page).toHaveURL(/\/simulator\/landing\?(reference|agreementId)=/);
  });
});
