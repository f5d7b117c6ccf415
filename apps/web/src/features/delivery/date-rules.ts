import { cutoffPassedMessage, deliveryMessages } from '@minside/domain';

/** What the forms know of the title's calendar (GET /api/delivery/calendar). */
export interface StartDayCalendar {
  nextPossibleDeliveryDay: string;
  publicationDays: ReadonlySet<string>;
}

/**
 * What is wrong with the first day of a change or a move, checked in the browser before it is
 * sent, in the server's order (domain `checkNewPeriod`): none chosen, before the next possible
 * day (the cutoff has passed), a day without a paper. Null when it may be sent.
 */
export function startDayProblem(day: string | null, calendar: StartDayCalendar | undefined, requiredMessage: string): string | null {
  if (!day) return requiredMessage;
  if (calendar && day < calendar.nextPossibleDeliveryDay) return cutoffPassedMessage(calendar.nextPossibleDeliveryDay);
  if (!calendar?.publicationDays.has(day)) return deliveryMessages.notAnIssueDay;
  return null;
}
