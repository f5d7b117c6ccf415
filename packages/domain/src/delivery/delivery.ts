import { z } from 'zod';
import { addDays, osloWallClock } from '../core/dates.ts';
import { freeText, optionalFreeText } from '../core/fields.ts';
import { cutoffPassedMessage, deliveryChangeTypes, deliveryErrorCodes, deliveryMessages, shortenNotBeforeMessage, type DeliveryChangeState, type DeliveryChangeType } from './delivery-rules.ts';
import { createPublicationCalendar, cutoffFor, DEFAULT_CUTOFF_TIME, isoWeekday, nextPossibleDeliveryDay, type PublicationCalendar } from './publication-calendar.ts';

/**
 * Paper delivery (issue 5; SPEC §3 Delivery address and Vacation or delivery change, §5 the
 * delivery-address messages and the cutoff rule, §6 paper-only complaints). The rules live
 * here once; the server re-checks every one of them.
 */

// ---------------------------------------------------------------------------------------
// Delivery address (SPEC §3, §5)
// ---------------------------------------------------------------------------------------

const line = (max: number, required: string) => freeText({ max, required });
const optionalLine = (max: number) => optionalFreeText({ max });

/** What the subscriber types. The town is not typed: the server looks it up from the postal code. */
export const deliveryAddressInputSchema = z.object({
  /** The recipient's name on the mailbox (SPEC §5 "Navn er påkrevd på leveringsadresse"). */
  name: line(100, deliveryMessages.nameRequired),
  coName: optionalLine(100),
  street: line(100, deliveryMessages.streetRequired),
  streetNumber: line(10, deliveryMessages.streetNumberRequired),
  apartment: optionalLine(10),
  floor: optionalLine(10),
  postalCode: z
    .string()
    .trim()
    .max(4)
    .min(1, deliveryMessages.postalCodeRequired)
    .regex(/^\d{4}$/, deliveryMessages.postalCodeFormat),
});
export type DeliveryAddressInput = z.infer<typeof deliveryAddressInputSchema>;

export const deliveryAddressSchema = z.object({
  name: z.string(),
  coName: z.string().nullable(),
  street: z.string(),
  streetNumber: z.string(),
  apartment: z.string().nullable(),
  floor: z.string().nullable(),
  postalCode: z.string(),
  town: z.string(),
});
export type DeliveryAddress = z.infer<typeof deliveryAddressSchema>;

export const postalCodeParamsSchema = z.object({ postalCode: z.string().regex(/^\d{4}$/) });
export const postalCodeLookupSchema = z.object({ postalCode: z.string(), town: z.string() });

// ---------------------------------------------------------------------------------------
// Vacation and delivery changes (SPEC §3)
// ---------------------------------------------------------------------------------------

const isoDate = z.iso.date();

/** At most this far ahead may a change start, and at most this long may a temporary change last. */
export const MAX_DAYS_AHEAD = 365;
const MAX_CHANGE_DAYS = 366;

export const deliveryChangeBodySchema = z.object({
  type: z.enum(deliveryChangeTypes),
  fromDate: isoDate,
  /** Last day of the change (the last issue stopped or redirected). Null: until further notice. */
  toDate: isoDate.nullable(),
  /** TRANSFER and PERMANENT: where the paper goes. */
  address: deliveryAddressInputSchema.nullable(),
});
export type DeliveryChangeBody = z.infer<typeof deliveryChangeBodySchema>;

export const deliveryChangeParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const deliveryChangeSchema = z.object({
  id: z.string(),
  type: z.enum(deliveryChangeTypes),
  fromDate: isoDate,
  toDate: isoDate.nullable(),
  address: deliveryAddressSchema.nullable(),
  state: z.enum(['upcoming', 'started', 'locked']),
  /** The first issue it affects. */
  firstIssue: isoDate,
  /** Number of issues affected; null when open-ended. */
  issueCount: z.number().int().nullable(),
  /** The earliest day a started change may now end (the day before delivery can resume). */
  earliestEnd: isoDate.nullable(),
  /** The first issue after a stop or redirect with an end: when the paper comes (home) again. Null for a move or an open end. */
  resumesOn: isoDate.nullable(),
  placedAt: z.string(),
});
export type DeliveryChange = z.infer<typeof deliveryChangeSchema>;

