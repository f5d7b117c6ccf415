/**
 * Money and dates as a subscriber reads them (nb-NO), one implementation of each, for the web,
 * e-mail, bank notices and operator output alike (issue 23): the same amount and date read the
 * same in every browser, in an e-mail and on an invoice. Plain code without zod, so pages that
 * only show a price or a date take no schemas along.
 *
 * Money, the house style (as Språkrådet writes it: the amount first, then "kr"):
 * - `formatKroner(ore)`: whole kroner, "2 990 kr": prices (SPEC §9: prices are whole kroner)
 *   and amounts on the web and in prose. An amount with øre is never rounded away: it shows its
 *   øre, "162,25 kr", so a button never says "Betal 162 kr" for 162,25.
 * - `formatKroner(ore, { withOre: true })`: always kroner and øre, "649,00 kr": invoices, payment
 *   notices, bank claims and bookkeeping output, where amounts line up in columns.
 * nb-NO grouping with a no-break space ("2 990 kr" never breaks between its digits), a comma
 * before the øre, and a minus sign (U+2212) before a negative amount, "−649,00 kr".
 *
 * Dates: ISO calendar dates (YYYY-MM-DD, Europe/Oslo) in; anything else is returned as it is.
 * Long "5. mars 2026", short "05.03.2026", with the weekday "tirsdag 1. desember 2026", a period
 * "05.03.2026–04.04.2026", and an instant on the Oslo clock "21.11.2026 kl. 13.40" (Språkrådet:
 * "kl." and a full stop between hours and minutes). Today in Oslo is `osloToday` in dates.ts,
 * beside the date arithmetic and the one reading of the Oslo clock.
 */
import { osloWallClock } from './dates.ts';

// The digits are grouped here, not by Intl.NumberFormat: a page's first Intl object costs 15–60 ms
// of ICU set-up on a 2-core machine, inside the first script task (docs/performance.md,
// "2026-11-27 afternoon"), and the house style below already set every separator and the sign
// itself, since ICU versions differ in which space they group with (U+00A0 or U+202F) and in
// the minus. format.test.ts holds the grouping to nb-NO's in Intl.
export interface KronerOptions {
  /** Always show øre, "649,00 kr" (invoices and other documents). */
  withOre?: boolean;
}

/** An amount in øre as the house style writes it: 299000 → "2 990 kr"; with øre 64900 → "649,00 kr". */
export function formatKroner(ore: number, options: KronerOptions = {}): string {
  const whole = Math.round(Math.abs(ore));
  const kroner = groupedInThousands(Math.floor(whole / 100));
  const digits = options.withOre || ore % 100 !== 0 ? `${kroner},${String(whole % 100).padStart(2, '0')}` : kroner;
  return `${ore < 0 && /[1-9]/.test(digits) ? '\u2212' : ''}${digits}\u00a0kr`;
}

/** nb-NO's grouping: threes from the right with a no-break space, 1234567 → "1 234 567". */
function groupedInThousands(whole: number): string {
  const digits = String(whole);
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `\u00a0${digits.slice(at, at + 3)}`;
  return grouped;
}

// Month and weekday names are fixed here, not asked of Intl: Node and each browser carry their
// own ICU, and its nb-NO names have changed between versions (the short months "mar.", "jun.",
// "jul." became "mars", "juni", "juli"), so Intl would write one date two ways.
const months = ['januar', 'februar', 'mars', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'desember'];
const shortMonths = ['jan.', 'feb.', 'mars', 'apr.', 'mai', 'juni', 'juli', 'aug.', 'sep.', 'okt.', 'nov.', 'des.'];
/** Sunday first, as `Date.getUTCDay` counts. */
const weekdays = ['søndag', 'mandag', 'tirsdag', 'onsdag', 'torsdag', 'fredag', 'lørdag'];
const shortWeekdays = ['søn.', 'man.', 'tir.', 'ons.', 'tor.', 'fre.', 'lør.'];

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

interface DateParts {
  year: string;
  /** 01–12 */
  month: string;
  /** 01–31 */
  day: string;
  /** 0–11 */
  monthIndex: number;
  dayNumber: number;
}

function partsOf(date: string): DateParts | null {
  const match = isoDate.exec(date);
  if (!match) return null;
  const [, year = '', month = '', day = ''] = match;
  return { year, month, day, monthIndex: Number(month) - 1, dayNumber: Number(day) };
}

