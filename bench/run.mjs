// `npm run bench`: every benchmark in turn (docs/performance.md): the home page's data and the
// invoice list against bare node:http, the web bundle size, Lighthouse, the bank files (OCR import
// and AvtaleGiro claims on PostgreSQL: about 15 minutes on two cores). The fixed-rate load test is
// `npm run test:load` (bench/load.ts).
import { spawnSync } from 'node:child_process';

const benchmarks = [
  ['node', ['--import', 'tsx', 'home.ts']],
  ['node', ['--import', 'tsx', 'invoice-list.ts']],
  ['node', ['--import', 'tsx', 'web-bundle.ts']],
  ['node', ['lighthouse/ensure-installed.mjs']],
  ['node', ['--import', 'tsx', 'lighthouse/lighthouse.ts']],
  ['node', ['--import', 'tsx', 'bank.ts']],
];
let failed = 0;
for (const [command, args] of benchmarks) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: import.meta.dirname });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
