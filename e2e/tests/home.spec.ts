import { expect, test, type Page } from '../fixtures.ts';
import { adresseavisen, signInAtProvider } from './support.ts';

// Issue 25.10: the home page as the subscriber's "what's going on", read as three demo
// subscribers (read only: other journeys change these personas, so nothing here depends on
// whether papir's coming invoice has been paid yet or digital has cancelled).

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(adresseavisen('/'));
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(adresseavisen('/'));
}

test('papir sees where the paper goes and the AvtaleGiro draw as coming, not as something to pay; tasks in groups; a sub-page leads back', async ({ page }) => {
  await signIn(page, 'papir@minside.test');
  const delivery = page.getByRole('region', { name: 'Levering', exact: true });
  await expect(delivery).toContainText('Kari Nordmann');
  await expect(delivery).toContainText('7011 Trondheim');
  const payment = page.getByRole('region', { name: 'Neste betaling' });
  // Issue 25.6 on the home page: the bank draws it by itself; nothing invites paying it twice.
  await expect(payment).toContainText('trekkes automatisk');
  await expect(page.getByRole('heading', { name: 'Dette må ordnes' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Betal .* nå$/ })).toHaveCount(0);

  const shortcuts = page.getByRole('region', { name: 'Snarveier' });
  for (const heading of ['Levering', 'Betaling', 'Abonnement', 'Deling', 'Personvern']) {
    await expect(shortcuts.getByRole('heading', { level: 3, name: heading, exact: true })).toBeVisible();
  }
  await shortcuts.getByRole('link', { name: /Fakturaoversikt/ }).click();
  await expect(page).toHaveURL(adresseavisen('/fakturaoversikt'));
  await page.getByRole('navigation', { name: 'Tilbake' }).getByRole('link', { name: 'Tilbake til oversikten' }).click();
  await expect(page).toHaveURL(adresseavisen('/'));
  await expect(page.getByRole('heading', { level: 1, name: 'Min Side' })).toBeVisible();
  // The overview itself has no way "back".
  await expect(page.getByRole('link', { name: 'Tilbake til oversikten' })).toHaveCount(0);
});

test('digital has no delivery block and no delivery tasks', async ({ page }) => {
  await signIn(page, 'digital@minside.test');
  await expect(page.getByRole('region', { name: 'Neste betaling' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Levering', exact: true })).toHaveCount(0);
  const shortcuts = page.getByRole('region', { name: 'Snarveier' });
  await expect(shortcuts.getByRole('heading', { level: 3, name: 'Betaling', exact: true })).toBeVisible();
  await expect(shortcuts.getByRole('heading', { level: 3, name: 'Levering', exact: true })).toHaveCount(0);
});

test('tidligere sees the way back first, and no delivery or payment to come', async ({ page }) => {
  await signIn(page, 'tidligere@minside.test');
  await expect(page.getByRole('heading', { level: 2, name: /^Vi savner deg!/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start abonnementet igjen' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Levering', exact: true })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Neste betaling' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Snarveier' }).getByRole('heading', { level: 3, name: 'Levering', exact: true })).toHaveCount(0);
});