export const deliveryChangeListSchema = z.object({ changes: z.array(deliveryChangeSchema) });

/** DELETE /api/delivery/changes/{id}: null when deleted, else the started change as ended. */
export const deliveryChangeCancelResponseSchema = z.object({ change: deliveryChangeSchema.nullable() });

/** What a title does with the price when the paper pauses: configuration in the catalogue. */
const pausedIssuePolicySchema = z.object({
  /** Øre credited per stopped issue; 0 means not credited. */
  creditPerIssueOre: z.number().int().min(0),
});

/** GET /api/delivery/calendar: what the date pickers need. */
export const deliveryCalendarSchema = z.object({
  titleCode: z.string(),
  today: isoDate,
  cutoffTime: z.string(),
  nextPossibleDeliveryDay: isoDate,
  /** Publication days from today through the last day a change may reach. */
  publicationDays: z.array(isoDate),
  lastSelectableDay: isoDate,
  publicationWeekdays: z.array(z.number().int()),
  pausedIssues: pausedIssuePolicySchema,
});
export type DeliveryCalendar = z.infer<typeof deliveryCalendarSchema>;

/** GET /api/delivery/address: the address in use and the ones already decided. */
export const deliveryAddressOverviewSchema = z.object({
  current: deliveryAddressSchema,
  upcoming: z.array(z.object({ changeId: z.string(), fromDate: isoDate, address: deliveryAddressSchema })),
});
export type DeliveryAddressOverview = z.infer<typeof deliveryAddressOverviewSchema>;

export const deliveryAddressChangeBodySchema = z.object({
  fromDate: isoDate,
  address: deliveryAddressInputSchema,
});

export interface DateRange {
  fromDate: string;
  /** Null: open-ended. */
  toDate: string | null;
}

/** Two periods share at least one day. Open ends run for ever. */
export function periodsOverlap(a: DateRange, b: DateRange): boolean {
  const aEndsBeforeB = a.toDate !== null && a.toDate < b.fromDate;
  const bEndsBeforeA = b.toDate !== null && b.toDate < a.fromDate;
  return !aEndsBeforeB && !bEndsBeforeA;
}

/**
 * Which existing changes a new one collides with. Temporary changes (STOP, TRANSFER) may not
 * share a day with each other; a move (PERMANENT) is a point in time and only collides with
 * another move on the same day.
 */
export function overlappingChanges<T extends DateRange & { type: DeliveryChangeType; id?: string }>(candidate: DateRange & { type: DeliveryChangeType; id?: string }, existing: readonly T[]): T[] {
  return existing.filter((other) => {
    if (candidate.id !== undefined && other.id === candidate.id) return false;
    const candidatePermanent = candidate.type === 'PERMANENT';
    const otherPermanent = other.type === 'PERMANENT';
    if (candidatePermanent !== otherPermanent) return false;
    if (candidatePermanent) return candidate.fromDate === other.fromDate;
    return periodsOverlap(candidate, other);
  });
}

/** The issues a period affects. Open-ended periods list the issues up to `horizon`. */
export function affectedIssues(calendar: PublicationCalendar, period: DateRange, horizon: string): string[] {
  return calendar.publicationDaysBetween(period.fromDate, period.toDate ?? horizon);
}

/**
 * Where a change stands, seen at `now`: `upcoming` while its first issue is still before the
 * cutoff (it may be moved or deleted), `started` once it has begun but still covers issues
 * that can be changed (it may only be shortened), `locked` when nothing of it can change any more.
 */
export function deliveryChangeState(calendar: PublicationCalendar, change: DateRange & { type: DeliveryChangeType }, now: Date, cutoffTime: string = DEFAULT_CUTOFF_TIME): DeliveryChangeState {
  const nextPossible = nextPossibleDeliveryDay(calendar, now, cutoffTime);
  if (calendar.nextPublicationDay(change.fromDate) >= nextPossible) return 'upcoming';
  if (change.type === 'PERMANENT') return 'locked';
  return change.toDate === null || change.toDate >= nextPossible ? 'started' : 'locked';
}

/**
 * The earliest end a started change may be given: the last day before the next possible
 * delivery day, so delivery resumes on the first issue that can still be changed.
 */
export function earliestEnd(calendar: PublicationCalendar, now: Date, cutoffTime: string = DEFAULT_CUTOFF_TIME): string {
  return addDays(nextPossibleDeliveryDay(calendar, now, cutoffTime), -1);
}

