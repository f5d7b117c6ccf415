import { spawn } from 'node:child_process';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, errorMessages, orderResponseSchema, orderSchema, paymentRedirectSchema, systemClock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { signWebhookRequest } from '@minside/vipps';
import type { SimulatorRequest, VippsSimulator } from '@minside/vipps/simulator';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemoData } from '../src/db/seed.ts';
import { login, TestBrowser, type BrowserResponse } from './browser.ts';
import { buildTestApp, createScratchDatabase, DEMO_PASSWORD, testDatabases, type ScratchDatabase, type TestApp } from './helper.ts';
import { freePort } from './server-process.ts';
import { httpRequest, processTransport, startDatabaseProxy, type DatabaseProxy, type HttpAnswer, type HttpRequestError } from './reliability-support.ts';
import { answerAtVipps, expectRefused, signIn, vippsOf } from './support.ts';

// Issue 10 item 4: what the portal does when the things it depends on fail.
// 1. The database goes away mid-run (PostgreSQL through a TCP proxy we cut or stall; PGlite closed).
// 2. SIGTERM while requests are in flight (the real server process).
// 3. The payment provider (Vipps MobilePay, the simulator embedded in the app) answers 500 or times out.
// PGlite is embedded: it cannot go away while the process lives, so for it only the 503 answer
// is shown (a closed database: the last test of section 3, on both databases); "comes back by
// itself" is a PostgreSQL property, shown through the proxy.

const PORTAL = 'http://adresseavisen.localhost:3000';
const postgresUrl = process.env.TEST_DATABASE_URL;
const unavailable = { code: errorCodes.unavailable, message: errorMessages.unavailable };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

/** A server-side outcome a request may have while the database is away: an answer, never a 500 or a hang. */
function expectAnsweredOrUnavailable(response: BrowserResponse, ok: number[]): void {
  if (response.status === 503) expect(response.json()).toEqual(unavailable);
  else expect(ok, `${response.status} ${response.body}`).toContain(response.status);
}

/** The capture requests Vipps MobilePay received for one payment (ePayment). */
function captureRequests(test: TestApp, paymentId: string): SimulatorRequest[] {
  return vippsOf(test).requests.filter((request) => request.method === 'POST' && request.path === `/epayment/v1/payments/${paymentId}/capture`);
}

/** The simulator's `name` event about a payment, one that was lost on the way (the drop knob). */
function lostWebhook(simulator: VippsSimulator, reference: string, name: string): unknown {
  const lost = simulator.webhookDeliveries.find(
    (delivery) => delivery.outcome === 'dropped' && (delivery.body as { reference?: string; name?: string }).reference === reference && (delivery.body as { name?: string }).name === name,
  );
  if (!lost) throw new Error(`no lost ${name} webhook about ${reference}`);
  return lost.body;
}

/** A webhook body sent again as Vipps MobilePay retries it: signed anew with our registration's secret. */
async function sendWebhookAgain(test: TestApp, body: unknown, date: Date) {
  const [stored] = await test.database.rows<{ value: string }>(sql`select value from billing_secret where name = 'vipps_webhook:123456'`);
  const { secret, url } = JSON.parse(stored?.value ?? '{}') as { secret: string; url: string };
  const registered = new URL(url);
  const payload = JSON.stringify(body);
  const headers = signWebhookRequest({ secret, method: 'POST', pathAndQuery: registered.pathname, host: registered.host, body: payload, date });
  return test.app.inject({ method: 'POST', url: registered.pathname, headers: { ...headers, 'content-type': 'application/json' }, payload });
}

// --- 1. The database goes away (PostgreSQL) ----------------------------------------------------

