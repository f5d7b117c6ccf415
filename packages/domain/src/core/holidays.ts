import Holidays from 'date-holidays';

/**
 * Norwegian public holidays from a maintained library (date-holidays), not a hand-made list.
 * Only days of type `public` (helligdager and 1 and 17 May) count: observances, bank days and
 * Christmas Eve do not stop the presses. Kept out of the package index (`@minside/domain/holidays`)
 * so the browser bundle does not carry the library's worldwide data.
 */
const norway = new Holidays('NO', { languages: ['no'], timezone: 'Europe/Oslo' });
const cache = new Map<number, ReadonlySet<string>>();

export function norwegianPublicHolidays(year: number): ReadonlySet<string> {
  let days = cache.get(year);
  if (!days) {
    days = new Set(
      norway
        .getHolidays(year)
        .filter((holiday) => holiday.type === 'public')
        .map((holiday) => holiday.date.slice(0, 10)),
    );
    cache.set(year, days);
  }
  return days;
}