export type DeliveryRuleViolation =
  | { code: typeof deliveryErrorCodes.cutoffPassed; message: string; nextPossibleDeliveryDay: string }
  | { code: typeof deliveryErrorCodes.notAnIssueDay | typeof deliveryErrorCodes.invalidPeriod | typeof deliveryErrorCodes.overlap | typeof deliveryErrorCodes.started; message: string };

export interface PeriodCheckInput {
  calendar: PublicationCalendar;
  now: Date;
  cutoffTime?: string;
  type: DeliveryChangeType;
  fromDate: string;
  toDate: string | null;
}

/**
 * The date rules of a new (or rescheduled, not yet started) change, in the order a person
 * would fix them: an issue day, the cutoff, a sensible end, not too far ahead.
 */
export function checkNewPeriod({ calendar, now, cutoffTime = DEFAULT_CUTOFF_TIME, type, fromDate, toDate }: PeriodCheckInput): DeliveryRuleViolation | null {
  const nextPossible = nextPossibleDeliveryDay(calendar, now, cutoffTime);
  if (fromDate < nextPossible) {
    return { code: deliveryErrorCodes.cutoffPassed, message: cutoffPassedMessage(nextPossible), nextPossibleDeliveryDay: nextPossible };
  }
  if (!calendar.isPublicationDay(fromDate)) return { code: deliveryErrorCodes.notAnIssueDay, message: deliveryMessages.notAnIssueDay };
  if (fromDate > addDays(nextPossible, MAX_DAYS_AHEAD)) return { code: deliveryErrorCodes.invalidPeriod, message: deliveryMessages.tooFarAhead };
  return checkEnd({ type, fromDate, toDate });
}

function checkEnd({ type, fromDate, toDate }: Pick<PeriodCheckInput, 'type' | 'fromDate' | 'toDate'>): DeliveryRuleViolation | null {
  if (type === 'PERMANENT') {
    return toDate === null ? null : { code: deliveryErrorCodes.invalidPeriod, message: deliveryMessages.toBeforeFrom };
  }
  if (toDate === null) return null;
  if (toDate < fromDate) return { code: deliveryErrorCodes.invalidPeriod, message: deliveryMessages.toBeforeFrom };
  // Any day may end a change (issue 25.14): home on a Sunday is home on a Sunday. The paper
  // comes back on the first issue after it (`deliveryResumesOn`), which the subscriber is told.
  if (toDate > addDays(fromDate, MAX_CHANGE_DAYS - 1)) return { code: deliveryErrorCodes.invalidPeriod, message: deliveryMessages.tooLong };
  return null;
}

/**
 * A started change may only be shortened: same start, an end no later than before (an open end
 * may be closed), and not so early that an issue past the cutoff would change.
 */
export function checkShortening(input: {
  calendar: PublicationCalendar;
  now: Date;
  cutoffTime?: string;
  current: DateRange & { type: DeliveryChangeType };
  requested: DateRange;
}): DeliveryRuleViolation | null {
  const { calendar, now, current, requested } = input;
  const cutoffTime = input.cutoffTime ?? DEFAULT_CUTOFF_TIME;
  if (current.type === 'PERMANENT' || requested.fromDate !== current.fromDate || requested.toDate === null) {
    return { code: deliveryErrorCodes.started, message: deliveryMessages.started };
  }
  if (current.toDate !== null && requested.toDate > current.toDate) {
    return { code: deliveryErrorCodes.started, message: deliveryMessages.started };
  }
  const earliest = earliestEnd(calendar, now, cutoffTime);
  if (requested.toDate < earliest) {
    return { code: deliveryErrorCodes.cutoffPassed, message: shortenNotBeforeMessage(earliest), nextPossibleDeliveryDay: addDays(earliest, 1) };
  }
  return null;
}

/**
 * The day the paper comes again after a stop or a redirect whose last day is `lastDay`: the
 * title's first issue after it, by its print days and holidays (issue 25.14). A stop that ends
 * on a Sunday of a title that prints Monday to Saturday resumes on the Monday.
 */
export function deliveryResumesOn(calendar: Pick<PublicationCalendar, 'nextPublicationDay'>, lastDay: string): string {
  return calendar.nextPublicationDay(addDays(lastDay, 1));
}

