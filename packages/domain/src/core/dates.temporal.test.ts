import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// osloWallClock reads Oslo's clock through Temporal where the runtime has it and through Intl
// elsewhere (dates.ts): a page in Chromium takes one way, the server on Node 24 the other, and
// they must agree to the second. Node 24 has Temporal only behind --harmony-temporal, so the check
// runs in a child process that has it, and compares osloWallClock there with Intl's own reading:
// at every change of Oslo's offset from 1916 to 2100 (a second, half an hour and an hour either
// side) and on every tenth day of those years at an odd second.
const checkInChild = `
if (typeof Temporal === 'undefined') throw new Error('no Temporal in the child');
// dates.ts must read through Temporal here: an Intl.DateTimeFormat made after this point throws.
const IntlDateTimeFormat = Intl.DateTimeFormat;
Intl.DateTimeFormat = function () { throw new Error('dates.ts made an Intl.DateTimeFormat where Temporal is'); };
const { osloWallClock } = await import(${JSON.stringify(fileURLToPath(new URL('./dates.ts', import.meta.url)))});
const intl = new IntlDateTimeFormat('en-GB', { timeZone: 'Europe/Oslo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const byIntl = (ms) => {
  const p = Object.fromEntries(intl.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return p.year + '-' + p.month + '-' + p.day + 'T' + p.hour + ':' + p.minute + ':' + p.second;
};
const offset = (ms) => Date.parse(byIntl(ms) + 'Z') - Math.floor(ms / 1000) * 1000;
const hour = 3_600_000, day = 24 * hour;
const instants = [];
const transitions = [];
for (let at = Date.UTC(1916, 0, 1); at < Date.UTC(2100, 11, 31); at += day) {
  if (offset(at) === offset(at + day)) continue;
  let [low, high] = [at, at + day];
  while (high - low > 1000) { const mid = low + Math.floor((high - low) / 2000) * 1000; if (offset(mid) === offset(low)) low = mid; else high = mid; }
  transitions.push(high);
  for (const delta of [-hour, -1800_000, -1000, 0, 1000, 1800_000, hour]) instants.push(high + delta);
}
for (let at = Date.UTC(1916, 0, 1) + 12_345_678; at < Date.UTC(2100, 11, 31); at += 10 * day + 7_777_777) instants.push(at);
const mismatches = instants.map((ms) => [new Date(ms).toISOString(), byIntl(ms), osloWallClock(new Date(ms))]).filter(([, a, b]) => a !== b);
console.log(JSON.stringify({ transitions: transitions.length, checked: instants.length, mismatches: mismatches.slice(0, 5) }));
`;

describe('osloWallClock through Temporal', () => {
  it('reads the same as Intl to the second, around every change of the offset from 1916 to 2100', () => {
    const temporalFlag = typeof (globalThis as { Temporal?: unknown }).Temporal === 'undefined' ? ['--harmony-temporal'] : [];
    const output = execFileSync(process.execPath, [...temporalFlag, '--import', 'tsx', '--input-type=module', '--eval', checkInChild], { encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as { transitions: number; checked: number; mismatches: string[][] };
    // Summer time every year since 1980, and in 1916, 1940–1945 and 1959–1965: two changes a year.
    expect(result.transitions).toBeGreaterThan(2 * (2100 - 1980));
    expect(result.checked).toBeGreaterThan(8_000);
    expect(result.mismatches).toEqual([]);
  }, 90_000);
});
