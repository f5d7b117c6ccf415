// Benchmark: GET /api/invoice/{accountNo} for a subscriber with ten years of monthly invoices
// (120 rows, the whole list in one page), against a bare node:http server answering the same
// bytes. Reports requests/s and latency for both and the ratio bare ÷ app: how much the
// framework, session check, database query and serialisation cost over the network floor.
//   npm run bench:invoices -w bench      (DURATION_S=5 CONCURRENCY=10 by default)
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { defaultCatalogue } from '@minside/titles';
import { addDays, addMonths, invoiceKid, osloToday } from '@minside/domain';
import { buildApp } from '../apps/server/src/app.ts';
import { testConfig } from '../apps/server/src/config.ts';
import { createDatabase, databaseOptionsFrom } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { seedDemoData } from '../apps/server/src/db/seed.ts';
import { hashToken, randomToken } from '../apps/server/src/plugins/session.ts';

const DURATION_MS = Number(process.env.DURATION_S ?? 5) * 1000;
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
const ACCOUNT = 40_000_001; // papir@minside.test
const MONTHS = 120;

interface Result {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** A closed-loop load generator: CONCURRENCY keep-alive connections, each sending its next request when the last answers. */
async function load(port: number, path: string, headers: Record<string, string>, durationMs: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + durationMs;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.get({ host: '127.0.0.1', port, path, headers, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === 200) latencies.push(performance.now() - started);
          else errors += 1;
          resolve();
        });
      });
      request.on('error', () => {
        errors += 1;
        resolve();
      });
    });
  const worker = async () => {
    while (performance.now() < end) await one();
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = performance.now() - began;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(2));
  return { requests: latencies.length, rps: Math.round((latencies.length / elapsed) * 1000), p50: at(0.5), p99: at(0.99), errors };
}

const config = testConfig({ logLevel: 'silent' });
const database = await createDatabase(process.env.DATABASE_URL ? databaseOptionsFrom({ databaseUrl: process.env.DATABASE_URL, dataDir: '' }) : { kind: 'pglite', dataDir: undefined });
await migrate(database);
await seedDemoData(database, { password: 'demo1234' });

// Ten years of monthly invoices, paid, plus the seeded ones.
const today = osloToday();
for (let month = 1; month <= MONTHS; month++) {
  const periodFrom = addMonths(today, -month - 3);
  const periodTo = addDays(addMonths(periodFrom, 1), -1);
  const no = 70_000_000 + month;
  await database.rows(sql`
    insert into invoice (aria_invoice_no, aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number, paid_at, settled_by)
    values (${no}, ${ACCOUNT}, 'demo-papir-adr', ${invoiceKid(ACCOUNT, no)}, 64900, ${`Komplett, ${periodFrom} – ${periodTo}`}, ${periodFrom}, ${periodTo}, ${addDays(periodFrom, -2)}, '1503.12.34567', ${new Date(`${addDays(periodFrom, -3)}T06:00:00Z`)}, 'AVTALEGIRO')
    on conflict do nothing`);
}

// A signed-in session, as the login flow leaves it (the cookie holds a random id; its hash is stored).
const token = randomToken();
const at = new Date();
await database.rows(sql`insert into user_session (id_hash, user_id, id_token, created_at, last_seen_at, expires_at) values (${hashToken(token)}, 'user-papir', ${`bench-${randomUUID()}`}, ${at}, ${at}, ${new Date(at.getTime() + 11 * 60 * 60 * 1000)})`);

const app = await buildApp({ config, database, catalogue: defaultCatalogue });
await app.listen({ port: 0, host: '127.0.0.1' });
const appPort = (app.server.address() as AddressInfo).port;
const path = `/api/invoice/${ACCOUNT}`;
const headers = { host: 'adresseavisen.localhost', cookie: `minside_session=${token}` };

const sample = await app.inject({ method: 'GET', url: path, headers });
const body = sample.body;
const count = sample.json<{ invoices: unknown[] }>().invoices.length;
if (sample.statusCode !== 200 || count < MONTHS) throw new Error(`unexpected answer ${sample.statusCode}: ${count} invoices`);

const bare = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const barePort = (bare.address() as AddressInfo).port;

await load(appPort, path, headers, 1000); // warm-up
const appResult = await load(appPort, path, headers, DURATION_MS);
await load(barePort, path, headers, 500);
const bareResult = await load(barePort, path, headers, DURATION_MS);

const report = {
  benchmark: 'GET /api/invoice/{accountNo}',
  database: database.kind,
  invoices: count,
  responseBytes: Buffer.byteLength(body),
  concurrency: CONCURRENCY,
  durationSeconds: DURATION_MS / 1000,
  app: appResult,
  bareNodeHttp: bareResult,
  ratio: Number((bareResult.rps / Math.max(1, appResult.rps)).toFixed(1)),
};
console.log(JSON.stringify(report, null, 2));

await app.close();
bare.close();
await database.close();
