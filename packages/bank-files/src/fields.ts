/**
 * Field-level rules shared by the reader and the writers: which characters a record may hold,
 * the DDMMYY dates, digit fields, and right-aligned/left-aligned padding.
 */

export const RECORD_LENGTH = 80;
export const MAX_TRANSACTION_NUMBER = 9_999_999;

/**
 * Printable ISO-8859-1: U+0020–U+007E and U+00A0–U+00FF. The C0 and C1 control characters are
 * refused inside records (the 8-bit range 0x80–0x9F is where Windows-1252 puts €, and is what a
 * file written in the wrong code page shows).
 */
export function isPrintableLatin1(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff);
}

/** Index of the first character that is not printable ISO-8859-1, or -1. */
export function firstNonLatin1(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (!isPrintableLatin1(text.charCodeAt(i))) return i;
  }
  return -1;
}

export function isDigits(value: string, length?: number): boolean {
  if (length !== undefined && value.length !== length) return false;
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

export function isAll(value: string, char: string): boolean {
  for (let i = 0; i < value.length; i++) if (value[i] !== char) return false;
  return true;
}

/**
 * A KID as the API carries it: 1–25 characters, digits, except that the last may be `-`: a MOD11
 * check digit of 10 is written `-`, and banks accept and return such KIDs.
 */
export function isKid(value: string): boolean {
  return value.length >= 1 && value.length <= 25 && /^\d*[\d-]$/.test(value) && (value.length > 1 || value !== '-');
}

/** Free text for a field of `max` characters: printable ISO-8859-1. */
export function isFieldText(value: string, max: number): boolean {
  return value.length <= max && firstNonLatin1(value) === -1;
}

export function isSafeAmount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

export function isIntIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

// ── dates ────────────────────────────────────────────────────────────────────────────────────

/**
 * Two-digit years: 69–99 are 1969–1999, 00–68 are 2000–2068 (the POSIX `%y` rule, the one the
 * Python `netsgiro` library uses through `strptime`). The writers refuse dates outside 1969–2068,
 * which could not be read back.
 */
const PIVOT = 69;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function validYmd(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** `DDMMYY` → `YYYY-MM-DD`, or null if not a calendar date. */
export function netsDateToIso(ddmmyy: string): string | null {
  if (!isDigits(ddmmyy, 6)) return null;
  const day = Number(ddmmyy.slice(0, 2));
  const month = Number(ddmmyy.slice(2, 4));
  const yy = Number(ddmmyy.slice(4, 6));
  const year = yy >= PIVOT ? 1900 + yy : 2000 + yy;
  if (!validYmd(year, month, day)) return null;
  return `${year}-${ddmmyy.slice(2, 4)}-${ddmmyy.slice(0, 2)}`;
}

/** Is `YYYY-MM-DD` a calendar date the two-digit year of the files can carry (1969–2068)? */
export function isWritableIsoDate(iso: string): boolean {
  if (iso.length !== 10 || iso[4] !== '-' || iso[7] !== '-') return false;
  const y = iso.slice(0, 4);
  const m = iso.slice(5, 7);
  const d = iso.slice(8, 10);
  if (!isDigits(y) || !isDigits(m) || !isDigits(d)) return false;
  const year = Number(y);
  if (year < 1900 + PIVOT || year > 2000 + PIVOT - 1) return false;
  return validYmd(year, Number(m), Number(d));
}

/** `YYYY-MM-DD` → `DDMMYY` (assumes `isWritableIsoDate`). */
export function isoToNetsDate(iso: string): string {
  return `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(2, 4)}`;
}

// ── padding ──────────────────────────────────────────────────────────────────────────────────

export function zeroPad(value: number | string, length: number): string {
  return String(value).padStart(length, '0');
}

export function zeros(length: number): string {
  return '0'.repeat(length);
}

export function spaces(length: number): string {
  return ' '.repeat(length);
}

/** Alphanumeric field: left-aligned, blank-filled. */
export function leftText(value: string, length: number): string {
  return value.padEnd(length, ' ');
}

/** KID field: right-aligned, blank-filled. */
export function rightKid(value: string | null, length = 25): string {
  return (value ?? '').padStart(length, ' ');
}

export function trimEnd(value: string): string {
  return value.replace(/ +$/, '');
}
