/**
 * Calendar dates as ISO strings (YYYY-MM-DD) in Europe/Oslo: what delivery and billing count
 * in (ARCHITECTURE "Dates are Europe/Oslo calendar dates"). Arithmetic is done in UTC on the
 * date alone, so daylight-saving changes never shift a day.
 */

// The one reading of Europe/Oslo's clock (the runtime's ICU time-zone data): today's date, the
// cutoff, the job schedule, the carrier feed and every instant shown to a user go through
// osloWallClock, so they cannot disagree about when a day or summer time begins.
//
// Temporal where the runtime has it (Chromium from 144, Firefox from 139): the first Intl object
// a page makes costs 15–60 ms of ICU's set-up on a 2-core machine, inside the page's first script
// task, where Temporal reads the same zone data in under a millisecond (docs/performance.md,
// "2026-11-27 afternoon"). Elsewhere (Node 24, Safari) Intl,
// read from parts, never from a locale's pattern, which ICU versions change (en-CA's date pattern
// did); h23 so midnight is 00. dates.temporal.test.ts holds the two to the same answers.
interface TemporalApi {
  Instant: { fromEpochMilliseconds(epochMilliseconds: number): { toZonedDateTimeISO(timeZone: string): { toPlainDateTime(): { toString(options: { smallestUnit: 'second' }): string } } } };
}
const temporal = (globalThis as { Temporal?: TemporalApi }).Temporal;

let osloClock: Intl.DateTimeFormat | undefined;
function readByIntl(instant: Date): string {
  osloClock ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Oslo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const parts = Object.fromEntries(osloClock.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts['year']}-${parts['month']}-${parts['day']}T${parts['hour']}:${parts['minute']}:${parts['second']}`;
}

function readByTemporal(api: TemporalApi, instant: Date): string {
  // Throws a RangeError for an invalid Date, as formatToParts does.
  return api.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO('Europe/Oslo').toPlainDateTime().toString({ smallestUnit: 'second' });
}

// The last second read and what it read: formatToParts is the costliest step of a hot API call
// (the home call asks for today's date on every request), and a busy server asks for the same
// second many times. The wall clock shows whole seconds (the milliseconds are cut, as here), so
// the same second always reads the same.
let lastSecond = Number.NaN;
let lastWallClock = '';

/** The Oslo wall clock at an instant: `YYYY-MM-DDTHH:MM:SS`. */
export function osloWallClock(instant: Date): string {
  const second = Math.floor(instant.getTime() / 1000);
  if (second === lastSecond) return lastWallClock;
  const wallClock = temporal ? readByTemporal(temporal, instant) : readByIntl(instant);
  lastSecond = second;
  lastWallClock = wallClock;
  return wallClock;
}

/** Today's date in Oslo at the instant `now` (from the injected clock). */
export function osloToday(now: Date): string {
  return osloWallClock(now).slice(0, 10);
}

/**
 * The instant the wall clock in Oslo shows `time` (HH:MM) on `isoDate`. When the clocks go back
 * the hour 02:00–02:59 comes twice: the later one (winter time) is taken. A time the clocks skip
 * when they go forward (02:00–02:59) lands an hour later, on the same instant as 03:00–03:59.
 */
export function osloInstantOf(isoDate: string, time: string): Date {
  parse(isoDate);
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) throw new RangeError(`Not a time HH:MM: ${time}`);
  const wall = `${isoDate}T${time}:00`;
  const winter = new Date(`${wall}+01:00`);
  if (osloWallClock(winter) === wall) return winter;
  const summer = new Date(`${wall}+02:00`);
  return osloWallClock(summer) === wall ? summer : winter;
}

/**
 * Noon in Oslo on a calendar date: how a date-only fact from outside (the bank's payment date) is
 * stored where an instant is expected, so it reads back as the same Oslo day.
 */
export function osloNoonOf(isoDate: string): Date {
  return osloInstantOf(isoDate, '12:00');
}

function parse(isoDate: string): Date {
  const [year, month, day] = isoDate.split('-').map(Number);
  if (!year || !month || !day) throw new RangeError(`Not an ISO date: ${isoDate}`);
  return new Date(Date.UTC(year, month - 1, day));
}

function format(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  const date = parse(isoDate);
  date.setUTCDate(date.getUTCDate() + days);
  return format(date);
}

/** Adds calendar months; the 31st plus one month is the last day of the shorter month. */
export function addMonths(isoDate: string, months: number): string {
  const date = parse(isoDate);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return format(date);
}

/**
 * Orders ISO dates (or instants in the same ISO form): they sort as plain strings. Not
 * `localeCompare`, whose first use starts ICU's collator, milliseconds of a page's first task.
 */
export function compareIsoDates(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