/** "2026-03-05" → "5. mars 2026". */
export function formatLongDate(date: string): string {
  const parts = partsOf(date);
  return parts ? `${parts.dayNumber}. ${months[parts.monthIndex] ?? ''} ${parts.year}` : date;
}

/** "2026-03-05" → "05.03.2026", the short form invoices use. */
export function formatShortDate(date: string): string {
  const parts = partsOf(date);
  return parts ? `${parts.day}.${parts.month}.${parts.year}` : date;
}

/**
 * A date with its weekday, how a delivery day is written: `full` "tirsdag 1. desember 2026",
 * `dayMonth` "tirsdag 1. desember" (where the year is plain), `short` "tir. 1. des." (a list of issues).
 */
export function formatWeekdayDate(date: string, form: 'full' | 'dayMonth' | 'short' = 'full'): string {
  const parts = partsOf(date);
  if (!parts) return date;
  const weekday = new Date(Date.UTC(Number(parts.year), parts.monthIndex, parts.dayNumber)).getUTCDay();
  if (form === 'short') return `${shortWeekdays[weekday] ?? ''} ${parts.dayNumber}. ${shortMonths[parts.monthIndex] ?? ''}`;
  const dayMonth = `${weekdays[weekday] ?? ''} ${parts.dayNumber}. ${months[parts.monthIndex] ?? ''}`;
  return form === 'dayMonth' ? dayMonth : `${dayMonth} ${parts.year}`;
}

/** A period of short dates: "05.03.2026–04.04.2026". */
export function formatPeriod(from: string, to: string): string {
  return `${formatShortDate(from)}–${formatShortDate(to)}`;
}

/** An instant on the Oslo clock: "21.11.2026 kl. 13.40". Not an instant: returned as it is. */
export function formatInstant(instant: Date | string): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(at.getTime())) return String(instant);
  const wall = osloWallClock(at);
  return `${formatShortDate(wall.slice(0, 10))} ${formatClockTime(wall.slice(11, 16))}`;
}

/** An instant on the Oslo clock in prose, as a letter or an e-mail writes it: "7. desember 2026 kl. 00.15". */
export function formatLongInstant(instant: Date): string {
  const wall = osloWallClock(instant);
  return `${formatLongDate(wall.slice(0, 10))} ${formatClockTime(wall.slice(11, 16))}`;
}

/** A time of day "HH:MM" (a cutoff, the Oslo clock) as Språkrådet writes it: "kl. 00.15". Anything else as it is. */
export function formatClockTime(time: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  return match ? `kl. ${match[1]}.${match[2]}` : time;
}

// ---------------------------------------------------------------------------------------
// Invoice lines
// ---------------------------------------------------------------------------------------

export interface InvoiceLine {
  planName: string;
  periodFrom: string;
  periodTo: string;
  /** What explains the amount, shown after the period: "rabatt VELKOMMEN20", "mellomlegg ved bytte fra Digital". */
  note?: string | null;
}

/**
 * What an invoice line says, the one rule for every invoice (renewal, order, student activation,
 * plan-change top-up, seeds): the plan and the period in long dates, which a subscriber reads
 * without working out a date, and a note in parentheses when the amount is not the plain price:
 * "Komplett, 3. desember 2026 – 2. januar 2027 (rabatt VELKOMMEN20)".
 */
export function invoiceLineDescription({ planName, periodFrom, periodTo, note }: InvoiceLine): string {
  return `${planName}, ${formatLongDate(periodFrom)} – ${formatLongDate(periodTo)}${note ? ` (${note})` : ''}`;
}

/**
 * An invoice's description without its period, for a list whose own column shows the period
 * (issue 25.13: the same row must not say the period twice in two styles):
 * "Komplett, 3. desember 2026 – 2. januar 2027 (rabatt VELKOMMEN20)" → "Komplett (rabatt VELKOMMEN20)".
 * A description not written by invoiceLineDescription for that period is returned as it is.
 */
export function invoiceDescriptionWithoutPeriod(description: string, periodFrom: string, periodTo: string): string {
  const period = `, ${formatLongDate(periodFrom)} – ${formatLongDate(periodTo)}`;
  const at = description.indexOf(period);
  if (at <= 0) return description;
  return `${description.slice(0, at)}${description.slice(at + period.length)}`;
}
