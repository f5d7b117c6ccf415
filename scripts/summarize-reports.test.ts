import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types; the shapes are checked below.
import { summarize, summaryLines } from './summarize-reports.mjs';

const summed = summarize as (dir: string) => { passed: number; failed: number };
const linesOf = summaryLines as (dir: string) => string[];

const test = (status: string) => ({ ancestorTitles: [], title: status, status });
const report = (files: { status: string; tests: string[] }[]) => ({
  numPassedTests: files.flatMap((file) => file.tests).filter((status) => status === 'passed').length,
  numFailedTests: files.flatMap((file) => file.tests).filter((status) => status === 'failed').length,
  testResults: files.map((file, index) => ({ name: `/repo/apps/server/test/f${index}.test.ts`, status: file.status, message: '', assertionResults: file.tests.map(test) })),
});

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function reports(main: object, problems?: string[]): string {
  dir = mkdtempSync(path.join(tmpdir(), 'summary-'));
  writeFileSync(path.join(dir, 'vitest.json'), JSON.stringify(main));
  if (problems) writeFileSync(path.join(dir, 'vitest.problems.txt'), problems.join('\n') + '\n');
  return dir;
}

describe('the CI summary', () => {
  it('counts a file whose hook failed as one failure, though its tests count as skipped', () => {
    const at = reports(
      report([
        { status: 'passed', tests: ['passed', 'passed'] },
        { status: 'failed', tests: ['skipped', 'skipped', 'skipped'] },
      ]),
      ['apps/server/test/f1.test.ts › two instances: Hook timed out in 30000ms.'],
    );
    expect(summed(at)).toEqual({ passed: 2, failed: 1 });
    expect(linesOf(at)).toEqual(['  vitest.json: 2 passed, 1 failed', '    apps/server/test/f1.test.ts › two instances: Hook timed out in 30000ms.']);
  });

  it('counts a failed test once, not again for its file, and an error thrown outside any test as one more', () => {
    const at = reports(report([{ status: 'failed', tests: ['passed', 'failed'] }]), ['f0 › x: expected 1 to be 2', 'unhandled error: boom (at f0.test.ts:3:1)']);
    expect(summed(at)).toEqual({ passed: 1, failed: 2 });
  });

  it('shows at most six problems and says where the rest are', () => {
    const at = reports(
      report([{ status: 'failed', tests: Array.from({ length: 8 }, () => 'failed') }]),
      Array.from({ length: 8 }, (_, index) => `f0 › t${index}: failed`),
    );
    const lines = linesOf(at);
    expect(lines).toHaveLength(1 + 6 + 1);
    expect(lines.at(-1)).toBe('    … 2 more in vitest.problems.txt');
  });

  it('a clean run prints its count alone', () => {
    const at = reports(report([{ status: 'passed', tests: ['passed'] }]));
    expect(summed(at)).toEqual({ passed: 1, failed: 0 });
    expect(linesOf(at)).toEqual(['  vitest.json: 1 passed, 0 failed']);
  });

  it('names each failed e2e test with its first error line, and counts the journeys that did not run', () => {
    const at = reports(report([{ status: 'passed', tests: ['passed'] }]));
    const spec = (title: string, line: number, status: string, message?: string) => ({
      title,
      file: 'billing.spec.ts',
      line,
      tests: [{ projectName: 'chromium', status, results: [{ status: 'failed', errors: message ? [{ message }] : [] }] }],
    });
    writeFileSync(
      path.join(at, 'playwright.json'),
      JSON.stringify({
        stats: { expected: 1, flaky: 1, unexpected: 1, skipped: 6 },
        suites: [
          {
            title: 'billing.spec.ts',
            specs: [spec('pays', 10, 'expected')],
            suites: [
              { title: 'invoices', specs: [spec('shows the PDF', 42, 'unexpected', '\u001b[31mError: expect(locator).toBeVisible() failed\u001b[39m\n\nLocator: …'), spec('retried', 50, 'flaky')] },
            ],
          },
        ],
        errors: [],
      }),
    );
    expect(summed(at)).toEqual({ passed: 1 + 2, failed: 1 });
    expect(linesOf(at).slice(1)).toEqual(['  playwright.json: 2 passed, 1 failed, 6 not run', '    billing.spec.ts:42 › shows the PDF: Error: expect(locator).toBeVisible() failed']);
  });
});
