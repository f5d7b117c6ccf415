// `npm run bench`: every benchmark in turn. The quality-gates issue (#10) adds API-wide load,
// and Lighthouse; today: the invoice list and the web bundle size (docs/performance.md).
import { spawnSync } from 'node:child_process';

const benchmarks = [
  ['node', ['--import', 'tsx', 'invoice-list.ts']],
  ['node', ['--import', 'tsx', 'web-bundle.ts']],
];
let failed = 0;
for (const [command, args] of benchmarks) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: import.meta.dirname });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
