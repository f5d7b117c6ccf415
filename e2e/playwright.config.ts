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
const root = path.resolve(import.meta.dirname, '..');

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
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
        },
      },
    },
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
      env: { PORT: String(port), DATA_DIR: process.env.E2E_DATA_DIR, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    },
    {
      command: 'node apps/server/dist/main.js',
      cwd: root,
      url: `http://127.0.0.1:${maintenancePort}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { PORT: String(maintenancePort), DATA_DIR: `${process.env.E2E_DATA_DIR}/maintenance`, LOG_LEVEL: 'warn', DATABASE_URL: '', MAINTENANCE: 'on' },
    },
  ],
});
