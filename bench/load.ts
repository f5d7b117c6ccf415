// Load test (issue 10 item 5): DURATION_S (60) seconds of mixed signed-in traffic at a fixed
// RATE (200 req/s), open loop, from several demo users at once: the home page's data (the
// subscription and its change log), the invoice list, the delivery changes (vacation stops) of
// the paper subscribers, and one write per 20 reads (saving the consent choices, which can be
// repeated without harm). Every answer must be 2xx: the process exits 1 on any error.
//   npm run test:load        (DURATION_S, RATE; DATABASE_URL for PostgreSQL instead of PGlite)
import { drive, machine, openSeededDatabase, signIn, startApp, type DriverRequest } from './support.ts';

const DURATION_S = Number(process.env.DURATION_S ?? 60);
const RATE = Number(process.env.RATE ?? 200);
const WRITE_EVERY = 20; // reads per write

interface Persona {
  userId: string;
  accountNo: number;
  titleCode: string;
  host: string;
  /** Paper subscribers have delivery changes (vacation stops) to list. */
  paper: boolean;
}

const personas: Persona[] = [
  { userId: 'user-papir', accountNo: 40_000_001, titleCode: 'ADR', host: 'adresseavisen.localhost', paper: true },
  { userId: 'user-varden', accountNo: 40_000_013, titleCode: 'VAR', host: 'varden.localhost', paper: true },
  { userId: 'user-digital', accountNo: 40_000_002, titleCode: 'ADR', host: 'adresseavisen.localhost', paper: false },
  { userId: 'user-familie', accountNo: 40_000_004, titleCode: 'ADR', host: 'adresseavisen.localhost', paper: false },
  { userId: 'user-familiemedlem', accountNo: 40_000_005, titleCode: 'ADR', host: 'adresseavisen.localhost', paper: false },
  { userId: 'user-student', accountNo: 40_000_008, titleCode: 'ADR', host: 'adresseavisen.localhost', paper: false },
];

const loadBefore = machine().loadAverage;
const database = await openSeededDatabase();
const { app, port } = await startApp(database);

/** One persona's round: WRITE_EVERY reads cycling through what its pages load, then one write. */
function roundOf(persona: Persona, cookie: string): DriverRequest[] {
  const headers = { host: persona.host, cookie };
  const subscription = `/api/subscription/${persona.accountNo}/${persona.titleCode}`;
  const reads: DriverRequest[] = [
    { method: 'GET', path: subscription, headers, label: 'home (subscription)' },
    { method: 'GET', path: `${subscription}/changes`, headers, label: 'home (change log)' },
    { method: 'GET', path: `/api/invoice/${persona.accountNo}`, headers, label: 'invoice list' },
    ...(persona.paper ? [{ method: 'GET' as const, path: `/api/delivery/changes?titleCode=${persona.titleCode}`, headers, label: 'delivery changes' }] : []),
  ];
  const write: DriverRequest = {
    method: 'PUT',
    path: '/api/consent',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ choices: { analytics: true, marketing: false, personalisation: true }, source: 'settings', titleCode: persona.titleCode }),
    label: 'write (consent)',
  };
  return [...Array.from({ length: WRITE_EVERY }, (_, index) => reads[index % reads.length]!), write];
}

const rounds = await Promise.all(personas.map(async (persona) => roundOf(persona, await signIn(database, persona.userId))));
// Interleaved: the personas take turns, so every moment has a mix of users and endpoints.
const requests = Array.from({ length: WRITE_EVERY + 1 }, (_, step) => rounds.map((round) => round[step]!)).flat();

// Every request once before the clock starts: a wrong path or a refused call fails here, plainly.
for (const request of new Map(requests.map((entry) => [`${entry.method} ${entry.path} ${entry.headers.host}`, entry])).values()) {
  const answer = await app.inject({ method: request.method, url: request.path, headers: request.headers, ...(request.body ? { payload: request.body } : {}) });
  if (answer.statusCode < 200 || answer.statusCode >= 300) throw new Error(`${request.method} ${request.path}: ${answer.statusCode} ${answer.body}`);
}

await drive({ kind: 'open', port, requests, rate: RATE, durationS: Math.min(5, DURATION_S), maxSockets: 64 }); // warm-up: JIT, pool, plans
const result = await drive({ kind: 'open', port, requests, rate: RATE, durationS: DURATION_S, maxSockets: 64 });

const report = {
  test: 'load: mixed signed-in traffic, open loop at a fixed rate',
  database: database.kind,
  users: personas.length,
  rate: RATE,
  durationSeconds: DURATION_S,
  writesPerReads: `1 per ${WRITE_EVERY}`,
  machine: { ...machine(), loadAverageBefore: loadBefore },
  result,
  passed: result.errors === 0,
};
console.log(JSON.stringify(report, null, 2));

await app.close();
await database.close();
process.exit(result.errors === 0 ? 0 : 1);
