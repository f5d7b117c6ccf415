import { expect, type Page } from '@playwright/test';

// Shared steps of the journeys: the demo users' password (README "Demo users") and the
// embedded provider's login form.
export const DEMO_PASSWORD = 'demo1234';

export const port = process.env.E2E_PORT;
export const adresseavisen = (path: string) => `http://adresseavisen.localhost:${port}${path}`;
export const varden = (path: string) => `http://varden.localhost:${port}${path}`;

/** Fills in and submits the provider's login form the browser is on. */
export async function signInAtProvider(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Logg inn' })).toBeVisible();
  await page.getByLabel('E-post').fill(email);
  await page.getByLabel('Passord').fill(password);
  await page.getByRole('button', { name: 'Logg inn' }).click();
}

/**
 * The status of an API call made by the page itself, with its cookies. (Playwright's own
 * request client resolves names in Node, which does not know `*.localhost`.)
 */
export async function apiCall(page: Page, path: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async (url) => {
    const response = await fetch(url, { credentials: 'same-origin' });
    return { status: response.status, body: (await response.json()) as unknown };
  }, path);
}