/**
 * The publication calendar the browser can build from GET /api/delivery/calendar: the listed
 * days (holidays already left out) and, past the list, the title's print weekdays.
 */
export function calendarOfDays(calendar: Pick<DeliveryCalendar, 'publicationDays' | 'publicationWeekdays'>): PublicationCalendar {
  const listed = new Set(calendar.publicationDays);
  const lastListed = calendar.publicationDays.at(-1) ?? '';
  const weekdays = new Set(calendar.publicationWeekdays);
  return createPublicationCalendar({
    weekdays: calendar.publicationWeekdays,
    // Inside the list a weekday that is missing is a holiday; past it, none are known.
    holidaysOf: (year) => {
      const holidays = new Set<string>();
      for (let day = `${year}-01-01`; day <= `${year}-12-31` && day <= lastListed; day = addDays(day, 1)) {
        if (day >= (calendar.publicationDays[0] ?? '') && weekdays.has(isoWeekday(day)) && !listed.has(day)) holidays.add(day);
      }
      return holidays;
    },
  });
}

// ---------------------------------------------------------------------------------------
// Delivery complaints (SPEC §6, §7 complaintcodes)
// ---------------------------------------------------------------------------------------

const complaintCodes = ['MISSING', 'WET', 'DAMAGED', 'LATE', 'MISSING_SECTION', 'DELIVERED_DURING_STOP', 'OTHER'] as const;
export type ComplaintCode = (typeof complaintCodes)[number];

const complaintCodeSchema = z.object({
  code: z.enum(complaintCodes),
  label: z.string(),
  /** "other" and "damaged" need a short text. */
  requiresText: z.boolean(),
});
export const complaintCodesResponseSchema = z.array(complaintCodeSchema);
export type ComplaintCodeEntry = z.infer<typeof complaintCodeSchema>;

export const complaintCodeList: ComplaintCodeEntry[] = [
  { code: 'MISSING', label: 'Avisen kom ikke', requiresText: false },
  { code: 'WET', label: 'Avisen var våt', requiresText: false },
  { code: 'DAMAGED', label: 'Avisen var skadet', requiresText: true },
  { code: 'LATE', label: 'Avisen kom for sent', requiresText: false },
  { code: 'MISSING_SECTION', label: 'Det manglet et bilag eller en del av avisen', requiresText: false },
  { code: 'DELIVERED_DURING_STOP', label: 'Avisen ble levert mens den skulle være stoppet', requiresText: false },
  { code: 'OTHER', label: 'Annet', requiresText: true },
];

export function complaintRequiresText(code: ComplaintCode): boolean {
  return complaintCodeList.find((entry) => entry.code === code)?.requiresText ?? false;
}

/** How far back a complaint may reach: publication days within the last 7 days, today included. */
const COMPLAINT_WINDOW_DAYS = 7;
/** Complaints for the same address within this many days are flagged for the customer centre. */
export const REPEAT_COMPLAINT_DAYS = 30;

const complaintRemedies = ['REDELIVERY', 'EXTENSION', 'CREDIT'] as const;
export type ComplaintRemedy = (typeof complaintRemedies)[number];

export const complaintRemedyLabels: Record<ComplaintRemedy, string> = {
  REDELIVERY: 'Få avisen levert på nytt i dag',
  EXTENSION: 'Få abonnementet forlenget med én dag per avis',
  CREDIT: 'Få avisen godskrevet på neste faktura',
};

/** The days a complaint may name, newest first. */
export function complaintDays(calendar: PublicationCalendar, today: string): string[] {
  return calendar.publicationDaysBetween(addDays(today, -(COMPLAINT_WINDOW_DAYS - 1)), today).reverse();
}

/** Redelivery is possible only for today's paper, and only where the title offers it. */
export function remediesFor(offered: readonly ComplaintRemedy[], days: readonly string[], today: string): ComplaintRemedy[] {
  return offered.filter((remedy) => remedy !== 'REDELIVERY' || (days.length > 0 && days.every((day) => day === today)));
}

/** A complaint's own words, at most this many characters. */
const COMPLAINT_TEXT_MAX_LENGTH = 500;

