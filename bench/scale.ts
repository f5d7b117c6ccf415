// Benchmark (issue 11, "a million subscribers"): the signed-in pages' calls on a database of
// 10,000 generated subscribers and on one of 1,000,000 (`npm run seed:large`), same machine,
// same request mix, the same number of random users on each. Reports p50, p99 and req/s per
// call and the ratio 1M ÷ 10k of each p99; the goal is every ratio <= 1.3 (the hot paths use
// indexes, so size barely shows). Not part of `npm run bench`: it needs both databases seeded
// first (minutes for the small one, most of an hour for the big one on a 2-core machine).
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/minside_scale_10k npm run seed:large -- --subscribers 10000
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/minside_scale_1m npm run seed:large -- --subscribers 1000000
//   npm run bench:scale -w bench
// SCALE_SMALL_URL / SCALE_LARGE_URL name other databases; USERS (default 40) random users per
// database, RATE (default 100 req/s, well below what the mix can take, so queueing does not
// swamp the comparison) for the latency run, DURATION_S (default 30), ROUNDS (default 3: the
// databases take turns, small, large, small, large, …, and per call each keeps its best round).
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { random } from '../apps/server/src/db/seed-large-model.ts';
import { drive, machine, round, signIn, startApp, type DriverRequest, type DriverResult } from './support.ts';

const SMALL_URL = process.env.SCALE_SMALL_URL ?? 'postgres://postgres@127.0.0.1:5432/minside_scale_10k';
const LARGE_URL = process.env.SCALE_LARGE_URL ?? 'postgres://postgres@127.0.0.1:5432/minside_scale_1m';
const USERS = Number(process.env.USERS ?? 40);
const RATE = Number(process.env.RATE ?? 100);
const DURATION_S = Number(process.env.DURATION_S ?? 30);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
const TARGET_RATIO = 1.3;
const labels = ['home', 'changeLog', 'invoices', 'vacations'] as const;

interface Target {
  name: string;
  url: string;
  database: Database;
  app: FastifyInstance;
  port: number;
  subscribers: number;
  databaseBytes: number;
  requests: DriverRequest[];
}

interface Candidate {
  userId: string;
  accountNo: number;
  titleCode: string;
  paper: boolean;
}

/** USERS random generated subscribers with a running subscription, and USERS random ones with paper (for the vacation list). */
async function pickUsers(database: Database, subscribers: number): Promise<{ all: Candidate[]; paper: Candidate[] }> {
  const draw = random(4_711);
  const all: Candidate[] = [];
  const paper: Candidate[] = [];
  while (all.length < USERS || paper.length < USERS) {
    const accountNos = Array.from({ length: 200 }, () => 10_000_000 + Math.floor(draw() * subscribers));
    const rows = await database.rows<{ user_id: string; aria_account_no: string; title_code: string; plan_product_type: string }>(sql`
      select a.user_id, a.aria_account_no, s.title_code, s.plan_product_type
        from account a join subscription s on s.aria_account_no = a.aria_account_no and s.title_code = a.first_title_code
       where a.aria_account_no = any(${sql.raw(`array[${accountNos.join(',')}]::bigint[]`)}) and s.inst_status_code in (1, 2)`);
    for (const row of rows) {
      const candidate = { userId: row.user_id, accountNo: Number(row.aria_account_no), titleCode: row.title_code, paper: row.plan_product_type === 'COMBO' };
      if (all.length < USERS) all.push(candidate);
      if (candidate.paper && paper.length < USERS) paper.push(candidate);
    }
  }
  return { all, paper };
}

async function open(name: string, url: string): Promise<Target> {
  const database = await createDatabase({ kind: 'postgres', url });
  await migrate(database);
  const [counts] = await database.rows<{ subscribers: string; bytes: string }>(sql`
    select (select count(*) from account where aria_account_no >= 10000000 and aria_account_no < 40000000) as subscribers,
           pg_database_size(current_database()) as bytes`);
  const subscribers = Number(counts?.subscribers ?? 0);
  if (subscribers === 0) throw new Error(`${name}: no generated subscribers in ${url}; run npm run seed:large first (see the top of bench/scale.ts)`);
  const { all, paper } = await pickUsers(database, subscribers);
  const cookies = new Map<string, string>();
  for (const user of [...all, ...paper]) if (!cookies.has(user.userId)) cookies.set(user.userId, await signIn(database, user.userId));
  const headersOf = (user: Candidate) => ({ host: 'adresseavisen.localhost', cookie: cookies.get(user.userId)! });
  // Interleaved, so every label is spread evenly over the run and over the users.
  const requests: DriverRequest[] = [];
  for (let k = 0; k < USERS; k++) {
    const user = all[k]!;
    const reader = paper[k]!;
    requests.push(
      { method: 'GET', path: `/api/subscription/${user.accountNo}/${user.titleCode}`, headers: headersOf(user), label: 'home' },
      { method: 'GET', path: `/api/subscription/${user.accountNo}/${user.titleCode}/changes`, headers: headersOf(user), label: 'changeLog' },
      { method: 'GET', path: `/api/invoice/${user.accountNo}`, headers: headersOf(user), label: 'invoices' },
      { method: 'GET', path: `/api/delivery/changes?titleCode=${reader.titleCode}`, headers: headersOf(reader), label: 'vacations' },
    );
  }
  const { app, port } = await startApp(database);
  for (const request of requests) {
    const answer = await app.inject({ method: request.method, url: request.path, headers: request.headers });
    if (answer.statusCode !== 200) throw new Error(`${name}: ${request.path} answered ${answer.statusCode}: ${answer.body}`);
  }
  return { name, url, database, app, port, subscribers, databaseBytes: Number(counts?.bytes ?? 0), requests };
}

