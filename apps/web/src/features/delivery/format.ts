import { formatDeliveryDate, type DeliveryAddress } from '@minside/domain';

const shortDate = new Intl.DateTimeFormat('nb-NO', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayMonth = new Intl.DateTimeFormat('nb-NO', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });

const utc = (date: string) => new Date(`${date}T00:00:00Z`);

/** "tirsdag 1. desember 2026". */
export const longDate = formatDeliveryDate;
/** "tirsdag 1. desember". */
export const dayAndMonth = (date: string) => dayMonth.format(utc(date));
/** "tir. 1. des.". */
export const shortIssueDate = (date: string) => shortDate.format(utc(date));

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

/** Whole kroner, nb-NO: "150 kr". */
export const kroner = (ore: number) => `${new Intl.NumberFormat('nb-NO', { maximumFractionDigits: 0 }).format(Math.round(ore / 100))} kr`;
