// The date sweep: the Vitest suites run again under Debian's faketime (libfaketime) with the
// machine's clock started at dates where calendars break — more than a year ahead, both nights
// Oslo changes its clocks, a leap day, Christmas Eve, a holiday, either side of the delivery
// cutoff, near midnight when Oslo and UTC disagree on the date, and every weekday. The clock
// then runs on from there. A test that only passes on some days fails here, in CI, on the day
// it is written instead of months later.
//
// The package suites run at every date; the server files that run on the machine's clock and
// book, bill, renew or expire something run more than a year ahead and at the dates that break
// what each of them does (marked `server`). Server files that set a fixed clock of their own are date-proof by construction and
// run in the main run only: rerunning them under faketime proved nothing and cost seven minutes
// of CI. Only PGlite, which lives inside the faked process: PostgreSQL and Redis are servers with
// their own (real) clock, so they run on today's date in the main run.
//
// Every date runs in one Vitest run (vitest.config.ts, MINSIDE_TIME_SWEEP): each date's copy of
// the projects has its workers started under faketime at that date, so each test file starts at
// the date itself (a run per date let the clock run on across the whole run, minutes past it).
//
//   node scripts/time-sweep.mjs               every date (what `npm test` runs)
//   node scripts/time-sweep.mjs --at 2028-02-29T11:59:00Z [--whole]
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { ensureFaketime } from './ensure-debian-tool.mjs';
import { root, run } from './lib.mjs';

/**
 * Instants in UTC; what they are in Oslo is in `why`. One of each ISO weekday in Oslo. `server`:
 * which of the dated server files run there (`true`: all of them). Every server file runs more than
 * a year ahead, and again at the dates that break what it does — holidays and the cutoff for
 * delivery, month ends and the leap day for billing, the Oslo/UTC date split for ages — instead
 * of every file at every date: the same proof for half of the sweep's CI time.
 */
export const sweepDates = [
  { at: '2028-06-16T10:30:00Z', why: 'Friday 12:30 in Oslo, more than a year ahead, just after the cutoff', server: true },
  { at: '2026-12-24T09:00:00Z', why: 'Christmas Eve, Thursday 10:00', server: ['test/delivery.test.ts', 'test/my-subscription.test.ts', 'test/ordering.test.ts', 'test/complaint-credit.test.ts'] },
  {
    at: '2027-03-28T00:30:00Z',
    why: 'Easter Sunday 01:30, half an hour before clocks go forward',
    server: ['test/delivery.test.ts', 'test/billing.test.ts', 'test/billing-renewal.test.ts', 'test/bank.test.ts', 'test/vipps.test.ts'],
  },
  { at: '2027-10-31T00:30:00Z', why: 'Sunday 02:30 summer time, half an hour before clocks go back' },
  {
    at: '2028-02-29T11:59:00Z',
    why: 'leap day, Tuesday 12:59',
    server: ['test/billing.test.ts', 'test/billing-renewal.test.ts', 'test/student.test.ts', 'test/ordering.test.ts', 'test/identity-claims.test.ts'],
  },
  {
    at: '2027-05-16T22:30:00Z',
    why: 'Monday 17 May (a holiday) 00:30, still Sunday in UTC',
    server: ['test/delivery.test.ts', 'test/my-subscription.test.ts', 'test/profile-provenance.test.ts', 'test/identity-claims.test.ts', 'test/bank.test.ts'],
  },
  { at: '2027-01-13T10:59:00Z', why: 'Wednesday 11:59, a minute before the cutoff' },
  { at: '2027-01-02T22:45:00Z', why: 'Saturday 23:45' },
];

/**
 * The suites whose answers depend on the date: every package test, and the server files that
 * run on the machine's clock (or an offset from it) and book, bill, renew or expire something.
 * Files that set a fixed clock of their own are date-proof by construction.
 */
