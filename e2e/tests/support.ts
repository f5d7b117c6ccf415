import { expect, type Locator, type Page } from '../fixtures.ts';

// Shared steps of the journeys: the demo users' password (README "Demo users") and the
// embedded provider's login form.
export const DEMO_PASSWORD = 'demo1234';

export const port = process.env.E2E_PORT;
export const adresseavisen = (path: string) => `http://adresseavisen.localhost:${port}${path}`;
export const varden = (path: string) => `http://varden.localhost:${port}${path}`;

/**
 * A form's error summary (issue 25.12, apps/web/src/components/form.tsx): after a submit that ends
 * in field errors it has the focus, and each field's message is a link to the field.
 */
export function errorSummary(scope: Page | Locator): Locator {
  return scope.getByRole('alert', { name: 'Det er noe som må rettes' });
}

/** Fills in and submits the provider's login form the browser is on. */
export async function signInAtProvider(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Logg inn' })).toBeVisible();
  await page.getByLabel('E-post').fill(email);
  await page.getByLabel('Passord').fill(password);
  await page.getByRole('button', { name: 'Logg inn' }).click();
}

/**
 * The status of an API call made by the page itself, with its cookies. (Playwright's own
 * request client resolves names in Node, which does not know `*.localhost`.) A `json` body
 * is sent as the web client sends it (same origin, JSON), so it passes the CSRF check.
 */
export async function apiCall(page: Page, path: string, init: { method?: string; json?: unknown } = {}): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ url, method, json }) => {
      const response = await fetch(url, {
        method,
        credentials: 'same-origin',
        ...(json === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { url: path, method: init.method ?? 'GET', json: init.json },
  );
}

/**
 * An operator call (bearer OPERATOR_TOKEN, no session), made from the test runner against
 * the server's plain localhost address: operators are not subscribers and use no title host.
 */
export async function operatorCall(path: string, json: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://localhost:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.E2E_OPERATOR_TOKEN ?? ''}` },
    body: JSON.stringify(json),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}
