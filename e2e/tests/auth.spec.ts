import { expect, test } from '../fixtures.ts';
import { adresseavisen, apiCall, signInAtProvider } from './support.ts';

// SPEC §4 login flow and route guard, §6 roles, end to end through the embedded identity
// provider with the demo subscribers (README "Demo users").

test('signed out, a guarded page leads to the provider, and login lands back on it', async ({ page }) => {
  await page.goto(adresseavisen('/fakturaoversikt?side=2#siste'));
  await expect(page).toHaveURL(/\/idp\/interaction\//);
  await signInAtProvider(page, 'papir@minside.test');

  await expect(page).toHaveURL(adresseavisen('/fakturaoversikt?side=2#siste'));
  await expect(page.getByRole('heading', { level: 1, name: 'Fakturaoversikt' })).toBeVisible();
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'Logg ut' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Logg inn' })).toHaveCount(0);
  expect((await apiCall(page, '/api/session')).status).toBe(200);

  await header.getByRole('button', { name: 'Logg ut' }).click();
  await expect(page).toHaveURL(adresseavisen('/kundeservice'));
  await expect(page.getByRole('banner').getByRole('link', { name: 'Logg inn' })).toBeVisible();
  expect((await apiCall(page, '/api/session')).status).toBe(401);

  // The provider's session ended too: the next login asks for the password again.
  await page.goto(adresseavisen('/fakturaoversikt'));
  await expect(page.getByLabel('Passord')).toBeVisible();
});

test('a wrong password is refused with a Norwegian message', async ({ page }) => {
  await page.goto(adresseavisen('/'));
  await signInAtProvider(page, 'papir@minside.test', 'feil-passord');
  await expect(page.getByRole('alert')).toHaveText('Feil e-post eller passord.');
  await expect(page).toHaveURL(/\/idp\/interaction\//);
});

test('Logg inn in the header signs in from a public page and returns to it', async ({ page }) => {
  await page.goto(adresseavisen('/kundeservice'));
  await page.getByRole('banner').getByRole('link', { name: 'Logg inn' }).click();
  await signInAtProvider(page, 'digital@minside.test');
  await expect(page).toHaveURL(adresseavisen('/kundeservice'));
  await expect(page.getByRole('banner').getByRole('button', { name: 'Logg ut' })).toBeVisible();
});

test('a signed-in user without a subscription is sent to /ingen-abonnement but reaches auth-only pages', async ({ page }) => {
  await page.goto(adresseavisen('/'));
  await signInAtProvider(page, 'ny@minside.test');
  await expect(page).toHaveURL(adresseavisen('/ingen-abonnement'));

  await page.goto(adresseavisen('/personverninnstillinger'));
  await expect(page).toHaveURL(adresseavisen('/personverninnstillinger'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  await page.goto(adresseavisen('/fakturaoversikt'));
  await expect(page).toHaveURL(adresseavisen('/ingen-abonnement'));
});

test('a subscriber gets 404 for another subscriber’s account and subscription', async ({ page }) => {
  await page.goto(adresseavisen('/'));
  await signInAtProvider(page, 'digital@minside.test');
  await expect(page).toHaveURL(adresseavisen('/'));

  expect((await apiCall(page, '/api/account/40000002')).status).toBe(200);
  expect((await apiCall(page, '/api/subscription/40000002/ADR')).status).toBe(200);
  const account = await apiCall(page, '/api/account/40000001');
  expect(account.status).toBe(404);
  expect(account.body).toEqual({ code: 'NOT_FOUND', message: 'Fant ikke det du lette etter.' });
  expect((await apiCall(page, '/api/subscription/40000001/ADR')).status).toBe(404);
});
