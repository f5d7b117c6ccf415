// Its own module, without the catalogue data, so the web bundle can check an organisation number
// (through @minside/domain) without shipping the catalogue.

/** Norwegian organisation numbers carry a MOD11 check digit; a typo almost always breaks it. */
export function isValidOrganizationNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const digits = [...value].map(Number);
  const sum = weights.reduce((acc, weight, i) => acc + weight * (digits[i] ?? 0), 0);
  const check = (11 - (sum % 11)) % 11;
  return check !== 10 && check === digits[8];
}
