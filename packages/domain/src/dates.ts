/**
 * Calendar dates as ISO strings (YYYY-MM-DD) in Europe/Oslo: what delivery and billing count
 * in (ARCHITECTURE "Dates are Europe/Oslo calendar dates"). Arithmetic is done in UTC on the
 * date alone, so daylight-saving changes never shift a day.
 */
const osloDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date in Oslo at the instant `now` (from the injected clock). */
export function osloToday(now: Date): string {
  return osloDate.format(now);
}

/** The instant the wall clock in Oslo shows `time` (HH:MM, a time that exists that day) on `isoDate`. */
export function osloInstantOf(isoDate: string, time: string): Date {
  parse(isoDate);
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) throw new RangeError(`Not a time HH:MM: ${time}`);
  const winter = new Date(`${isoDate}T${time}:00+01:00`);
  // In summer time (UTC+2) the instant is an hour earlier; the winter guess then reads an hour late in Oslo.
  return osloHourMinute.format(winter) === time ? winter : new Date(`${isoDate}T${time}:00+02:00`);
}

/**
 * Noon in Oslo on a calendar date: how a date-only fact from outside (the bank's payment date) is
 * stored where an instant is expected, so it reads back as the same Oslo day.
 */
export function osloNoonOf(isoDate: string): Date {
  return osloInstantOf(isoDate, '12:00');
}

const osloHourMinute = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

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
