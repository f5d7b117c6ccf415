// `npm run audit`: the production dependency tree (`npm audit --omit=dev`) must have no high or
// critical advisory. An audit that could not ask the registry is a failure, not a pass: the
// exit code says which (1 = findings, 2 = the advisory endpoint did not answer).
import { spawnSync } from 'node:child_process';
import { root } from './lib.mjs';

const result = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8' });
let report;
try {
  report = JSON.parse(result.stdout);
} catch {
  report = undefined;
}
const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const reason = report?.error?.summary || report?.message || result.stderr.split('\n').find((line) => line.includes('audit')) || 'no report';
  console.error(`npm audit could not run: ${reason.trim()}`);
  console.error("The registry's advisory endpoint must be reachable (on this project's build machines it answers 405).");
  process.exit(2);
}
const blocking = (counts.high ?? 0) + (counts.critical ?? 0);
console.log(`production dependencies: ${counts.critical ?? 0} critical, ${counts.high ?? 0} high, ${counts.moderate ?? 0} moderate, ${counts.low ?? 0} low`);
if (blocking > 0) {
  for (const [name, advisory] of Object.entries(report.vulnerabilities ?? {})) {
    if (advisory.severity === 'high' || advisory.severity === 'critical') console.log(`  ${advisory.severity}: ${name} ${advisory.range ?? ''}`);
  }
  process.exit(1);
}
