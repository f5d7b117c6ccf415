/** KID (customer identification on Norwegian payments) with a MOD10 (Luhn) check digit, as banks validate it. */
export function kidWithCheckDigit(base: string): string {
  if (!/^\d+$/.test(base)) throw new RangeError(`A KID base is digits only: ${base}`);
  let sum = 0;
  [...base].reverse().forEach((char, index) => {
    let digit = Number(char);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  });
  return base + String((10 - (sum % 10)) % 10);
}

/** The KID of an invoice: the account number, the invoice number's last four digits, a check digit. */
export function invoiceKid(ariaAccountNo: number, ariaInvoiceNo: number): string {
  return kidWithCheckDigit(`${ariaAccountNo}${String(ariaInvoiceNo).slice(-4)}`);
}

/** True when `kid` is digits whose last one is the MOD10 (Luhn) check digit of the rest (2–25 digits, as banks accept). */
export function validateKid(kid: string): boolean {
  if (!/^\d{2,25}$/.test(kid)) return false;
  return kidWithCheckDigit(kid.slice(0, -1)) === kid;
}
