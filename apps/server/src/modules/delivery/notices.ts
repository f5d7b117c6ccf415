import { and, asc, eq, gte, inArray, isNull, lte, or } from 'drizzle-orm';
import {
  addDays,
  deliveryNoticeErrorCodes,
  deliveryNoticeMessages,
  deliveryPostalCodeOn,
  formatWeekdayDate,
  hasAccess,
  NOTICE_DAYS_AHEAD,
  NOTICE_DAYS_BACK,
  osloToday,
  type DeliveryNotice,
  type DeliveryPointChange,
  type SegmentMessageBody,
  type SegmentMessageResult,
} from '@minside/domain';
import type { Catalogue, PublicationConfig } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, deliveryAddress, deliveryChange, deliveryNotice, deliveryNoticeRecipient, subscription } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer, OutgoingMail } from '../../integrations/mail/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';
import type { createCalendarCache } from './calendars.ts';
import { townOf } from './postal-codes.ts';

export interface DeliveryNoticeDeps {
  db: Db;
  catalogue: Catalogue;
  mailer: Mailer;
  now: () => Date;
  calendarOf: ReturnType<typeof createCalendarCache>;
  /** Where links in the e-mail point (lib/portal-url.ts). */
  portalOrigin: (titleCode: string) => string;
}

type NoticeRow = typeof deliveryNotice.$inferSelect;

interface Recipient {
  subscriptionId: string;
  postalCode: string;
  userId: string;
  email: string;
  givenName: string;
}

const sameContent = (row: NoticeRow, body: SegmentMessageBody, postalCodes: string[]) =>
  row.titleCode === body.titleCode.toUpperCase() && row.issueDate === body.issueDate && row.message === body.message && row.postalCodes.join(',') === postalCodes.join(',');

function noticeMail(title: PublicationConfig, portalOrigin: string, recipient: Recipient, notice: { segmentId: string; issueDate: string; message: string }): OutgoingMail {
  return {
    to: recipient.email,
    title,
    // Optional (ADR 010): the subscriber can do without it, and it carries a one-click unsubscribe link.
    kind: 'deliveryNotice',
    userId: recipient.userId,
    idempotencyKey: `delivery-notice:${notice.segmentId}:${recipient.subscriptionId}`,
    ...titleMail(title, {
      subject: `${title.name}: om avisen ${formatWeekdayDate(notice.issueDate)}`,
      heading: 'Om avisen din',
      paragraphs: [
        `Hei ${recipient.givenName}!`,
        notice.message,
        `Dette gjelder papiravisen ${formatWeekdayDate(notice.issueDate)} til postnummer ${recipient.postalCode}. Du trenger ikke melde fra om det.`,
      ],
      action: { label: 'Meld fra om levering', url: `${portalOrigin}/tilbakemelding` },
      footnotes: ['Vil du likevel klage på leveringen, ser du meldingen igjen når du velger dagen på Min Side.'],
    }),
  };
}

/**
 * Delivery notices (issue 5 item 6, docs/decisions/007-paper-delivery.md): an operator's
 * message to a segment reaches every paper subscriber whose paper goes to one of the segment's
 * postal codes that day — after redirects, moves and stops — by e-mail once, on the home page
 * that day and beside that day in the complaint form.
 */
