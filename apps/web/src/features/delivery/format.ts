import { deliveryAddressLines, formatClockTime, formatWeekdayDate } from '@minside/domain';

// The delivery pages' names for the house formats (packages/domain format.ts).
/** "tirsdag 1. desember 2026". */
export const longDate = (date: string) => formatWeekdayDate(date);
/** "tirsdag 1. desember". */
export const dayAndMonth = (date: string) => formatWeekdayDate(date, 'dayMonth');
/** "tir. 1. des.". */
export const shortIssueDate = (date: string) => formatWeekdayDate(date, 'short');

/** The cutoff "12:00" as the pages say it: "Endringer må være registrert før kl. 12.00 dagen før." */
export const cutoffSentence = (cutoffTime: string) => `Endringer må være registrert før ${formatClockTime(cutoffTime)} dagen før.`;

/** "Kongens gate 14B, H0302" / "7011 Trondheim": the domain's lines, the same in the confirmation e-mail. */
export const addressLines = deliveryAddressLines;