interface Round {
  open: DriverResult;
  closed: DriverResult;
}

async function measure(target: Target): Promise<Round> {
  await drive({ kind: 'closed', port: target.port, requests: target.requests, connections: CONCURRENCY, durationS: 3 }); // warm-up
  const openResult = await drive({ kind: 'open', port: target.port, requests: target.requests, rate: RATE, durationS: DURATION_S, maxSockets: 64 });
  const closedResult = await drive({ kind: 'closed', port: target.port, requests: target.requests, connections: CONCURRENCY, durationS: Math.max(5, DURATION_S / 2) });
  return { open: openResult, closed: closedResult };
}

const loadBefore = machine().loadAverage;
const small = await open('10k', SMALL_URL);
const large = await open('1M', LARGE_URL);
const rounds = new Map<string, Round[]>([
  [small.name, []],
  [large.name, []],
]);
for (let round = 0; round < ROUNDS; round++) {
  for (const target of [small, large]) {
    const result = await measure(target);
    rounds.get(target.name)!.push(result);
    console.warn(`round ${round + 1} ${target.name}: ${labels.map((label) => `${label} p99 ${result.open.byLabel?.[label]?.p99} ms`).join(', ')}; mix ${result.closed.rps} req/s`);
  }
}

/** Per label, the round with the lowest p99 (the machine is shared: the quietest moment is the fairest comparison). */
function best(name: string) {
  const list = rounds.get(name)!;
  return Object.fromEntries(
    labels.map((label) => {
      const pick = list
        .map((entry) => entry.open.byLabel?.[label])
        .filter((entry) => entry !== undefined)
        .sort((a, b) => a.p99 - b.p99)[0]!;
      return [label, { p50: pick.p50, p99: pick.p99 }];
    }),
  ) as Record<(typeof labels)[number], { p50: number; p99: number }>;
}

const smallBest = best(small.name);
const largeBest = best(large.name);
const ratios = Object.fromEntries(labels.map((label) => [label, round(largeBest[label].p99 / Math.max(0.01, smallBest[label].p99))]));
const describe = (target: Target, bestOf: ReturnType<typeof best>) => ({
  subscribers: target.subscribers,
  databaseGB: round(target.databaseBytes / 1024 ** 3),
  perCall: bestOf,
  mixReqPerS: Math.max(...rounds.get(target.name)!.map((entry) => entry.closed.rps)),
  errors: rounds.get(target.name)!.reduce((sum, entry) => sum + entry.open.errors + entry.closed.errors, 0),
  errorKinds: rounds.get(target.name)!.reduce<Record<string, number>>((kinds, entry) => {
    for (const [kind, count] of [...Object.entries(entry.open.errorKinds), ...Object.entries(entry.closed.errorKinds)]) kinds[kind] = (kinds[kind] ?? 0) + count;
    return kinds;
  }, {}),
});
const report = {
  benchmark: 'scale: 10k vs 1M subscribers',
  date: new Date().toISOString(),
  machine: { ...machine(), loadAverageBefore: loadBefore },
  users: USERS,
  rate: RATE,
  durationSeconds: DURATION_S,
  rounds: ROUNDS,
  concurrency: CONCURRENCY,
  small: describe(small, smallBest),
  large: describe(large, largeBest),
  p99Ratio: ratios,
  target: `every p99 ratio <= ${TARGET_RATIO}`,
  met: Object.values(ratios).every((ratio) => ratio <= TARGET_RATIO),
};
console.log(JSON.stringify(report, null, 2));

for (const target of [small, large]) {
  await target.app.close();
  await target.database.close();
}
process.exit(report.met ? 0 : 1);
