import { expect, test } from '../fixtures.ts';

// The second server of the config runs with MAINTENANCE=on.
const port = process.env.E2E_MAINTENANCE_PORT;

test.describe('maintenance mode (MAINTENANCE=on)', () => {
  for (const path of ['/kundeservice', '/', '/fakturaoversikt', '/finnes-ikke']) {
    test(`${path} shows the maintenance page`, async ({ page }) => {
      await page.goto(`http://adresseavisen.localhost:${port}${path}`);
      await expect(page).toHaveURL(/\/maintenance$/);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('midlertidig utilgjengelig');
      await expect(page).toHaveTitle('Min Side - Adresseavisen');
    });
  }
});
