// Sums the runners' JSON reports into `tests: N passed, N failed` (Vitest and Playwright
// print no line CI can read). Run directly it prints that line.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function read(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

export function summarize(reportsDir) {
  let passed = 0;
  let failed = 0;
  const vitest = read(path.join(reportsDir, 'vitest.json'));
  if (vitest) {
    passed += vitest.numPassedTests ?? 0;
    failed += (vitest.numFailedTests ?? 0) + (vitest.numRuntimeErrorTestSuites ?? 0);
  }
  const playwright = read(path.join(reportsDir, 'playwright.json'));
  if (playwright?.stats) {
    passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
    failed += playwright.stats.unexpected ?? 0;
  }
  return { passed, failed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../reports');
  const { passed, failed } = summarize(dir);
  console.log(`tests: ${passed} passed, ${failed} failed`);
}
