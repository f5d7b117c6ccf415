// `npm test`: lint, typecheck, formatting (Prettier), dead code (knip), build, unit + server integration (Vitest), the date sweep
// (Vitest under faketime), e2e (Playwright).
// Every step runs even when an earlier one failed, so one run shows every problem; the
// exit code is non-zero when any step failed. Runner reports land in reports/.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { ensureChromium, ensureSshd } from './ensure-debian-tool.mjs';
import { timeSweep } from './time-sweep.mjs';
import { root, run } from './lib.mjs';
import { summarize } from './summarize-reports.mjs';

rmSync(`${root}/reports`, { recursive: true, force: true });
mkdirSync(`${root}/reports`, { recursive: true });

const only = process.argv[2]; // e.g. `npm test -- e2e` runs one step

/**
 * The typecheck, started beside the lint: each is one single-threaded process, so on the 2-core
 * CI machine they take the time of the longer instead of the sum. Its output is held back and
 * printed in its own step.
 */
let typecheck;
function startTypecheck() {
  typecheck ??= new Promise((resolve) => {
    const child = spawn('npx', ['tsc', '-b'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
    child.on('error', (error) => resolve({ code: 127, output: String(error) }));
  });
  return typecheck;
}

const steps = [
  [
    'lint',
    () => {
      if (!only) void startTypecheck();
      return run('npx', ['eslint', '--max-warnings', '0', '.']);
    },
  ],
  [
    'typecheck',
    async () => {
      const { code, output } = await startTypecheck();
      process.stdout.write(output);
      return code;
    },
  ],
  // Formatting: every file as Prettier writes it (.prettierrc.json, .prettierignore; `npm run format` fixes).
  ['format', () => run('npx', ['prettier', '--check', '.'])],
  // Unused files, exports and dependencies, and unlisted dependencies (knip.config.ts): kept at zero.
  ['knip', () => run('npx', ['knip', '--no-progress'])],
  // Before the tests: the server process tests and e2e run the real bundles.
  ['build', () => run('npm', ['run', 'build'])],
  [
    'unit and server',
    async () => {
      // The bank's SFTP test needs Debian's sshd and fails without it (it never skips): install it first when we may.
      // Vitest still runs without it, so one run shows every other problem too.
      const sshd = await ensureSshd();
      const code = await run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=reports/vitest.json', '--reporter=./scripts/problems-reporter.mjs']);
      return sshd ? code : code || 1;
    },
  ],
  // The same suites again under faketime at dates where calendars break (scripts/time-sweep.mjs).
  ['date sweep', () => timeSweep()],
  [
    'e2e',
    async () => {
      if (!(await ensureChromium())) return 1;
      return run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
        env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: `${root}/reports/playwright.json` },
      });
    },
  ],
];

const failed = [];
for (const [name, step] of steps) {
  if (only && name !== only) continue;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const code = await step();
  console.log(`=== ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) failed.push({ name, code });
}
writeFileSync(`${root}/reports/steps.json`, `${JSON.stringify({ failed }, null, 2)}\n`);
const { passed, failed: failedTests } = summarize(`${root}/reports`);
console.log(`\n${failed.length ? `Failed steps: ${failed.map((step) => step.name).join(', ')}` : 'All steps passed.'}`);
console.log(`tests: ${passed} passed, ${failedTests} failed`);
process.exit(failed.length ? 1 : 0);
