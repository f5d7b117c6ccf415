// `npm run bench`: every benchmark in turn (docs/performance.md): the home page's data and the
// invoice list against bare node:http, the web bundle size, Lighthouse, the bank files (OCR import
// and AvtaleGiro claims on PostgreSQL: about 15 minutes on two cores), the nightly jobs over a
// large seed of 10 000 subscribers (a few minutes; the claims are bank.ts's, so not run twice; the
// million is `JOBS_TEMPLATE=… npm run bench:jobs -w bench`, see jobs.ts). The fixed-rate load test
// is `npm run test:load` (bench/load.ts).
import { spawnSync } from 'node:child_process';

const benchmarks = [
  ['node', ['--import', 'tsx', 'home.ts']],
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
