// Benchmark: GET /api/invoice/{accountNo} for a subscriber with ten years of monthly invoices
// (120 rows, the whole list in one page), against a bare node:http server answering the same
// bytes. Reports requests/s and latency for both (closed loop, autocannon in its own thread)
// and the ratio bare ÷ app: how much the framework, session check, database query and
// serialisation cost over the network floor.
//   npm run bench:invoices -w bench      (DURATION_S=5 CONCURRENCY=10 by default)
import { sql } from 'drizzle-orm';
import { addDays, addMonths, kidFor, osloToday, systemClock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { drive, machine, openSeededDatabase, signIn, startApp, startBare, type DriverRequest } from './support.ts';

const DURATION_S = Number(process.env.DURATION_S ?? 5);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
const ACCOUNT = 40_000_001; // papir@minside.test
const MONTHS = 120;

const loadBefore = machine().loadAverage;
const database = await openSeededDatabase();

// Ten years of monthly invoices, paid, plus the seeded ones.
const today = osloToday(systemClock());
for (let month = 1; month <= MONTHS; month++) {
  const periodFrom = addMonths(today, -month - 3);
  const periodTo = addDays(addMonths(periodFrom, 1), -1);
  const no = 70_000_000 + month;
  await database.rows(sql`
    insert into invoice (aria_invoice_no, aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number, paid_at, settled_by)
    values (${no}, ${ACCOUNT}, 'demo-papir-adr', ${kidFor('invoice', no, defaultCatalogue.byTitleCode('ADR').bank)}, 64900, ${`Komplett, ${periodFrom} – ${periodTo}`}, ${periodFrom}, ${periodTo}, ${addDays(periodFrom, -2)}, '1503.12.40007', ${new Date(`${addDays(periodFrom, -3)}T06:00:00Z`)}, 'AVTALEGIRO')
    on conflict do nothing`);
}

const { app, port: appPort } = await startApp(database);
const path = `/api/invoice/${ACCOUNT}`;
const headers = { host: 'adresseavisen.localhost', cookie: await signIn(database, 'user-papir') };

const sample = await app.inject({ method: 'GET', url: path, headers });
const body = sample.body;
const count = sample.json<{ invoices: unknown[] }>().invoices.length;
if (sample.statusCode !== 200 || count < MONTHS) throw new Error(`unexpected answer ${sample.statusCode}: ${count} invoices`);
const { server: bare, port: barePort } = await startBare(body);

const requests: DriverRequest[] = [{ method: 'GET', path, headers, label: 'invoices' }];
const closed = (port: number, durationS: number) => drive({ kind: 'closed', port, requests, connections: CONCURRENCY, durationS });
await closed(appPort, 1); // warm-up
const appResult = await closed(appPort, DURATION_S);
await closed(barePort, 1);
const bareResult = await closed(barePort, DURATION_S);

const report = {
  benchmark: 'GET /api/invoice/{accountNo}',
  database: database.kind,
  invoices: count,
  responseBytes: Buffer.byteLength(body),
  concurrency: CONCURRENCY,
  durationSeconds: DURATION_S,
  machine: { ...machine(), loadAverageBefore: loadBefore },
  app: appResult,
  bareNodeHttp: bareResult,
  ratio: Number((bareResult.rps / Math.max(1, appResult.rps)).toFixed(1)),
  ratioAppToBare: Number((appResult.rps / Math.max(1, bareResult.rps)).toFixed(3)),
};
console.log(JSON.stringify(report, null, 2));

await app.close();
bare.close();
await database.close();
