/**
 * KID: the customer identification on a Norwegian payment. The bank validates its check digit
 * when the payer types it and returns it in the OCR file, so a KID must identify exactly one
 * thing of ours, forever, within the title's agreed length and check-digit scheme (issue 21).
 *
 * Layout, left to right: the kind digit (1 an invoice, 2 an AvtaleGiro mandate), the serial
 * (the invoice number or the mandate's number) zero-padded, the check digit. Invoice numbers and
 * mandate numbers are never reused, so neither are KIDs.
 */

/** A title's KID agreement with the bank (structurally the catalogue's `TitleBankSetup`). */
export interface KidScheme {
  /** Digits in the KID, check digit included. */
  kidLength: number;
  kidCheckDigit: 'MOD10' | 'MOD11';
}

export type KidKind = 'invoice' | 'mandate';

const kindDigits: Record<KidKind, string> = { invoice: '1', mandate: '2' };

function digitsOnly(base: string): void {
  if (!/^\d+$/.test(base)) throw new RangeError(`A KID base is digits only: ${base}`);
}

/** MOD10 (Luhn): from the right, every second digit doubled, starting with the last. */
export function mod10CheckDigit(base: string): string {
  digitsOnly(base);
  let sum = 0;
  [...base].reverse().forEach((char, index) => {
    let digit = Number(char);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  });
  return String((10 - (sum % 10)) % 10);
}

/** MOD11: weights 2, 3, 4, 5, 6, 7, 2, 3 … from the right; 11 gives 0 and 10 gives `-`, as banks accept. */
export function mod11CheckDigit(base: string): string {
  digitsOnly(base);
  let sum = 0;
  [...base].reverse().forEach((char, index) => {
    sum += Number(char) * (2 + (index % 6));
  });
  const check = 11 - (sum % 11);
  return check === 11 ? '0' : check === 10 ? '-' : String(check);
}

function checkDigit(base: string, scheme: KidScheme['kidCheckDigit']): string {
  return scheme === 'MOD10' ? mod10CheckDigit(base) : mod11CheckDigit(base);
}

/** The largest serial a KID of this scheme holds (kind digit and check digit take two places). */
export function maxKidSerial(scheme: KidScheme): number {
  return Math.min(Number.MAX_SAFE_INTEGER, 10 ** (scheme.kidLength - 2) - 1);
}

/** The KID of an invoice or a mandate. Throws when the serial no longer fits the title's length. */
export function kidFor(kind: KidKind, serial: number, scheme: KidScheme): string {
  if (!Number.isSafeInteger(serial) || serial < 0) throw new RangeError(`A KID serial is a whole number: ${serial}`);
  if (serial > maxKidSerial(scheme)) throw new RangeError(`Serial ${serial} does not fit a ${scheme.kidLength}-digit KID`);
  const base = kindDigits[kind] + String(serial).padStart(scheme.kidLength - 2, '0');
  return base + checkDigit(base, scheme.kidCheckDigit);
}

/** What a KID of this scheme names, or null when its length, kind digit or check digit is wrong. */
export function readKid(kid: string, scheme: KidScheme): { kind: KidKind; serial: number } | null {
  if (kid.length !== scheme.kidLength || !/^\d+[\d-]$/.test(kid)) return null;
  const base = kid.slice(0, -1);
  if (checkDigit(base, scheme.kidCheckDigit) !== kid.slice(-1)) return null;
  const kind = (Object.keys(kindDigits) as KidKind[]).find((candidate) => kindDigits[candidate] === base[0]);
  if (!kind) return null;
  return { kind, serial: Number(base.slice(1)) };
}

/** True when `kid` is a well-formed KID of this scheme (right length, known kind, valid check digit). */
export function isValidKid(kid: string, scheme: KidScheme): boolean {
  return readKid(kid, scheme) !== null;
}
