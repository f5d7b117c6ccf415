// `npm run bench`: every benchmark in turn (docs/performance.md): the home page's data against bare
// node:http (on PGlite, then on PostgreSQL at BENCH_DATABASE_URL, default the CI server's), the
// invoice list against bare node:http, the web bundle size, Lighthouse, the bank files (OCR import
// and AvtaleGiro claims on PostgreSQL: about 15 minutes on two cores), the nightly jobs over a
// large seed of 10 000 subscribers (a few minutes; the claims are bank.ts's, so not run twice; the
// million is `JOBS_TEMPLATE=… npm run bench:jobs -w bench`, see jobs.ts). The fixed-rate load test
// is `npm run test:load` (bench/load.ts).
import { spawnSync } from 'node:child_process';

const benchmarks = [
  ['node', ['--import', 'tsx', 'home.ts']],
  // Issue 27's rows: PostgreSQL, the open loop at 2,000 req/s, three alternating closed-loop pairs.
  ['node', ['--import', 'tsx', 'home.ts'], { DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', RATE: '2000', ROUNDS: '3' }],
  ['node', ['--import', 'tsx', 'invoice-list.ts']],
  ['node', ['--import', 'tsx', 'web-bundle.ts']],
  ['node', ['lighthouse/ensure-installed.mjs']],
  ['node', ['--import', 'tsx', 'lighthouse/lighthouse.ts']],
  ['node', ['--import', 'tsx', 'bank.ts']],
  ['node', ['--import', 'tsx', 'jobs.ts'], { CLAIMS: '0' }],
];
let failed = 0;
for (const [command, args, env = {}] of benchmarks) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: import.meta.dirname, env: { ...process.env, ...env } });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
