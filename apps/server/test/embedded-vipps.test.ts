import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, osloToday, systemClock, type Invoice, type Payment } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createDatabase, databaseOptionsFrom } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemoData } from '../src/db/seed.ts';
import { insertInvoice } from '../src/modules/billing/issue-invoice.ts';
import { DEMO_PASSWORD, type TestApp } from './helper.ts';
import { signIn } from './support.ts';

// ADR 025 "Development default": with no PAYMENT_PROVIDER outside production (`npm start`), the
// real Vipps MobilePay adapter pays against the simulator embedded in the process. A person
// approves on its landing page; its webhooks reach the app in-process. Its state is in memory, so
// a restart restores the ACTIVE agreements from the database.

const PORTAL = 'http://adresseavisen.localhost:3000';

/** As bin/server.ts starts: the configuration from the environment (a fresh DATA_DIR, the PGlite there), migrated, the demo data seeded. */
async function start(config: Config): Promise<TestApp> {
  const database = await createDatabase(databaseOptionsFrom(config));
  await migrate(database);
  await seedDemoData(database, { password: DEMO_PASSWORD, now: systemClock });
  const app = await buildApp({ config, database, catalogue: defaultCatalogue, now: systemClock });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** The landing page's form as a browser posts it: the answer is a 303 back to the portal. */
async function answerOnLanding(redirectUrl: string, field: 'reference' | 'agreementId', action: 'approve' | 'reject' | 'expire'): Promise<string> {
  const landing = new URL(redirectUrl);
  const id = landing.searchParams.get(field) ?? '';
  const answer = await fetch(new URL(landing.pathname, landing), { method: 'POST', body: new URLSearchParams({ [field]: id, action }), redirect: 'manual' });
  expect(answer.status).toBe(303);
  return answer.headers.get('location') ?? '';
}

describe('npm start pays through Vipps MobilePay against the embedded simulator', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'minside-embedded-vipps-'));
  // The development default: nothing about payments in the environment.
  const config: Config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), webDist: undefined };
  let test: TestApp;

  beforeAll(async () => {
    test = await start(config);
  });
  afterAll(async () => {
    await test?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const paymentRow = async (paymentId: string) => (await test.database.rows<{ status: string; provider: string }>(sql`select status, provider from payment where id = ${paymentId}`))[0];

  it('is the development default', () => {
    expect(config).toMatchObject({ production: false, paymentProvider: 'vipps', vipps: { embeddedSimulator: true } });
    expect(test.app.paymentProvider.name).toBe('vipps');
  });

  it('an invoice paid with Vipps: the landing page, "Godkjenn", back to the portal, the webhook in-process, the invoice paid', async () => {
    const papir = await signIn(test, PORTAL, 'papir@minside.test');
    const created = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        {
          ariaAccountNo: 40_000_001,
          subscriptionId: 'demo-papir-adr',
          amountOre: 64_900,
          description: 'Komplett, Vipps-test',
          periodFrom: addDays(osloToday(systemClock()), 20),
          periodTo: addDays(osloToday(systemClock()), 49),
          dueOn: addDays(osloToday(systemClock()), 10),
        },
        systemClock(),
      ),
    );
    const started = await papir.request('POST', `${PORTAL}/api/invoice/${created.ariaInvoiceNo}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBe(200);
    const { paymentId, redirectUrl } = started.json<{ paymentId: string; redirectUrl: string }>();
    // The simulator's own page on loopback, not the portal's /_dev/pay.
    expect(redirectUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/simulator/landing\\?reference=${paymentId}$`));
    const page = await fetch(redirectUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Simulator');
    expect(html).toMatch(/649,00\skr/);
    for (const label of ['Godkjenn', 'Avvis', 'La utløpe']) expect(html).toContain(label);

    const back = await answerOnLanding(redirectUrl, 'reference', 'approve');
    expect(back.startsWith(`${PORTAL}/`)).toBe(true);
    // The signed webhook reaches the app through app.inject (no DNS for *.localhost): captured without the return page asking.
    await expect.poll(async () => (await paymentRow(paymentId))?.status, { timeout: 5_000 }).toBe('CAPTURED');
    expect(await paymentRow(paymentId)).toEqual({ status: 'CAPTURED', provider: 'vipps' });
    const invoices = (await papir.request('GET', `${PORTAL}/api/invoice/40000001`)).json<{ invoices: Invoice[] }>().invoices;
    expect(invoices.find((row) => row.ariaInvoiceNo === created.ariaInvoiceNo)).toMatchObject({ status: 'PAID', settledBy: 'VIPPS' });
    // The receipt page the portal returns to.
    expect((await papir.request('GET', `${PORTAL}/api/payment/${paymentId}`)).json<Payment>()).toMatchObject({ status: 'CAPTURED' });
  });

  it('an agreement approved before a restart is still there after it, and renewals are charged on it', async () => {
    const digital = await signIn(test, PORTAL, 'digital@minside.test');
    const chosen = await digital.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: 40_000_002, titleCode: 'ADR', method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(chosen.status, chosen.body).toBe(200);
    const { paymentId, redirectUrl } = chosen.json<{ paymentId: string; redirectUrl: string }>();
    expect(await answerOnLanding(redirectUrl, 'agreementId', 'approve')).toBe(`${PORTAL}/endre-betalingsmetode/verify?paymentId=${paymentId}`);
    const agreementId = new URL(redirectUrl).searchParams.get('agreementId') ?? '';
    expect(agreementId).toMatch(/^agr_/);
    // Back on the portal, the return page asks the provider: the agreement is the subscription's way to pay.
    expect((await digital.request('GET', `${PORTAL}/api/payment/${paymentId}`)).json<Payment>()).toMatchObject({ status: 'CAPTURED' });
    expect(
      await test.database.rows(sql`select provider_agreement_id from payment_agreement where subscription_id = 'demo-digital-adr' and status = 'ACTIVE' and provider = 'vipps' and method = 'VIPPS'`),
    ).toEqual([{ provider_agreement_id: agreementId }]);

    // The restart: the simulator stops with the app, and a new one knows only what the database says.
    const before = new URL(redirectUrl).origin;
    await test.close();
    await expect(fetch(before)).rejects.toThrow();
    test = await start(config);
    expect(await test.app.paymentProvider.agreement(agreementId)).toEqual({ agreementId, method: 'VIPPS', card: null, phoneNumber: null });

    // A renewal invoice due today becomes a charge on the restored agreement, waiting for its due date.
    const renewal = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        {
          ariaAccountNo: 40_000_002,
          subscriptionId: 'demo-digital-adr',
          amountOre: 29_900,
          description: 'Digital, neste måned',
          periodFrom: addDays(osloToday(systemClock()), 2),
          periodTo: addDays(osloToday(systemClock()), 31),
          dueOn: osloToday(systemClock()),
        },
        systemClock(),
      ),
    );
    await test.app.billingJobs.runRenewals();
    const [charge] = await test.database.rows<{ id: string; status: string; provider_reference: string }>(
      sql`select id, status, provider_reference from payment where aria_invoice_no = ${renewal.ariaInvoiceNo} and purpose = 'RENEWAL'`,
    );
    expect(charge).toMatchObject({ status: 'PENDING', provider_reference: `charge:${agreementId}:${charge?.id}` });
    expect(await test.app.paymentProvider.lookup(charge?.provider_reference ?? '')).toMatchObject({ status: 'AUTHORIZED', agreementId });
  });
});

describe('the embedded simulator and production', () => {
  it('is refused for an app built in code with an https PUBLIC_URL', async () => {
    const database = await createDatabase({ kind: 'pglite', dataDir: undefined });
    try {
      await migrate(database);
      const config: Config = { ...loadConfig({ LOG_LEVEL: 'silent' }), webDist: undefined, seedDemoData: false, publicUrl: 'https://minside.adressa.no' };
      await expect(buildApp({ config, database, catalogue: defaultCatalogue, now: systemClock })).rejects.toThrow(/the embedded Vipps MobilePay simulator moves no money/);
    } finally {
      await database.close();
    }
  });
});
