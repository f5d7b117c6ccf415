// A delivery address's plain rules (its lines, its town name, what counts as the same address)
// without zod, so the home page shows the address without taking the delivery schemas along
// (docs/decisions/020). delivery.ts re-exports them beside the address schemas.
import type { DeliveryAddress } from './delivery.ts';

/** Norwegian register towns are upper case ("MO I RANA"); shown as "Mo i Rana". */
export function formatTownName(registerName: string): string {
  const small = new Set(['i', 'på', 'og']);
  return registerName
    .toLowerCase()
    .split(/(\s+|-)/)
    .map((part, index) => (index > 0 && small.has(part) ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');
}

/** Same delivery point: what counts as "the same address" for repeated complaints and no-op moves. */
export function addressKey(address: Pick<DeliveryAddress, 'street' | 'streetNumber' | 'apartment' | 'postalCode'>): string {
  const norm = (value: string | null) => (value ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  return [norm(address.postalCode), norm(address.street), norm(address.streetNumber), norm(address.apartment)].join('|');
}

/** A delivery address as lines, the pages' and the e-mails' one way: "Kari Nordmann" / "Kongens gate 14B, H0302" / "7011 Trondheim". */
export function deliveryAddressLines(address: DeliveryAddress): string[] {
  const street = [`${address.street} ${address.streetNumber}`.trim(), address.apartment].filter(Boolean).join(', ');
  return [address.name, ...(address.coName ? [`c/o ${address.coName}`] : []), street + (address.floor ? ` (${address.floor}. etasje)` : ''), `${address.postalCode} ${address.town}`];
}
