import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The config is evaluated in the runner and again in every worker: keep the port and the
// data folder in the environment so all of them agree on one server.
process.env.E2E_PORT ??= String(40_000 + Math.floor(Math.random() * 20_000));
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'minside-e2e-'));
const port = Number(process.env.E2E_PORT);
// A second server with MAINTENANCE=on, for the maintenance journey.
const maintenancePort = port + 1;
process.env.E2E_MAINTENANCE_PORT = String(maintenancePort);
// A third server with "Logg inn med Vipps" beside the demo account (VIPPS_LOGIN=simulator, as `npm start`), for the two-issuer journey.
const vippsLoginPort = port + 2;
process.env.E2E_VIPPS_LOGIN_PORT = String(vippsLoginPort);
const root = path.resolve(import.meta.dirname, '..');
/** The operator endpoints' bearer token on the e2e server (tests/support.ts reads it back). */
const operatorToken = (process.env.E2E_OPERATOR_TOKEN ??= `e2e-operator-${Math.random().toString(36).slice(2)}-${Date.now()}`);

const browser = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  },
};
const sequentialJourneys = [/family\.spec\.ts$/, /ordering\.spec\.ts$/] as const;

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: [['list'], ['json']],
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'nb-NO',
    timezoneId: 'Europe/Oslo',
    screenshot: 'only-on-failure',
    // A trace only of a retry: recording one for every test (to keep the failures') cost a quarter
    // of the run's CPU, measured on the 2-core CI machine. In CI a failing test is retried once, so
    // a failure still comes with its trace; locally (no retries) rerun with `--trace on`.
    trace: 'on-first-retry',
  },
  // ny@minside.test starts with no subscription (auth and guard journeys rely on that), is
  // invited into familie@'s sharing (family.spec, which ends by removing the share again) and
  // finally buys one (ordering.spec). Those journeys therefore run after everything else, in
  // that order, each as a project that depends on the one before.
  projects: [
    { name: 'chromium', use: browser, testIgnore: [...sequentialJourneys] },
    { name: 'family-journey', use: browser, testMatch: sequentialJourneys[0], dependencies: ['chromium'] },
    { name: 'ordering-journey', use: browser, testMatch: sequentialJourneys[1], dependencies: ['family-journey'] },
  ],
  webServer: [
    {
      command: 'node apps/server/dist/main.js',
      cwd: root,
      url: `http://127.0.0.1:${port}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      // consent.spec.ts intercepts the (third-party) collector; CONSENT_PROMPT=off keeps the first-visit dialog off the other journeys.
      // JOBS=off: the journeys read seeded invoices and orders that a scheduled run (renewals at start-up) would change; specs run jobs through the operator API.
      // PAYMENT_PROVIDER and VIPPS_BASE_URL empty (whatever the shell says): the journeys pay as `npm start` does, through the real Vipps MobilePay adapter against the simulator embedded in the server (ADR 025), on its landing page.
      env: {
        PORT: String(port),
        DATA_DIR: process.env.E2E_DATA_DIR,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        OPERATOR_TOKEN: operatorToken,
        ANALYTICS_COLLECTOR_URL: 'https://collector.analytics.test/v1/events',
        CONSENT_PROMPT: 'off',
        JOBS: 'off',
        PAYMENT_PROVIDER: '',
        VIPPS_BASE_URL: '',
      },
    },
    {
      command: 'node apps/server/dist/main.js',
      cwd: root,
      url: `http://127.0.0.1:${maintenancePort}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(maintenancePort),
        DATA_DIR: `${process.env.E2E_DATA_DIR}/maintenance`,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        MAINTENANCE: 'on',
        JOBS: 'off',
        PAYMENT_PROVIDER: '',
        VIPPS_BASE_URL: '',
      },
    },
    {
      command: 'node apps/server/dist/main.js',
      cwd: root,
      url: `http://127.0.0.1:${vippsLoginPort}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(vippsLoginPort),
        DATA_DIR: `${process.env.E2E_DATA_DIR}/vipps-login`,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        VIPPS_LOGIN: 'simulator',
        CONSENT_PROMPT: 'off',
        JOBS: 'off',
        PAYMENT_PROVIDER: '',
        VIPPS_BASE_URL: '',
      },
    },
  ],
});
