// Its own module, without the catalogue data, so the web bundle can check an account number
// (through @minside/domain) without shipping the catalogue.

/**
 * Norwegian bank account numbers: 11 digits, the last a MOD11 check digit (weights 5,4,3,2,7,6,5,4,3,2;
 * a remainder that would need the check digit 10 makes no valid number). Dots and spaces are allowed.
 */
export function isValidBankAccountNumber(input: string): boolean {
  const digits = input.replace(/[\s.]/g, '');
  if (!/^\d{11}$/.test(digits)) return false;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
  const remainder = sum % 11;
  if (remainder === 1) return false;
  return (remainder === 0 ? 0 : 11 - remainder) === Number(digits[10]);
}
