import { createPublicationCalendar, type PublicationCalendar } from '@minside/domain';
import { norwegianPublicHolidays } from '@minside/domain/holidays';
import type { PublicationConfig } from '@minside/titles';

/** One publication calendar per title, built once: its holiday years are cached inside it. */
export function createCalendarCache(): (title: PublicationConfig) => PublicationCalendar {
  const calendars = new Map<string, PublicationCalendar>();
  return (title) => {
    let calendar = calendars.get(title.titleCode);
    if (!calendar) {
      calendar = createPublicationCalendar({ weekdays: title.publicationWeekdays, holidaysOf: norwegianPublicHolidays });
      calendars.set(title.titleCode, calendar);
    }
    return calendar;
  };
}
