import { formatTownName } from '@minside/domain';
import register from './data/postal-codes.json' with { type: 'json' };

/** The shipped Norwegian postal-code register (data/README.md: source and date). */
const towns = new Map<string, string>(Object.entries(register as Record<string, string>));

/** Every postal code of the register with its town as the register writes it (the large seed draws addresses from it). */
export function postalCodeEntries(): [string, string][] {
  return [...towns];
}

/** The town of a Norwegian postal code, written for people ("Trondheim"); undefined when unknown. */
export function townOf(postalCode: string): string | undefined {
  const registerName = towns.get(postalCode.trim());
  return registerName === undefined ? undefined : formatTownName(registerName);
}
