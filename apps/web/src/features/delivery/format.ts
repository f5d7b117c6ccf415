import { formatWeekdayDate, type DeliveryAddress } from '@minside/domain';

// The delivery pages' names for the house formats (packages/domain format.ts).
/** "tirsdag 1. desember 2026". */
export const longDate = (date: string) => formatWeekdayDate(date);
/** "tirsdag 1. desember". */
export const dayAndMonth = (date: string) => formatWeekdayDate(date, 'dayMonth');
/** "tir. 1. des.". */
export const shortIssueDate = (date: string) => formatWeekdayDate(date, 'short');

/** "Kongens gate 14B, H0302" / "7011 Trondheim". */
export function addressLines(address: DeliveryAddress): string[] {
  const street = [`${address.street} ${address.streetNumber}`.trim(), address.apartment].filter(Boolean).join(', ');
  return [
    address.name,
    ...(address.coName ? [`c/o ${address.coName}`] : []),
    street + (address.floor ? ` (${address.floor}. etasje)` : ''),
    `${address.postalCode} ${address.town}`,
  ];
}
