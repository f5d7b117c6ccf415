import { addDays, osloWallClock } from '../core/dates.ts';

/**
 * The publication calendar of one title (issue 5): the weekdays its paper is printed (from the
 * title catalogue) minus Norwegian public holidays, in Europe/Oslo calendar dates. Pure: the
 * holidays come in as a function, so this module runs in the browser and in tests without the
 * holiday library (the server passes `norwegianPublicHolidays` from `@minside/domain/holidays`).
 */
export interface PublicationCalendar {
  /** True when an issue comes out on this date (YYYY-MM-DD). */
  isPublicationDay(date: string): boolean;
  /** The first publication day on or after `date`. */
  nextPublicationDay(date: string): string;
  /** The last publication day on or before `date`. */
  previousPublicationDay(date: string): string;
  /** Every publication day from `from` to `to`, both included, in order. */
  publicationDaysBetween(from: string, to: string): string[];
}

/** No title prints fewer than one issue a week, and no holiday stretch is a year long. */
const SEARCH_LIMIT_DAYS = 400;

/** ISO weekday of a calendar date: 1 = Monday … 7 = Sunday. Independent of time zones. */
export function isoWeekday(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  const weekday = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

export function createPublicationCalendar(options: {
  /** ISO weekdays the paper is printed (catalogue `publicationWeekdays`). */
  weekdays: readonly number[];
  /** The public holidays of a year, as YYYY-MM-DD dates: no issue on those days. */
  holidaysOf: (year: number) => ReadonlySet<string>;
}): PublicationCalendar {
  const weekdays = new Set(options.weekdays);
  if (weekdays.size === 0) throw new RangeError('A publication calendar needs at least one weekday');
  const holidayCache = new Map<number, ReadonlySet<string>>();
  const holidays = (year: number) => {
    let set = holidayCache.get(year);
    if (!set) holidayCache.set(year, (set = options.holidaysOf(year)));
    return set;
  };

  function isPublicationDay(date: string): boolean {
    return weekdays.has(isoWeekday(date)) && !holidays(Number(date.slice(0, 4))).has(date);
  }

  function search(date: string, step: 1 | -1): string {
    let candidate = date;
    for (let i = 0; i < SEARCH_LIMIT_DAYS; i++) {
      if (isPublicationDay(candidate)) return candidate;
      candidate = addDays(candidate, step);
    }
    throw new RangeError(`No publication day within ${SEARCH_LIMIT_DAYS} days of ${date}`);
  }

  return {
    isPublicationDay,
    nextPublicationDay: (date) => search(date, 1),
    previousPublicationDay: (date) => search(date, -1),
    publicationDaysBetween(from, to) {
      const days: string[] = [];
      for (let date = from; date <= to; date = addDays(date, 1)) if (isPublicationDay(date)) days.push(date);
      return days;
    },
  };
}

// ---------------------------------------------------------------------------------------
// The cutoff (SPEC §5): a delivery change must be placed before a cutoff time the day before
// the first issue it affects. Compared on the Oslo wall clock, so daylight-saving changes
// never move the deadline: 12:00 is 12:00 in Oslo in March, July and October alike.
// ---------------------------------------------------------------------------------------

/** The default cutoff time, HH:MM in Europe/Oslo, on the day before the first affected issue. */
export const DEFAULT_CUTOFF_TIME = '12:00';

const cutoffPattern = /^([01]\d|2[0-3]):[0-5]\d$/;

function checkCutoff(cutoffTime: string): void {
  if (!cutoffPattern.test(cutoffTime)) throw new RangeError(`A cutoff time is HH:MM, got ${cutoffTime}`);
}

/** The deadline for changes to the issue of `issueDate`, on the Oslo wall clock: `YYYY-MM-DDTHH:MM:00`. */
export function cutoffFor(issueDate: string, cutoffTime: string = DEFAULT_CUTOFF_TIME): string {
  checkCutoff(cutoffTime);
  return `${addDays(issueDate, -1)}T${cutoffTime}:00`;
}

/** True when a change to the issue of `issueDate` placed at `now` is in time. */
export function isBeforeCutoff(issueDate: string, now: Date, cutoffTime: string = DEFAULT_CUTOFF_TIME): boolean {
  return osloWallClock(now) < cutoffFor(issueDate, cutoffTime);
}

/** The first issue a change placed at `now` can still affect: SPEC §5 "the next possible delivery day". */
export function nextPossibleDeliveryDay(calendar: PublicationCalendar, now: Date, cutoffTime: string = DEFAULT_CUTOFF_TIME): string {
  checkCutoff(cutoffTime);
  const clock = osloWallClock(now);
  const today = clock.slice(0, 10);
  const beforeCutoffToday = clock.slice(11) < `${cutoffTime}:00`;
  return calendar.nextPublicationDay(addDays(today, beforeCutoffToday ? 1 : 2));
}