export function createDeliveryNotices(deps: DeliveryNoticeDeps) {
  const { db, catalogue, mailer, now, calendarOf, portalOrigin } = deps;

  function checkSegment(body: SegmentMessageBody): { title: PublicationConfig; postalCodes: string[] } {
    const title = catalogue.findByTitleCode(body.titleCode);
    if (!title || title.excluded) throw new AppError(404, 'UNKNOWN_TITLE', `Fant ingen avis med koden ${body.titleCode}.`);
    const today = osloToday(now());
    if (body.issueDate < addDays(today, -NOTICE_DAYS_BACK) || body.issueDate > addDays(today, NOTICE_DAYS_AHEAD)) {
      throw new AppError(422, deliveryNoticeErrorCodes.dateOutOfRange, deliveryNoticeMessages.dateOutOfRange);
    }
    if (!calendarOf(title).isPublicationDay(body.issueDate)) throw new AppError(422, deliveryNoticeErrorCodes.notAnIssueDay, deliveryNoticeMessages.notAnIssueDay);
    const postalCodes = [...new Set(body.postalCodes)].sort();
    const unknown = postalCodes.filter((code) => townOf(code) === undefined);
    if (unknown.length > 0) throw new AppError(422, deliveryNoticeErrorCodes.unknownPostalCodes, deliveryNoticeMessages.unknownPostalCodes(unknown.slice(0, 20)));
    return { title, postalCodes };
  }

  /** Paper subscribers of the title whose paper goes to one of `postalCodes` on `date`. */
  async function recipientsOf(tx: Tx, titleCode: string, date: string, postalCodes: string[]): Promise<Recipient[]> {
    // Candidates: a home address in the segment, or any change in force that day (a redirect or
    // move may bring a paper into the segment or take it out).
    const inForce = and(eq(deliveryChange.status, 'active'), lte(deliveryChange.fromDate, date), or(isNull(deliveryChange.toDate), gte(deliveryChange.toDate, date)));
    const [byHome, byChange] = await Promise.all([
      tx.select({ id: deliveryAddress.subscriptionId }).from(deliveryAddress).where(inArray(deliveryAddress.postalCode, postalCodes)),
      tx.selectDistinct({ id: deliveryChange.subscriptionId }).from(deliveryChange).where(inForce),
    ]);
    const candidateIds = [...new Set([...byHome, ...byChange].map((row) => row.id))];
    if (candidateIds.length === 0) return [];

    const subscribers = await tx
      .select({
        subscriptionId: subscription.id,
        instStatusCode: subscription.instStatusCode,
        userId: appUser.id,
        email: appUser.email,
        givenName: appUser.givenName,
        homePostalCode: deliveryAddress.postalCode,
      })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .innerJoin(appUser, eq(appUser.id, account.userId))
      .leftJoin(deliveryAddress, eq(deliveryAddress.subscriptionId, subscription.id))
      .where(and(inArray(subscription.id, candidateIds), eq(subscription.titleCode, titleCode), eq(subscription.planProductType, 'COMBO')));
    const paying = subscribers.filter((row) => hasAccess(row));
    if (paying.length === 0) return [];

    const changes = await tx
      .select({ subscriptionId: deliveryChange.subscriptionId, type: deliveryChange.type, fromDate: deliveryChange.fromDate, toDate: deliveryChange.toDate, address: deliveryChange.address })
      .from(deliveryChange)
      .where(
        and(
          inArray(
            deliveryChange.subscriptionId,
            paying.map((row) => row.subscriptionId),
          ),
          eq(deliveryChange.status, 'active'),
          lte(deliveryChange.fromDate, date),
        ),
      )
      .orderBy(asc(deliveryChange.placedAt));
    const inSegment = new Set(postalCodes);
    return paying.flatMap((row) => {
      const own: DeliveryPointChange[] = changes
        .filter((change) => change.subscriptionId === row.subscriptionId)
        .map((change) => ({ type: change.type as DeliveryPointChange['type'], fromDate: change.fromDate, toDate: change.toDate, postalCode: change.address?.postalCode ?? null }));
      const postalCode = deliveryPostalCodeOn(date, row.homePostalCode, own);
      return postalCode !== null && inSegment.has(postalCode) ? [{ subscriptionId: row.subscriptionId, postalCode, userId: row.userId, email: row.email, givenName: row.givenName }] : [];
    });
  }

  return {
    /**
     * POST /api/segment/{id}/message. The segment id is the notice's id: sending the same segment
     * again (a retry, a double click) notifies only subscribers not yet notified; the same id
     * with other content is refused.
     */
    async sendToSegment(segmentId: string, body: SegmentMessageBody): Promise<SegmentMessageResult> {
      const { title, postalCodes } = checkSegment(body);
      const result = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(deliveryNotice)
          .values({ segmentId, titleCode: title.titleCode, issueDate: body.issueDate, postalCodes, message: body.message, createdAt: now() })
          .onConflictDoNothing()
          .returning();
        if (!inserted) {
          const [existing] = await tx.select().from(deliveryNotice).where(eq(deliveryNotice.segmentId, segmentId));
          if (!existing || !sameContent(existing, body, postalCodes)) throw new AppError(409, deliveryNoticeErrorCodes.segmentIdInUse, deliveryNoticeMessages.segmentIdInUse);
        }
        const recipients = await recipientsOf(tx, title.titleCode, body.issueDate, postalCodes);
        const fresh =
          recipients.length === 0
            ? []
            : await tx
                .insert(deliveryNoticeRecipient)
                .values(recipients.map((recipient) => ({ segmentId, subscriptionId: recipient.subscriptionId, postalCode: recipient.postalCode })))
                .onConflictDoNothing()
                .returning({ subscriptionId: deliveryNoticeRecipient.subscriptionId });
        const freshIds = new Set(fresh.map((row) => row.subscriptionId));
        for (const recipient of recipients.filter((candidate) => freshIds.has(candidate.subscriptionId))) {
          await mailer.enqueue(tx, noticeMail(title, portalOrigin(title.titleCode), recipient, { segmentId, ...body }));
        }
        return { segmentId, titleCode: title.titleCode, issueDate: body.issueDate, postalCodes, created: inserted !== undefined, recipients: recipients.length, notifiedNow: freshIds.size };
      });
      await mailer.deliverPending();
      return result;
    },

    /** The notices a subscription received about the given days. */
    async noticesFor(subscriptionId: string, days: readonly string[]): Promise<DeliveryNotice[]> {
      if (days.length === 0) return [];
      const rows = await db
        .select({ segmentId: deliveryNotice.segmentId, issueDate: deliveryNotice.issueDate, message: deliveryNotice.message })
        .from(deliveryNoticeRecipient)
        .innerJoin(deliveryNotice, eq(deliveryNotice.segmentId, deliveryNoticeRecipient.segmentId))
        .where(and(eq(deliveryNoticeRecipient.subscriptionId, subscriptionId), inArray(deliveryNotice.issueDate, [...days])))
        .orderBy(asc(deliveryNotice.issueDate), asc(deliveryNotice.createdAt));
      return rows;
    },
  };
}

export type DeliveryNotices = ReturnType<typeof createDeliveryNotices>;
