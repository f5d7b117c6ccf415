// Where the home call's time goes (issue 27 §3): the same call as bench/home.ts, closed loop,
// against the app and against the database floor in turn, with
// - the main thread's CPU time per answered request (process.threadCpuUsage: the load
//   generator runs in its own thread and is not counted), which the other work on a shared
//   machine inflates far less than throughput;
// - a V8 CPU profile of the main thread for each (the same format as `node --cpu-prof`), written
//   to PROFILE_DIR (default bench/reports/profiles) as home-app.cpuprofile and home-floor.cpuprofile;
//   `node cpuprofile-summary.mjs <file>` sums them up by package and function.
//   npm run profile:home -w bench   (DATABASE_URL for PostgreSQL; DURATION_S 10, CONCURRENCY 10, ROUNDS 2)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { hashToken } from '../apps/server/src/plugins/session.ts';
import { drive, machine, openSeededDatabase, round, signIn, startApp, startDatabaseFloor, type DriverRequest } from './support.ts';

const DURATION_S = Number(process.env.DURATION_S ?? 10);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const PROFILE_DIR = path.resolve(process.env.PROFILE_DIR ?? 'reports/profiles');
const ACCOUNT = 40_000_001;

const database = await openSeededDatabase();
const cookie = await signIn(database, 'user-papir');
const { app, port: appPort } = await startApp(database);
const requestPath = `/api/subscription/${ACCOUNT}/ADR`;
const headers = { host: 'adresseavisen.localhost', cookie };
const sample = await app.inject({ method: 'GET', url: requestPath, headers });
if (sample.statusCode !== 200) throw new Error(`unexpected answer ${sample.statusCode}: ${sample.body}`);
const sessionIdHash = hashToken(cookie.slice(cookie.indexOf('=') + 1));
const { server: floor, port: floorPort } = await startDatabaseFloor(database, sample.body, { sessionIdHash, ariaAccountNo: ACCOUNT, titleCode: 'ADR' });
const requests: DriverRequest[] = [{ method: 'GET', path: requestPath, headers, label: 'home' }];

const inspector = new Session();
inspector.connect();
await inspector.post('Profiler.enable');
await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
mkdirSync(PROFILE_DIR, { recursive: true });

/** One closed-loop run; the main thread's CPU per answered request, optionally profiled. */
async function measure(port: number, profile?: string) {
  if (profile) await inspector.post('Profiler.start');
  const before = process.threadCpuUsage();
  const result = await drive({ kind: 'closed', port, requests, connections: CONCURRENCY, durationS: DURATION_S });
  const used = process.threadCpuUsage(before);
  if (profile) {
    const { profile: data } = await inspector.post('Profiler.stop');
    writeFileSync(path.join(PROFILE_DIR, profile), JSON.stringify(data));
  }
  const answered = Math.max(1, result.requests);
  return {
    rps: result.rps,
    requests: result.requests,
    cpuUsPerRequest: round((used.user + used.system) / answered, 1),
    // User time is JavaScript and V8; system time is mostly the kernel's loopback TCP for the socket writes.
    userUsPerRequest: round(used.user / answered, 1),
    systemUsPerRequest: round(used.system / answered, 1),
    loadAverage: machine().loadAverage,
  };
}

await drive({ kind: 'closed', port: appPort, requests, connections: CONCURRENCY, durationS: 2 });
await drive({ kind: 'closed', port: floorPort, requests, connections: CONCURRENCY, durationS: 1 });
const rounds = [];
for (let k = 0; k < ROUNDS; k++) {
  // Interleaved, so both sides see the same load from the rest of the machine.
  const appRun = await measure(appPort, k === 0 ? 'home-app.cpuprofile' : undefined);
  const floorRun = await measure(floorPort, k === 0 ? 'home-floor.cpuprofile' : undefined);
  rounds.push({ app: appRun, floor: floorRun, ratioAppToFloor: round(appRun.rps / Math.max(1, floorRun.rps), 3), cpuAppToFloor: round(appRun.cpuUsPerRequest / floorRun.cpuUsPerRequest, 2) });
}
console.log(JSON.stringify({ machine: machine(), database: database.kind, connections: CONCURRENCY, durationSeconds: DURATION_S, profiles: PROFILE_DIR, rounds }, null, 2));

inspector.disconnect();
await app.close();
floor.close();
await database.close();
