// Sums the runners' JSON reports into `tests: N passed, N failed` (Vitest and Playwright
// print no line CI can read): the main Vitest run, each date of the date sweep
// (reports/time-sweep/), the Node 26 run (reports/node-next/) and Playwright. Run directly it
// also prints how many tests ran on each database and with Redis, and with `--require-services`
// fails when the PostgreSQL or Redis paths did not run at all (CI).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { fileURLToPath } from 'node:url';
import { failuresOfFile, problemsFileOf, UNHANDLED } from './problems-reporter.mjs';

function read(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** Each file's failures (failuresOfFile), and each error thrown outside any test. */
function vitestFailures({ report, problems }) {
  const files = (report.testResults ?? []).reduce(
    (sum, result) => sum + failuresOfFile(result.status === 'failed', (result.assertionResults ?? []).filter((test) => test.status === 'failed').length),
    0,
  );
  return files + problems.filter((line) => line.startsWith(UNHANDLED)).length;
}

/** What problems-reporter.mjs wrote beside a report; an error thrown outside any test fails the run and counts as one failure. */
function problemsOf(file) {
  const problems = problemsFileOf(file);
  return existsSync(problems) ? readFileSync(problems, 'utf8').split('\n').filter(Boolean) : [];
}

function vitestReports(reportsDir) {
  const files = [path.join(reportsDir, 'vitest.json')];
  for (const folder of ['time-sweep', 'node-next']) {
    const dir = path.join(reportsDir, folder);
    if (existsSync(dir))
      files.push(
        ...readdirSync(dir)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => path.join(dir, name)),
      );
  }
  return files
    .map((file) => ({ file, report: read(file) }))
    .filter(({ report }) => report)
    .map((run) => ({ ...run, problems: problemsOf(run.file) }));
}

export function summarize(reportsDir) {
  let passed = 0;
  let failed = 0;
  for (const run of vitestReports(reportsDir)) {
    passed += run.report.numPassedTests ?? 0;
    failed += vitestFailures(run);
  }
  const playwright = read(path.join(reportsDir, 'playwright.json'));
  if (playwright?.stats) {
    passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
    failed += playwright.stats.unexpected ?? 0;
  }
  return { passed, failed };
}

/**
 * Passed tests of the main Vitest run by where their data lived, read from the names the
 * server integration suites (apps/server/test/) give themselves (`describe.each(testDatabases)`
 * → "… (pglite)", "(postgres, …)", storage "redis"). Only those files count: a unit test that
 * merely mentions PostgreSQL in its name ran on no database.
 */
export function countByService(reportsDir) {
  const counts = { pglite: 0, postgres: 0, redis: 0 };
  const report = read(path.join(reportsDir, 'vitest.json'));
  for (const file of report?.testResults ?? []) {
    if (!/[/\\]apps[/\\]server[/\\]test[/\\]/.test(file.name ?? '')) continue;
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'passed') continue;
      const name = [...(test.ancestorTitles ?? []), test.title].join(' > ').toLowerCase();
      if (/\bpglite\b/.test(name)) counts.pglite += 1;
      if (/\bpostgres(ql)?\b/.test(name)) counts.postgres += 1;
      if (/\bredis\b/.test(name)) counts.redis += 1;
    }
  }
  return counts;
}

/** At most this many of a run's problems are printed; the rest are in its `.problems.txt`. */
const PROBLEMS_SHOWN = 6;

export function summaryLines(reportsDir) {
  const lines = [];
  for (const run of vitestReports(reportsDir)) {
    lines.push(`  ${path.relative(reportsDir, run.file)}: ${run.report.numPassedTests ?? 0} passed, ${vitestFailures(run)} failed`);
    // Why, right under the count: the log above can be too long to read back.
    for (const problem of run.problems.slice(0, PROBLEMS_SHOWN)) lines.push(`    ${problem}`);
    if (run.problems.length > PROBLEMS_SHOWN) lines.push(`    … ${run.problems.length - PROBLEMS_SHOWN} more in ${path.relative(reportsDir, problemsFileOf(run.file))}`);
  }
  const playwright = read(path.join(reportsDir, 'playwright.json'));
  if (playwright?.stats) {
    const { expected = 0, flaky = 0, unexpected = 0, skipped = 0 } = playwright.stats;
    // Skipped: the journeys that depend on a failed project do not run (e2e/playwright.config.ts).
    lines.push(`  playwright.json: ${expected + flaky} passed, ${unexpected} failed${skipped > 0 ? `, ${skipped} not run` : ''}`);
    const failures = playwrightFailures(playwright);
    for (const failure of failures.slice(0, PROBLEMS_SHOWN)) lines.push(`    ${failure}`);
    if (failures.length > PROBLEMS_SHOWN) lines.push(`    … ${failures.length - PROBLEMS_SHOWN} more in playwright.json`);
  }
  return lines;
}

/** Each failed test as `file:line › title: the first line of its last error`, and each error outside any test. */
function playwrightFailures(report) {
  const failures = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.errors?.[0]?.message ?? test.results?.at(-1)?.error?.message ?? '';
        failures.push(`${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  for (const error of report.errors ?? []) failures.push(`error outside any test: ${firstLine(error.message ?? '')}`);
  return failures;
}

// Playwright's messages carry terminal colours and a long call log after the first line.
const firstLine = (message) => stripVTControlCharacters(message).split('\n')[0].trim().slice(0, 300);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dir = args.find((arg) => !arg.startsWith('--')) ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../reports');
  for (const line of summaryLines(dir)) console.log(line);
  const byService = countByService(dir);
  console.log(`tests by storage (main run): PGlite ${byService.pglite}, PostgreSQL ${byService.postgres}, Redis ${byService.redis}`);
  let { passed, failed } = summarize(dir);
  if (args.includes('--require-services')) {
    for (const [service, label] of [
      ['postgres', 'PostgreSQL'],
      ['redis', 'Redis'],
    ]) {
      if (byService[service] === 0) {
        console.log(`No test ran on ${label}: its path was skipped, so this run proves nothing about it.`);
        failed += 1;
      }
    }
  }
  // A step can fail with every test green (lint, a runner's unhandled error, a download): say which, next to the count.
  const steps = read(path.join(dir, 'steps.json'));
  for (const step of steps?.failed ?? []) console.log(`step failed: ${step.name} (exit ${step.code})`);
  console.log(`tests: ${passed} passed, ${failed} failed`);
  if (args.includes('--require-services') && failed > 0) process.exitCode = 1;
}
