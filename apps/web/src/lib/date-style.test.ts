import { describe, expect, it } from 'vitest';

// One style per kind (issue 25.13): dates and times reach the subscriber only through the house
// formatters in packages/domain format.ts ("7. desember 2026", "07.12.2026", "kl. 00.15"). A date
// or time formatted by hand in the web (the browser's locale, a colon between hours and minutes)
// is how "kl. 00:20" stood beside "kl. 00.15". This reads every source file of the app.
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**'], { query: '?raw', import: 'default', eager: true });

const handFormatted: [RegExp, string][] = [
  [/\.toLocale(?:Date|Time)String\(/, 'toLocaleDateString/toLocaleTimeString: the browser decides the style'],
  [/\.toLocaleString\([^)]*\{[^}]*(?:hour|day|month|year)/, 'toLocaleString with date fields: the browser decides the style'],
  [/Intl\.DateTimeFormat/, 'Intl.DateTimeFormat: ICU versions write nb-NO dates differently'],
  [/\.get(?:UTC)?(?:Hours|Minutes)\(\)/, 'hours and minutes by hand: use formatClockTime or formatInstant'],
  [/kl\.\s*\d{1,2}:\d{2}/, 'a time with a colon: Språkrådet writes "kl. 00.15"'],
  [/replace\(\s*['"]:['"]\s*,\s*['"]\.['"]\s*\)/, 'a colon swapped by hand: use formatClockTime'],
  [/['"]HH:mm['"]/, 'an HH:mm pattern: use formatClockTime'],
];

/** What breaks the house style in a source text, as "line: why". */
function findings(text: string): string[] {
  return text.split('\n').flatMap((line, index) => handFormatted.filter(([pattern]) => pattern.test(line)).map(([, why]) => `${index + 1}: ${why}`));
}

describe('dates and times in the web are written by the domain formatters only', () => {
  it('reads the app sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
  });

  it('no source file formats a date or a time by hand', () => {
    const found = Object.entries(sources).flatMap(([path, text]) => findings(text).map((finding) => `${path}:${finding}`));
    expect(found).toEqual([]);
  });

  it.each([
    ['new Date(at).toLocaleTimeString("nb-NO")'],
    ['`kl. ${at.getHours()}:${String(at.getMinutes()).padStart(2, "0")}`'],
    ['<p>Frist kl. 12:00 dagen før</p>'],
    ["{cutoff.replace(':', '.')}"],
    ["new Intl.DateTimeFormat('nb-NO', { dateStyle: 'long' })"],
  ])('would catch %s', (line) => {
    expect(findings(line)).not.toEqual([]);
  });

  it('leaves the formatters and other numbers alone', () => {
    expect(findings("formatClockTime('00:15'); formatInstant(payment.settledAt); (bytes / 1024).toLocaleString('nb-NO', { maximumFractionDigits: 1 })")).toEqual([]);
  });
});