export const complaintBodySchema = z
  .object({
    code: z.enum(complaintCodes),
    days: z.array(isoDate).min(1, deliveryMessages.complaintDaysRequired).max(COMPLAINT_WINDOW_DAYS),
    text: optionalFreeText({ max: COMPLAINT_TEXT_MAX_LENGTH, multiline: true }),
    remedy: z.enum(complaintRemedies),
  })
  .superRefine((body, context) => {
    if (complaintRequiresText(body.code) && !body.text) {
      context.addIssue({ code: 'custom', path: ['text'], message: deliveryMessages.complaintTextRequired });
    }
  });
export type ComplaintBody = z.infer<typeof complaintBodySchema>;

export const complaintReceiptSchema = z.object({
  caseNumber: z.string(),
  code: z.enum(complaintCodes),
  days: z.array(isoDate),
  remedy: z.enum(complaintRemedies),
  createdAt: z.string(),
  /** Remedy CREDIT: what was credited, by which credit notes, to be taken off the next invoice. */
  credit: z.object({ amountOre: z.number().int().positive(), creditNoteNumbers: z.array(z.number().int().positive()) }).nullable(),
});
export type ComplaintReceipt = z.infer<typeof complaintReceiptSchema>;

/** GET /api/delivery/complaints/options: what the complaint form may offer this subscriber today. */
export const complaintOptionsSchema = z.object({
  today: isoDate,
  days: z.array(isoDate),
  remedies: z.array(z.enum(complaintRemedies)),
  /** Days and codes already reported, so the form can say so before sending. */
  reported: z.array(z.object({ day: isoDate, code: z.enum(complaintCodes) })),
  /** Delivery notices about days in the window: what went wrong is explained before the form is sent. */
  notices: z.array(z.object({ day: isoDate, message: z.string() })),
});
export type ComplaintOptions = z.infer<typeof complaintOptionsSchema>;

// ---------------------------------------------------------------------------------------
// Carrier feed (issue 5): what the carrier must do differently on one publication day.
// ---------------------------------------------------------------------------------------

/** The feed's columns, in order (documented in docs/delivery-feed.md). */
export const carrierFeedColumns = [
  'date',
  'title_code',
  'kind',
  'subscription_id',
  'account_no',
  'name',
  'co_name',
  'street',
  'street_number',
  'apartment',
  'floor',
  'postal_code',
  'town',
  'from_date',
  'to_date',
  'case_number',
  'complaint_code',
  'remedy',
] as const;
type CarrierFeedColumn = (typeof carrierFeedColumns)[number];
/** STOP: no paper at the address. REDIRECT: deliver at this other address. ADDRESS_CHANGE: a move takes effect. COMPLAINT: reported since the last feed. */
export type CarrierFeedKind = 'STOP' | 'REDIRECT' | 'ADDRESS_CHANGE' | 'COMPLAINT';
export type CarrierFeedRow = Record<CarrierFeedColumn, string>;

export const carrierFeedQuerySchema = z.object({
  title: z
    .string()
    .min(1)
    .max(16)
    .regex(/^[A-Za-z0-9]+$/),
  date: isoDate,
});

/**
 * A change is in the feed of `issueDate` only if it was placed before that issue's cutoff: a
 * feed that was already due never changes afterwards.
 */
export function isInFeed(placedAt: Date, issueDate: string, cutoffTime: string = DEFAULT_CUTOFF_TIME): boolean {
  return osloWallClock(placedAt) < cutoffFor(issueDate, cutoffTime);
}

/** RFC 4180 CSV with a header line; fields with commas, quotes or line breaks are quoted. Formula-like text is defused. */
export function toCsv(rows: readonly CarrierFeedRow[]): string {
  return csvText([carrierFeedColumns, ...rows.map((row) => carrierFeedColumns.map((column) => row[column]))]);
}

/**
 * CSV as spreadsheets read it (RFC 4180, CRLF): quoted where needed, and a field that a
 * spreadsheet would run as a formula (= + - @, but not a negative number) gets a leading apostrophe.
 */
export function csvText(rows: readonly (readonly string[])[]): string {
  const field = (value: string) => {
    // A plain number (a negative amount) is a number, not a formula.
    const safe = /^[=+\-@\t\r]/.test(value) && !/^-\d+(?:[.,]\d+)?$/.test(value) ? `'${value}` : value;
    return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

export * from './delivery-rules.ts';
export * from './delivery-address-rules.ts';
