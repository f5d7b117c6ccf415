// Why a Vitest run failed, in a few lines CI's summary can print last (scripts/summarize-reports.mjs).
// The JSON report counts failed tests only: a hook that timed out (its tests then count as
// skipped, not failed) or an error thrown outside any test fails the run with every test green,
// and the reason is far up a long log. This reporter writes them next to the JSON report
// (`reports/vitest.json` → `reports/vitest.problems.txt`), one line each, and nothing when the run is clean.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const firstLine = (error) =>
  String(error?.message ?? error ?? 'unknown error')
    .split('\n')[0]
    .slice(0, 300);
const shortPath = (moduleId) => moduleId.replace(/^.*?\/((apps|packages|scripts|bench|e2e)\/)/, '$1');

export const UNHANDLED = 'unhandled error:';

/**
 * How many failures a test file counts for: its failed tests, and at least one when the file itself
 * failed with none (an import or setup error before any test ran, or a hook that failed or timed
 * out: Vitest then counts its tests as skipped). The CI summary and the date sweep's lines both count so.
 */
export function failuresOfFile(fileFailed, failedTests) {
  return fileFailed ? Math.max(failedTests, 1) : failedTests;
}

export function problemsFileOf(jsonReport) {
  return jsonReport.replace(/\.json$/, '') + '.problems.txt';
}

export default class ProblemsReporter {
  onInit(ctx) {
    const { outputFile } = ctx.config;
    const json = typeof outputFile === 'string' ? outputFile : outputFile?.json;
    this.file = json ? path.resolve(ctx.config.root, problemsFileOf(json)) : undefined;
    // An earlier run's, gone before this run starts: a run that dies before its end leaves none behind.
    if (this.file) rmSync(this.file, { force: true });
  }

  onTestRunEnd(testModules, unhandledErrors) {
    if (!this.file) return;
    const lines = [];
    for (const testModule of testModules) {
      const where = `${testModule.project.name ? `[${testModule.project.name}] ` : ''}${shortPath(testModule.moduleId)}`;
      const before = lines.length;
      for (const error of testModule.errors()) lines.push(`${where}: ${firstLine(error)}`);
      for (const suite of testModule.children.allSuites()) {
        for (const error of suite.errors()) lines.push(`${where} › ${suite.fullName}: ${firstLine(error)}`);
      }
      for (const test of testModule.children.allTests()) {
        const result = test.result();
        if (result.state === 'failed') lines.push(`${where} › ${test.fullName}: ${firstLine(result.errors?.[0])}`);
      }
      if (testModule.state() === 'failed' && lines.length === before) lines.push(`${where}: failed (no error recorded)`);
    }
    for (const error of unhandledErrors)
      lines.push(
        `${UNHANDLED} ${firstLine(error)}${
          error?.stack
            ? ` (${
                String(error.stack)
                  .split('\n')
                  .find((line) => /\/(apps|packages|scripts)\//.test(line))
                  ?.trim() ?? 'no project frame'
              })`
            : ''
        }`,
      );
    rmSync(this.file, { force: true });
    if (lines.length === 0) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileSync(this.file, lines.join('\n') + '\n');
  }
}