export const datedSuites = {
  projects: ['domain', 'titles', 'bank-files', 'vipps'],
};
export const datedServerFiles = {
  project: 'server',
  files: [
    'test/delivery.test.ts',
    'test/my-subscription.test.ts',
    'test/billing.test.ts',
    'test/billing-renewal.test.ts',
    'test/ordering.test.ts',
    'test/student.test.ts',
    'test/bank.test.ts',
    'test/vipps.test.ts',
    'test/complaint-credit.test.ts',
    'test/profile-provenance.test.ts',
    'test/identity-claims.test.ts',
  ],
};

/** `2028-06-16T10:30:00Z` → faketime's `@2028-06-16 10:30:00` (read in TZ=UTC below). */
function faketimeSpec(at) {
  const instant = new Date(at);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Not an instant: ${at}`);
  return `@${instant.toISOString().slice(0, 19).replace('T', ' ')}`;
}

/** Where faketime puts libfaketime (LD_PRELOAD, as the `faketime` command sets it). */
function faketimeLibrary() {
  return execFileSync('faketime', ['-f', '@2000-01-01 00:00:00', 'printenv', 'LD_PRELOAD'], { encoding: 'utf8' }).trim();
}

function clean(env) {
  const copy = { ...env };
  delete copy.TEST_DATABASE_URL;
  delete copy.TEST_REDIS_URL;
  return copy;
}

/** By hand with --whole: every suite under faketime at one date (the Vitest process too). */
function wholeSuiteAt(at) {
  const name = at.replace(/[:]/g, '').replace(/\.\d+/, '');
  const args = ['vitest', 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=reports/time-sweep/${name}.json`, '--reporter=./scripts/problems-reporter.mjs'];
  console.log(`\n--- whole suite at ${at} ---`);
  return run('faketime', ['-f', faketimeSpec(at), 'npx', ...args], { env: { ...clean(process.env), TZ: 'UTC', FAKETIME_DONT_RESET: '1' } });
}

/** The dated suites at each of `dates`, in one Vitest run; a line per date says how it went. */
async function sweep(dates) {
  const library = faketimeLibrary();
  const plan = dates.map(({ at, server }) => ({
    at,
    // TZ=UTC: faketime reads the instant in the process's zone; the code under test works in Oslo time itself.
    env: { LD_PRELOAD: library, FAKETIME: faketimeSpec(at), FAKETIME_DONT_RESET: '1', TZ: 'UTC' },
    projects: datedSuites.projects,
    ...(server ? { serverFiles: server === true ? datedServerFiles.files : server } : {}),
  }));
  const args = [
    'vitest',
    'run',
    '--reporter=dot',
    '--reporter=json',
    '--outputFile.json=reports/time-sweep/sweep.json',
    '--reporter=./scripts/time-sweep-reporter.mjs',
    '--reporter=./scripts/problems-reporter.mjs',
  ];
  console.log(
    `\n--- the dated suites at ${dates.length} dates: ${dates.map((date) => `${date.at}${date.server ? ` (with ${date.server === true ? 'every' : date.server.length} server file${date.server === true || date.server.length > 1 ? 's' : ''})` : ''}`).join(', ')} ---`,
  );
  return run('npx', args, { env: { ...clean(process.env), MINSIDE_TIME_SWEEP: JSON.stringify(plan) } });
}

export async function timeSweep(argv = []) {
  if (!(await ensureFaketime())) return 1;
  mkdirSync(`${root}/reports/time-sweep`, { recursive: true });
  const atIndex = argv.indexOf('--at');
  if (atIndex >= 0 && argv.includes('--whole')) return wholeSuiteAt(argv[atIndex + 1]);
  const dates = atIndex >= 0 ? [{ at: argv[atIndex + 1], server: true, why: 'by hand' }] : sweepDates;
  const started = performance.now();
  const code = await sweep(dates);
  console.log(`--- date sweep: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return code === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(await timeSweep(process.argv.slice(2)));
