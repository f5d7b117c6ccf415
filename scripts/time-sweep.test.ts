import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types; the shapes are checked below.
import { datedServerFiles, sweepDates } from './time-sweep.mjs';

interface SweepDate {
  at: string;
  why: string;
  server?: true | string[];
}

const dates = sweepDates as SweepDate[];
const files = (datedServerFiles as { files: string[] }).files;

describe('the date sweep plan', () => {
  it('runs every dated server file more than a year ahead and at one more date at least', () => {
    const far = dates.filter((date) => date.server === true);
    expect(far.length).toBeGreaterThan(0);
    for (const file of files) {
      const where = dates.filter((date) => date.server === true || date.server?.includes(file));
      expect(where.length, file).toBeGreaterThanOrEqual(2);
    }
  });

  it('names only dated server files, each once per date', () => {
    for (const date of dates) {
      if (!Array.isArray(date.server)) continue;
      expect(
        date.server.filter((file) => !files.includes(file)),
        date.at,
      ).toEqual([]);
      expect(new Set(date.server).size, date.at).toBe(date.server.length);
    }
  });

  it('has one of each ISO weekday in Oslo', () => {
    const weekdays = new Set(dates.map((date) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'Europe/Oslo' }).format(new Date(date.at))));
    expect(weekdays.size).toBe(7);
  });
});
