import { z } from 'zod';
import { freeText } from '../core/fields.ts';
import { compareIsoDates } from '../core/dates.ts';

/**
 * Delivery notices (issue 5 item 6; SPEC §7 `POST segment/{id}/message`): when something goes
 * wrong on the routes — a storm, a late press — an operator sends one message to a segment: a
 * title, a set of postal codes and a publication day. The paper subscribers delivered in those
 * postal codes that day get it by e-mail once, see it on their home page that day, and find it
 * next to that day when they start a complaint.
 */

/** How far back and ahead a notice may be dated: the complaint window back, two weeks ahead. */
export const NOTICE_DAYS_BACK = 7;
export const NOTICE_DAYS_AHEAD = 14;
const NOTICE_MAX_POSTAL_CODES = 2000;
const NOTICE_MAX_MESSAGE_LENGTH = 1000;

export const deliveryNoticeErrorCodes = {
  segmentIdInUse: 'SEGMENT_ID_IN_USE',
  dateOutOfRange: 'NOTICE_DATE_OUT_OF_RANGE',
  notAnIssueDay: 'NOT_AN_ISSUE_DAY',
  unknownPostalCodes: 'UNKNOWN_POSTAL_CODES',
} as const;

export const deliveryNoticeMessages = {
  segmentIdInUse: 'Segmentet er allerede brukt til en annen melding. Velg en ny segment-id.',
  dateOutOfRange: `Datoen må være mellom ${NOTICE_DAYS_BACK} dager tilbake og ${NOTICE_DAYS_AHEAD} dager fram i tid.`,
  notAnIssueDay: 'Avisen kommer ikke ut denne dagen.',
  unknownPostalCodes: (codes: string[]) => `Ukjente postnumre: ${codes.join(', ')}.`,
  messageRequired: 'Meldingen er påkrevd',
  postalCodesRequired: 'Minst ett postnummer er påkrevd',
} as const;

/** The operator's segment id: becomes the notice's id, so a resend of the same segment is a no-op. */
export const segmentParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'Segment-id: bokstaver, tall, punktum, bindestrek og understrek, høyst 64 tegn'),
});

export const segmentMessageBodySchema = z.object({
  titleCode: z
    .string()
    .trim()
    .min(1)
    .max(16)
    .regex(/^[A-Za-z0-9]+$/),
  issueDate: z.iso.date(),
  postalCodes: z
    .array(
      z
        .string()
        .trim()
        .regex(/^\d{4}$/, 'Postnummeret må ha fire sifre'),
    )
    .min(1, deliveryNoticeMessages.postalCodesRequired)
    .max(NOTICE_MAX_POSTAL_CODES),
  message: freeText({ max: NOTICE_MAX_MESSAGE_LENGTH, multiline: true, required: deliveryNoticeMessages.messageRequired }),
});
export type SegmentMessageBody = z.infer<typeof segmentMessageBodySchema>;

export const segmentMessageResultSchema = z.object({
  segmentId: z.string(),
  titleCode: z.string(),
  issueDate: z.iso.date(),
  postalCodes: z.array(z.string()),
  /** False when this segment had been sent before with the same content: nobody was notified again. */
  created: z.boolean(),
  /** Paper subscribers delivered in the segment that day, all told. */
  recipients: z.number().int().nonnegative(),
  /** Of them, notified by this call (a resend notifies only those not notified before). */
  notifiedNow: z.number().int().nonnegative(),
});
export type SegmentMessageResult = z.infer<typeof segmentMessageResultSchema>;

/** A notice as the subscriber sees it. */
const deliveryNoticeSchema = z.object({
  segmentId: z.string(),
  issueDate: z.iso.date(),
  message: z.string(),
});
export type DeliveryNotice = z.infer<typeof deliveryNoticeSchema>;

/** GET /api/delivery/notices: the notices about today's paper. */
export const deliveryNoticeListSchema = z.object({ notices: z.array(deliveryNoticeSchema) });
export type DeliveryNoticeList = z.infer<typeof deliveryNoticeListSchema>;

/** Postal codes as an operator writes them: "7010, 7011 7012;7013" or one per line. */
export function parsePostalCodeList(input: string): string[] {
  return [
    ...new Set(
      input
        .split(/[\s,;]+/)
        .map((code) => code.trim())
        .filter((code) => code.length > 0),
    ),
  ];
}

/** The delivery changes that decide where a paper goes on one day (active ones only). */
export interface DeliveryPointChange {
  type: 'TRANSFER' | 'PERMANENT' | 'STOP';
  fromDate: string;
  toDate: string | null;
  postalCode: string | null;
}

/**
 * The postal code a subscriber's paper is delivered to on `date`, or null when it is not
 * delivered (a stop): a temporary redirect wins, else the newest move that has begun, else the
 * home address. `changes` must be in the order they were placed.
 */
export function deliveryPostalCodeOn(date: string, homePostalCode: string | null, changes: readonly DeliveryPointChange[]): string | null {
  const covers = (change: DeliveryPointChange) => change.fromDate <= date && (change.toDate === null || change.toDate >= date);
  if (changes.some((change) => change.type === 'STOP' && covers(change))) return null;
  const redirect = changes.filter((change) => change.type === 'TRANSFER' && covers(change)).at(-1);
  if (redirect) return redirect.postalCode;
  const moves = changes.filter((change) => change.type === 'PERMANENT' && change.fromDate <= date);
  const newestMove = moves.sort((a, b) => compareIsoDates(a.fromDate, b.fromDate)).at(-1);
  return newestMove ? newestMove.postalCode : homePostalCode;
}