describe.skipIf(!postgresUrl)('PostgreSQL goes away and comes back (TCP proxy)', () => {
  const QUERY_TIMEOUT_MS = 1_500;
  let scratch: ScratchDatabase;
  let proxy: DatabaseProxy;
  let database: Database;
  let test: TestApp;
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => crashes.push(error);

  beforeAll(async () => {
    process.on('uncaughtExceptionMonitor', onCrash);
    scratch = await createScratchDatabase('postgres');
    if (scratch.options.kind !== 'postgres') throw new Error('expected a PostgreSQL scratch database');
    proxy = await startDatabaseProxy({ host: '127.0.0.1', port: 5432 });
    database = await createDatabase({ kind: 'postgres', url: proxy.url(scratch.options.url), queryTimeoutMs: QUERY_TIMEOUT_MS });
    await migrate(database);
    await seedDemoData(database, { password: DEMO_PASSWORD, now: systemClock });
    const config = testConfig();
    const app = await buildApp({ config, database, catalogue: defaultCatalogue, now: systemClock });
    await app.ready();
    test = { app, database, config, close: async () => {} };
  });
  afterEach(async () => {
    await proxy.restore();
    // Not one uncaught error: in the server process any of them would have been a crash.
    expect(crashes).toEqual([]);
  });
  afterAll(async () => {
    process.off('uncaughtExceptionMonitor', onCrash);
    await test?.app.close();
    await database?.close();
    await proxy?.close();
    await scratch?.dispose();
  });

  const readyz = () => test.app.inject({ method: 'GET', url: '/readyz' });
  const updateProfile = (browser: TestBrowser, givenName: string) =>
    browser.request('PUT', `${PORTAL}/api/profile`, { json: { givenName, familyName: 'Nygård', phoneNumber: '', birthdate: '1994-05-06' } });
  const givenNameOfNy = async () => (await database.rows<{ given_name: string }>(sql`select given_name from app_user where id = 'user-ny'`))[0]?.given_name;

  it('cut: requests in flight and new ones answer 503 at once, in Norwegian; service resumes without a restart', async () => {
    const ny = await signIn(test, PORTAL, 'ny@minside.test');
    // Requests in flight when the connections drop: each gets an answer (its own, or 503), none a 500.
    const inFlight = Array.from({ length: 16 }, (_, i) => (i % 2 ? ny.request('GET', `${PORTAL}/api/profile`) : updateProfile(ny, `Før ${i}`)));
    await sleep(5);
    await proxy.cut();
    for (const response of await Promise.all(inFlight)) expectAnsweredOrUnavailable(response, [200]);

    const ready = await timed(readyz());
    expect(ready.value.statusCode).toBe(503);
    expect(ready.value.json()).toEqual(unavailable);
    expect(ready.ms).toBeLessThan(1_500);
    // More transactions than the pool has connections: a failed one must not keep its slot.
    const during = await timed(Promise.all(Array.from({ length: 25 }, (_, i) => (i % 5 ? updateProfile(ny, `Under ${i}`) : ny.request('GET', `${PORTAL}/api/profile`)))));
    for (const response of during.value) expectRefused(response, 503, unavailable.code, unavailable.message);
    expect(during.ms).toBeLessThan(3_000);
    expect((await test.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    await proxy.restore();
    expect((await readyz()).statusCode).toBe(200);
    const after = await updateProfile(ny, 'Etter');
    expect(after.status, after.body).toBe(200);
    expect(await givenNameOfNy()).toBe('Etter');
  });

  it('stall: a database that stops answering gives 503 within the query timeout, not a hang, and the pool recovers', async () => {
    const ny = await signIn(test, PORTAL, 'ny@minside.test');
    // Ten open connections in the pool (its maximum), idle when the network hangs.
    await Promise.all(Array.from({ length: 10 }, () => database.rows(sql`select pg_sleep(0.05)`)));
    proxy.stall();
    // Transactions on those connections: each BEGIN goes unanswered. A transaction that failed
    // at BEGIN must still give its connection back, or the pool stays empty after the outage.
    const transactions = await Promise.allSettled(Array.from({ length: 10 }, () => database.db.transaction(async (tx) => tx.execute(sql`select 1`))));
    for (const result of transactions) expect(result.status).toBe('rejected');
    const ready = await timed(readyz());
    expect(ready.value.statusCode).toBe(503);
    expect(ready.ms).toBeLessThan(3_000);
    const during = await timed(Promise.all(Array.from({ length: 14 }, (_, i) => updateProfile(ny, `Hengt ${i}`))));
    for (const response of during.value) expectRefused(response, 503, unavailable.code);
    // Each waits one query timeout (BEGIN), plus the rollback's on the same dead connection.
    expect(during.ms).toBeLessThan(3 * QUERY_TIMEOUT_MS + 2_000);

    await proxy.restore();
    const after = (await timed(updateProfile(ny, 'Løst'))).value;
    expect(after.status, after.body).toBe(200);
    const transaction = await timed(database.db.transaction(async (tx) => tx.execute(sql`select 1`)));
    expect(transaction.ms).toBeLessThan(3_000);
    expect(await givenNameOfNy()).toBe('Løst');
    expect((await readyz()).statusCode).toBe(200);
  });

  it('an order settlement cut in the middle of its transaction leaves nothing half-written; it settles once later', async () => {
    const ny = await signIn(test, PORTAL, 'ny@minside.test');
    const created = orderSchema.parse((await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-DIGITAL-M' } })).json());
    const flow = paymentRedirectSchema.parse((await ny.request('POST', `${PORTAL}/api/order/${created.orderId}/payment`, { json: { method: 'SWEDBANK-PPG' } })).json());
    // The payer approves at Vipps MobilePay; its webhooks (the capture's too) are lost, so the return page settles.
    expect(await answerAtVipps(test, flow.redirectUrl, 'approve', { lostWebhooks: true })).toBe(`/completepurchase?paymentId=${flow.paymentId}&orderId=${created.orderId}`);
    vippsOf(test).faults.webhooks.drop = true;
    const captures = () => captureRequests(test, flow.paymentId).length;

    // The database goes away after the order has written its subscription and invoice in the settling transaction.
    let armed = true;
    test.app.paymentEngine.onSettled('ORDER', async () => {
      if (!armed) return;
      armed = false;
      await proxy.cut();
    });
    try {
      expectRefused(await ny.request('GET', `${PORTAL}/api/order/${created.orderId}`), 503, unavailable.code, unavailable.message);
      await proxy.restore();
      const state = async () =>
        (
          await database.rows<{ order_state: string; payment_status: string; subscriptions: number; invoices: number }>(sql`
            select o.state as order_state, p.status as payment_status,
                   (select count(*)::int from subscription s join account a on a.aria_account_no = s.aria_account_no where a.user_id = 'user-ny' and s.title_code = 'ADR') as subscriptions,
                   (select count(*)::int from invoice i join account a on a.aria_account_no = i.aria_account_no where a.user_id = 'user-ny') as invoices
            from subscription_order o join payment p on p.id = o.payment_id where o.id = ${created.orderId}`)
        )[0];
      // All or nothing: the money is captured at the provider, but nothing of the settlement was kept.
      expect(await state()).toEqual({ order_state: 'awaiting_payment', payment_status: 'PENDING', subscriptions: 0, invoices: 0 });
      expect(await test.app.paymentProvider.lookup(flow.paymentId)).toMatchObject({ status: 'CAPTURED' });
      expect(captures()).toBe(1);

      // The buyer's next look (or the repair job) settles it from the provider: once, without a second capture.
      const done = orderResponseSchema.parse((await ny.request('GET', `${PORTAL}/api/order/${created.orderId}`)).json());
      expect(done.order).toMatchObject({ state: 'fulfilled', lastPaymentStatus: 'CAPTURED' });
      expect(await state()).toEqual({ order_state: 'fulfilled', payment_status: 'CAPTURED', subscriptions: 1, invoices: 1 });
      expect(await test.app.ordering.repair()).toEqual({ resolved: 0, fulfilled: 0, refunded: 0, timedOut: 0 });
      expect(captures()).toBe(1);
    } finally {
      armed = false;
      vippsOf(test).faults.webhooks.drop = false;
    }
  });

  it('the job runner survives the outage and claims its slots when the database is back', async () => {
    const runs = async () => Number((await database.rows<{ n: number }>(sql`select count(*)::int as n from job_run`))[0]?.n);
    const before = await runs();
    await proxy.cut();
    // A pass during the outage fails to claim (logged) instead of throwing or stopping the runner.
    await expect(test.app.jobs.tick()).resolves.toBeUndefined();
    await proxy.restore();
    await test.app.jobs.tick();
    await test.app.jobs.whenIdle();
    const recorded = await database.rows<{ job: string; outcome: string }>(sql`select job, outcome from job_run order by started_at`);
    expect(recorded.length).toBeGreaterThan(before);
    expect(recorded.length).toBe(test.app.jobs.jobs.length);
    for (const run of recorded) expect(run, run.job).toMatchObject({ outcome: 'succeeded' });
  });
});

// --- 2. SIGTERM under load (the real server process) ------------------------------------------

// The real bundle (`npm run build` makes it; `npm test` builds first), as process.test.ts runs it.
const bundle = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** True once the server's request log names each of the four half-sent requests. */
const halfSentLogged = (output: string) => [0, 1, 2, 3].every((i) => output.includes(`"reqId":"rel-half-${i}"`));

interface Outcome {
  id: string;
  kind: 'write' | 'read';
  /** The order's idempotency key (writes). */
  key?: string;
  answer?: HttpAnswer;
  error?: string;
  /** With `error`: the connection had been established, so the request went to an open listener. */
  connected?: boolean;
}

describe.each(testDatabases)('SIGTERM while requests are in flight ($name)', ({ name }) => {
  it('answers every request it accepted, keeps every write it confirmed, and exits 0', { timeout: 180_000 }, async () => {
    expect(existsSync(bundle), 'apps/server/dist/main.js is missing: run `npm run build` first').toBe(true);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'minside-sigterm-'));
    const scratch = await createScratchDatabase(name);
    // Not a random one: on a shared machine that collides now and then (EADDRINUSE).
    const port = await freePort();
    let output = '';
    const databaseUrl = scratch.options.kind === 'postgres' ? scratch.options.url : '';
    // debug: the arrival lines (lib/request-log.ts) say which requests the server accepted.
    const child = spawn(process.execPath, [bundle], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SEED_DEMO_DATA: 'on', LOG_LEVEL: 'debug', JOBS: 'on' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let running = true;
    void exited.then(() => (running = false));
    try {
      const host = `adresseavisen.localhost:${port}`;
      for (let attempt = 0; ; attempt++) {
        const ready = await httpRequest(port, { method: 'GET', host, path: '/readyz' }).catch(() => undefined);
        if (ready?.status === 200) break;
        if (attempt > 1_200 || !running) throw new Error(`server did not become ready:\n${output}`);
        await sleep(100);
      }
      const browser = new TestBrowser(() => processTransport());
      const signedIn = await login(browser, { portal: `http://${host}`, email: 'ny@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' });
      expect(signedIn.status, signedIn.body).toBe(200);
      const cookie = [...browser.cookies(host)].map(([cookieName, value]) => `${cookieName}=${value}`).join('; ');

      const outcomes: Outcome[] = [];
      let sequence = 0;
      const send = async (kind: Outcome['kind']): Promise<Outcome> => {
        const id = `rel-${(sequence += 1)}-${randomUUID().slice(0, 8)}`;
        const key = randomUUID();
        const outcome: Outcome = kind === 'write' ? { id, kind, key } : { id, kind };
        outcomes.push(outcome);
        const headers = { cookie, 'x-request-id': id, 'content-type': 'application/json' };
        try {
          outcome.answer =
            kind === 'write'
              ? await httpRequest(port, { method: 'POST', host, path: '/api/order?titleCode=ADR', headers, body: JSON.stringify({ idempotencyKey: key, ariaPlanID: 'ADR-DIGITAL-M' }) })
              : await httpRequest(port, { method: 'GET', host, path: '/api/order/offers?titleCode=ADR', headers });
        } catch (error) {
          outcome.error = (error as HttpRequestError).code ?? (error as Error).message;
          outcome.connected = (error as HttpRequestError).connected;
        }
        return outcome;
      };
      // Eight clients, each with one request at a time, writes and reads alternating. Each stops
      // when told the server is going away (a 503 with Connection: close, or a refused
      // connection), as a load balancer takes the pod out and sends the next one elsewhere.
      const clients = Array.from({ length: 8 }, async (_, client) => {
        for (let round = 0; running; round++) {
          const outcome = await send((client + round) % 2 ? 'read' : 'write');
          if (outcome.error || outcome.answer?.status === 503) return;
        }
      });

      // Requests that are surely accepted when the signal comes: the server has logged them, half
      // their body is in, and the rest follows after the signal.
      const finishers: (() => void)[] = [];
      const halfSent = Array.from({ length: 4 }, (_, i) => {
        const key = randomUUID();
        const id = `rel-half-${i}`;
        const body = JSON.stringify({ idempotencyKey: key, ariaPlanID: 'ADR-DIGITAL-M' });
        const outcome: Outcome = { id, kind: 'write', key };
        outcomes.push(outcome);
        return new Promise<void>((resolve) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/api/order?titleCode=ADR',
              agent: false,
              headers: { host, cookie, 'x-request-id': id, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
            },
            (res) => {
              let text = '';
              res.on('data', (chunk) => (text += chunk));
              res.on('end', () => {
                outcome.answer = { status: res.statusCode ?? 0, headers: res.headers, body: text };
                resolve();
              });
            },
          );
          req.on('error', (error: NodeJS.ErrnoException) => {
            outcome.error = error.code ?? error.message;
            outcome.connected = true;
            resolve();
          });
          req.write(body.slice(0, 20));
          finishers.push(() => req.end(body.slice(20)));
        });
      });
      for (let attempt = 0; !halfSentLogged(output); attempt++) {
        if (attempt > 600) throw new Error('the server never logged the half-sent requests');
        await sleep(50);
      }

      await sleep(500);
      const signalledAt = performance.now();
      child.kill('SIGTERM');
      setTimeout(() => finishers.forEach((finish) => finish()), 300);
      const code = await exited;
      const stoppedInMs = performance.now() - signalledAt;
      await Promise.all([...clients, ...halfSent]);

      expect(code, output.slice(-3_000)).toBe(0);
      expect(stoppedInMs).toBeLessThan(10_000);
      expect(output).toContain('"msg":"stopped"');

      // "Accepted" is what the server says it received: its request log names the request id.
      const logged = output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg?: string; reqId?: string });
      // Accepted: logged as incoming and not turned away at the door by the closing server.
      const refusedAtTheDoor = new Set(logged.filter((line) => line.msg === 'refused while closing').map((line) => line.reqId));
      const accepted = new Set(logged.filter((line) => line.msg === 'incoming request' && !refusedAtTheDoor.has(line.reqId)).map((line) => line.reqId));
      const mine = outcomes.filter((outcome) => accepted.has(outcome.id));
      expect(mine.length).toBeGreaterThan(8);
      for (const outcome of mine) {
        // A complete answer for every accepted request: its own, never a reset connection.
        expect(outcome.error, `${outcome.id} was accepted but got no answer`).toBeUndefined();
        // 409 ORDER_ALREADY_OPEN is a complete answer too: one open purchase per offer (issue 20), so
        // only the first write of the run makes an order and the others are refused, storing nothing.
        expect([200, 201, 409], `${outcome.id}: ${outcome.answer?.status} ${outcome.answer?.body}`).toContain(outcome.answer?.status);
        if (outcome.answer?.status === 409) expect(JSON.parse(outcome.answer.body)).toMatchObject({ code: 'ORDER_ALREADY_OPEN' });
      }
      for (const outcome of outcomes.filter((candidate) => !accepted.has(candidate.id))) {
        // Not accepted: refused at the door, or a complete 503 from a server that is closing.
        if (outcome.answer) {
          expect(outcome.answer.status, outcome.answer.body).toBe(503);
          expect(JSON.parse(outcome.answer.body)).toEqual(unavailable);
          expect(outcome.answer.headers.connection, outcome.id).toBe('close');
        }
      }
      // Never a reset (issue 20.5): a request sent on an established connection went to an open
      // listener, so it is owed a complete answer. The one failure allowed is a refused
      // connection, once the listener has closed.
      for (const outcome of outcomes.filter((candidate) => candidate.error)) {
        expect(outcome.connected, `${outcome.id} was sent before the listener closed and got ${outcome.error} instead of an answer`).toBe(false);
        expect(outcome.error, outcome.id).toBe('ECONNREFUSED');
      }
      // The requests in flight when the signal came were served.
      for (const outcome of outcomes.filter((candidate) => candidate.id.startsWith('rel-half-'))) expect([201, 409], outcome.error).toContain(outcome.answer?.status);

      const after = outcomes.filter((outcome) => !accepted.has(outcome.id));
      console.warn(
        `SIGTERM (${name}): stopped in ${Math.round(stoppedInMs)} ms; ${mine.length} requests accepted and answered; ` +
          `${after.filter((outcome) => outcome.answer).length} answered 503 while closing, ${after.filter((outcome) => outcome.error).length} refused at the door`,
      );
      // Every write that was confirmed is stored, and nothing that was not.
      const confirmed = outcomes.filter((outcome) => outcome.kind === 'write' && outcome.answer && outcome.answer.status < 300).map((outcome) => outcome.key);
      const database = await createDatabase(scratch.options.kind === 'postgres' ? scratch.options : { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') });
      try {
        const stored = await database.rows<{ key: string }>(sql`select substr(idempotency_key, length('user:user-ny:') + 1) as key from subscription_order where user_id = 'user-ny'`);
        expect(stored.map((row) => row.key).sort()).toEqual(confirmed.sort());
      } finally {
        await database.close();
      }
    } finally {
      child.kill('SIGKILL');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
      await scratch.dispose();
    }
  });
});

// --- 3. The payment provider answers 500 or times out (both databases) ---------------------------

describe.each(testDatabases)('the payment provider fails ($name)', ({ name }) => {
  let test: TestApp;
  let simulator: VippsSimulator;
  let offsetMs = 0;
  const now = () => new Date(systemClock().getTime() + offsetMs);

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now });
    // Vipps MobilePay is a third party: it misbehaves at its HTTP boundary, through the embedded
    // simulator's fault knobs — a 5xx after doing the work, or the work done and no answer at all.
    simulator = vippsOf(test);
  });
  afterEach(() => {
    offsetMs = 0;
    simulator.faults.webhooks.drop = false;
  });
  afterAll(async () => {
    await test?.close();
  });

  const accountDigital = 40_000_002;
  const newInvoice = async () =>
    Number(
      (
        await test.database.rows<{ no: number }>(sql`
          insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
          values (${accountDigital}, 'demo-digital-adr', '0', 19900, 'Testfaktura', '2041-01-01', '2041-01-31', '2040-12-30', '1503.12.34567') returning aria_invoice_no as no`)
      )[0]?.no,
    );
  const invoiceState = async (no: number) => {
    const [invoice] = await test.database.rows<{ paid: boolean }>(sql`select paid_at is not null as paid from invoice where aria_invoice_no = ${no}`);
    const payments = await test.database.rows<{ id: string; status: string }>(sql`select id, status from payment where aria_invoice_no = ${no} order by created_at`);
    // Vipps MobilePay's side, asked by our payment id as reconciliation asks: the state of each payment it holds.
    const atProvider: string[] = [];
    for (const row of payments) {
      const found = await test.app.paymentProvider.lookupByMerchantReference(row.id);
      if (found) atProvider.push(found.status);
    }
    return { paid: invoice?.paid, payments: payments.map((row) => row.status), atProvider };
  };
  const providerMessage = /^Betalingstjenesten svarer ikke akkurat nå/;
  /** The create requests Vipps MobilePay received for one payment, and how each was answered (undefined: never). */
  const creates = (paymentId: string) =>
    simulator.requests.filter((request) => request.method === 'POST' && request.path === '/epayment/v1/payments' && (request.body as { reference?: string }).reference === paymentId);
  const answeredWith = (requests: ReadonlyArray<SimulatorRequest>) => requests.map((request) => request.response?.status);
  const keysOf = (requests: ReadonlyArray<SimulatorRequest>) => new Set(requests.map((request) => request.headers['idempotency-key']));

  it('invoice: a 500 on starting the payment answers 503 in Norwegian; the same click later continues the one payment', async () => {
    const digital = await signIn(test, PORTAL, 'digital@minside.test');
    const no = await newInvoice();
    const key = randomUUID();
    const start = () => digital.request('POST', `${PORTAL}/api/invoice/${no}/payment`, { json: { method: 'VIPPS', idempotencyKey: key } });
    // Vipps MobilePay answers 500 to the create and to both of the client's retries, having made the payment all the same.
    simulator.faults.next('server-error', { method: 'POST', pathPrefix: '/epayment/v1/payments', count: 3 });
    expectRefused(await start(), 503, 'PAYMENT_PROVIDER_UNAVAILABLE', providerMessage);
    // Ours waits, unpaid; theirs waits for a payer who was never sent to it.
    expect(await invoiceState(no)).toEqual({ paid: false, payments: ['PENDING'], atProvider: ['CREATED'] });

    const flow = paymentRedirectSchema.parse((await start()).json());
    // The same click continues the one payment: every create carried the same Idempotency-Key, and the last one got the answer.
    expect(answeredWith(creates(flow.paymentId))).toEqual([500, 500, 500, 201]);
    expect(keysOf(creates(flow.paymentId)).size).toBe(1);
    await answerAtVipps(test, flow.redirectUrl, 'approve');
    expect(await invoiceState(no)).toEqual({ paid: true, payments: ['CAPTURED'], atProvider: ['CAPTURED'] });
    expect(captureRequests(test, flow.paymentId)).toHaveLength(1);
  });

  it('invoice: a start whose answer is lost is one transaction at the provider when the payer tries again', { timeout: 60_000 }, async () => {
    const digital = await signIn(test, PORTAL, 'digital@minside.test');
    const no = await newInvoice();
    const key = randomUUID();
    const start = () => digital.request('POST', `${PORTAL}/api/invoice/${no}/payment`, { json: { method: 'SWEDBANK-PPG', idempotencyKey: key } });
    // Vipps MobilePay makes the payment but its answer never comes (the client gives up after its timeout); the retries are answered 500.
    simulator.faults.next('timeout', { method: 'POST', pathPrefix: '/epayment/v1/payments' });
    simulator.faults.next('server-error', { method: 'POST', pathPrefix: '/epayment/v1/payments', count: 2 });
    expectRefused(await start(), 503, 'PAYMENT_PROVIDER_UNAVAILABLE', providerMessage);
    const flow = paymentRedirectSchema.parse((await start()).json());
    expect(answeredWith(creates(flow.paymentId))).toEqual([undefined, 500, 500, 201]);
    expect(keysOf(creates(flow.paymentId)).size).toBe(1);
    expect(await invoiceState(no)).toEqual({ paid: false, payments: ['PENDING'], atProvider: ['CREATED'] });
    await answerAtVipps(test, flow.redirectUrl, 'approve');
    expect(await invoiceState(no)).toEqual({ paid: true, payments: ['CAPTURED'], atProvider: ['CAPTURED'] });
  });

  it(
    'invoice: a capture whose answer is lost, then a provider that does not answer, leave the invoice unpaid and the payer on "pending"; reconciliation settles it without a second capture',
    { timeout: 60_000 },
    async () => {
      const digital = await signIn(test, PORTAL, 'digital@minside.test');
      const no = await newInvoice();
      const flow = paymentRedirectSchema.parse((await digital.request('POST', `${PORTAL}/api/invoice/${no}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } })).json());
      const capturePath = `/epayment/v1/payments/${flow.paymentId}/capture`;
      // Vipps MobilePay captures, but its answer never comes; the client's retries are answered 500.
      simulator.faults.next('timeout', { method: 'POST', pathPrefix: capturePath });
      simulator.faults.next('server-error', { method: 'POST', pathPrefix: capturePath, count: 2 });
      // The payer approves; every webhook about it is lost until reconciliation.
      await answerAtVipps(test, flow.redirectUrl, 'approve', { lostWebhooks: true });
      simulator.faults.webhooks.drop = true;
      // Back on the portal, the return page's capture gets no answer: the payer sees "pending", not an error.
      const back = await digital.request('GET', `${PORTAL}/api/payment/${flow.paymentId}`);
      expect(back.status, back.body).toBe(200);
      expect(back.json()).toMatchObject({ status: 'PENDING' });
      expect(answeredWith(captureRequests(test, flow.paymentId))).toEqual([undefined, 500, 500]);

      // Then the provider stops answering altogether (each look-up and its two retries answered 500):
      // the return page still shows "pending", and the provider's webhook is refused (503), so it is sent again.
      simulator.faults.next('server-error', { method: 'GET', pathPrefix: `/epayment/v1/payments/${flow.paymentId}`, count: 6 });
      const view = await digital.request('GET', `${PORTAL}/api/payment/${flow.paymentId}`);
      expect(view.status, view.body).toBe(200);
      expect(view.json()).toMatchObject({ status: 'PENDING' });
      const authorized = lostWebhook(simulator, flow.paymentId, 'AUTHORIZED');
      const refused = await sendWebhookAgain(test, authorized, now());
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'PAYMENT_PROVIDER_UNAVAILABLE' });
      simulator.faults.webhooks.drop = false;
      // Money taken at the provider, not yet in our books: the invoice is not paid until we know.
      expect(await invoiceState(no)).toEqual({ paid: false, payments: ['PENDING'], atProvider: ['CAPTURED'] });
      const capturesSoFar = captureRequests(test, flow.paymentId).length;

      offsetMs = 11 * 60_000;
      await test.app.billingJobs.runReconciliation();
      expect(await invoiceState(no)).toEqual({ paid: true, payments: ['CAPTURED'], atProvider: ['CAPTURED'] });
      // Settled from the provider's own status: not one capture more, and the webhook sent again changes nothing.
      expect((await sendWebhookAgain(test, authorized, now())).statusCode).toBe(200);
      expect(await invoiceState(no)).toEqual({ paid: true, payments: ['CAPTURED'], atProvider: ['CAPTURED'] });
      expect(captureRequests(test, flow.paymentId)).toHaveLength(capturesSoFar);
    },
  );

  it('order: the provider failing at payment and at the return page gives 503 / "waiting", never 500; the repair job fulfils it once', async () => {
    const ny = await signIn(test, PORTAL, 'ny@minside.test');
    const created = orderSchema.parse((await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-DIGITAL-M' } })).json());
    const pay = () => ny.request('POST', `${PORTAL}/api/order/${created.orderId}/payment`, { json: { method: 'SWEDBANK-PPG' } });
    simulator.faults.next('server-error', { method: 'POST', pathPrefix: '/epayment/v1/payments', count: 3 });
    expectRefused(await pay(), 503, 'PAYMENT_PROVIDER_UNAVAILABLE', providerMessage);
    const flow = paymentRedirectSchema.parse((await pay()).json());
    const payments = await test.database.rows(sql`select 1 from payment where details->>'orderId' = ${created.orderId}`);
    expect(payments).toHaveLength(1);
    expect(keysOf(creates(flow.paymentId)).size).toBe(1);

    // The payer approves; its webhook is lost, and Vipps MobilePay answers no look-up (a look-up and its two retries, twice).
    await answerAtVipps(test, flow.redirectUrl, 'approve', { lostWebhooks: true });
    simulator.faults.next('server-error', { method: 'GET', pathPrefix: `/epayment/v1/payments/${flow.paymentId}`, count: 6 });
    // The webhook sent again meanwhile is refused 503 (never 500): the provider sends it again later.
    const refused = await sendWebhookAgain(test, lostWebhook(simulator, flow.paymentId, 'AUTHORIZED'), now());
    expect(refused.statusCode, refused.body).toBe(503);
    const waiting = await ny.request('GET', `${PORTAL}/api/order/${created.orderId}`);
    expect(waiting.status, waiting.body).toBe(200);
    expect(orderResponseSchema.parse(waiting.json()).order.state).toBe('awaiting_payment');
    const subscriptions = () => test.database.rows(sql`select 1 from subscription s join account a on a.aria_account_no = s.aria_account_no where a.user_id = 'user-ny' and s.title_code = 'ADR'`);
    expect(await subscriptions()).toHaveLength(0);
    expect(captureRequests(test, flow.paymentId)).toEqual([]);

    expect(await test.app.ordering.repair()).toMatchObject({ resolved: 1 });
    // The capture's webhook that follows changes nothing.
    await simulator.flushWebhooks();
    expect(orderResponseSchema.parse((await ny.request('GET', `${PORTAL}/api/order/${created.orderId}`)).json()).order).toMatchObject({ state: 'fulfilled', lastPaymentStatus: 'CAPTURED' });
    expect(await subscriptions()).toHaveLength(1);
    expect(captureRequests(test, flow.paymentId)).toHaveLength(1);
    expect(await test.app.paymentProvider.lookup(flow.paymentId)).toMatchObject({ status: 'CAPTURED' });
  });

  // Last: it closes the shared database.
  it('with the database closed under a signed-in user, reads and writes answer 503 in Norwegian, never 500', async () => {
    const ny = await signIn(test, PORTAL, 'ny@minside.test');
    await test.database.close();
    expectRefused(await ny.request('GET', `${PORTAL}/api/profile`), 503, unavailable.code, unavailable.message);
    expectRefused(await ny.request('PUT', `${PORTAL}/api/profile`, { json: { givenName: 'Nina', familyName: 'N', phoneNumber: '', birthdate: '' } }), 503, unavailable.code);
    expectRefused(await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-DIGITAL-M' } }), 503, unavailable.code);
    expect((await test.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    // The job runner logs the failed pass and carries on.
    await expect(test.app.jobs.tick()).resolves.toBeUndefined();
  });
});
