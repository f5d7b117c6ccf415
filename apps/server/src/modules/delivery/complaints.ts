import { and, eq, gte, inArray } from 'drizzle-orm';
import {
  addressKey,
  complaintDays,
  complaintRequiresText,
  deliveryErrorCodes,
  deliveryMessages,
  errorCodes,
  instStatusCodes,
  osloToday,
  REPEAT_COMPLAINT_DAYS,
  remediesFor,
  type ComplaintBody,
  type ComplaintCode,
  type ComplaintOptions,
  type ComplaintReceipt,
  type ComplaintRemedy,
  type DeliveryNotice,
} from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { deliveryComplaint, deliveryComplaintDay } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { uniqueViolationOf } from '../../lib/pg-errors.ts';
import { notFound } from '../../plugins/errors.ts';
import type { ComplaintCrediting } from '../billing/index.ts';
import type { ChangeMails } from '../subscription/index.ts';
import { addressOn, type DeliveryContext } from './delivery-record.ts';

export interface DeliveryComplaintDeps {
  db: Db;
  now: () => Date;
  noticesFor: (subscriptionId: string, days: readonly string[]) => Promise<DeliveryNotice[]>;
  complaintCrediting: ComplaintCrediting;
  mails: ChangeMails;
}

export function caseNumberOf(caseNo: number): string {
  return `RK-${caseNo}`;
}

/**
 * Complaints about delivery (SPEC §5 "reklamasjon"): which days may be reported and which remedies
 * are offered for them, and filing one — once per day and code, flagged when the address complained
 * within REPEAT_COMPLAINT_DAYS, credited on the next invoice when that is the remedy (ADR 026).
 */
export function createDeliveryComplaints({ db, now, noticesFor, complaintCrediting, mails }: DeliveryComplaintDeps) {
  /**
   * Whether CREDIT ("godskrevet på neste faktura") can be offered: the title gives a value per paper,
   * a next invoice will come (an active subscription, which the renewal run invoices), and a paid
   * invoice paid for one of the days not credited yet (ADR 026).
   */
  async function creditOffered(ctx: DeliveryContext, days: readonly string[]): Promise<boolean> {
    if (!ctx.title.complaintRemedies.includes('CREDIT') || ctx.subscription.instStatusCode !== instStatusCodes.ACTIVE) return false;
    return complaintCrediting.creditable(ctx.subscription.id, days, ctx.title.pausedIssueCreditOre);
  }

  return {
    async complaintOptions(ctx: DeliveryContext): Promise<ComplaintOptions> {
      const today = osloToday(now());
      const days = complaintDays(ctx.calendar, today);
      const reported =
        days.length === 0
          ? []
          : await db
              .select({ day: deliveryComplaintDay.issueDate, code: deliveryComplaintDay.code })
              .from(deliveryComplaintDay)
              .where(and(eq(deliveryComplaintDay.subscriptionId, ctx.subscription.id), inArray(deliveryComplaintDay.issueDate, days)));
      const notices = await noticesFor(ctx.subscription.id, days);
      const creditable = await creditOffered(ctx, days);
      return {
        today,
        days,
        remedies: ctx.title.complaintRemedies.filter((remedy) => remedy !== 'CREDIT' || creditable),
        reported: reported.map((row) => ({ day: row.day, code: row.code as ComplaintCode })),
        notices: notices.map((notice) => ({ day: notice.issueDate, message: notice.message })),
      };
    },

    async fileComplaint(ctx: DeliveryContext, body: ComplaintBody): Promise<ComplaintReceipt> {
      const at = now();
      const today = osloToday(at);
      const allowedDays = new Set(complaintDays(ctx.calendar, today));
      const days = [...new Set(body.days)].sort();
      if (days.some((day) => !allowedDays.has(day))) {
        throw new AppError(422, deliveryErrorCodes.complaintDayNotAllowed, deliveryMessages.complaintDayNotAllowed);
      }
      if (complaintRequiresText(body.code) && !body.text) throw new AppError(400, errorCodes.validation, deliveryMessages.complaintTextRequired);
      if (!remediesFor(ctx.title.complaintRemedies, days, today).includes(body.remedy as ComplaintRemedy) || (body.remedy === 'CREDIT' && !(await creditOffered(ctx, days)))) {
        throw new AppError(422, deliveryErrorCodes.remedyNotOffered, deliveryMessages.remedyNotOffered);
      }
      const address = await addressOn(db, ctx, today);
      if (!address) throw notFound();
      const key = addressKey(address);
      try {
        return await db.transaction(async (tx) => {
          const already = await tx
            .select({ day: deliveryComplaintDay.issueDate })
            .from(deliveryComplaintDay)
            .where(and(eq(deliveryComplaintDay.subscriptionId, ctx.subscription.id), eq(deliveryComplaintDay.code, body.code), inArray(deliveryComplaintDay.issueDate, days)));
          if (already.length > 0) throw new AppError(409, deliveryErrorCodes.complaintDuplicate, deliveryMessages.complaintDuplicate);
          const since = new Date(at.getTime() - REPEAT_COMPLAINT_DAYS * 24 * 60 * 60 * 1000);
          const [earlier] = await tx
            .select({ caseNo: deliveryComplaint.caseNo })
            .from(deliveryComplaint)
            .where(and(eq(deliveryComplaint.addressKey, key), gte(deliveryComplaint.createdAt, since)))
            .limit(1);
          const [complaint] = await tx
            .insert(deliveryComplaint)
            .values({
              subscriptionId: ctx.subscription.id,
              code: body.code,
              text: body.text,
              remedy: body.remedy,
              addressKey: key,
              postalCode: address.postalCode,
              flagged: earlier !== undefined,
              createdAt: at,
            })
            .returning();
          if (!complaint) throw new Error('complaint missing after insert');
          await tx.insert(deliveryComplaintDay).values(days.map((day) => ({ caseNo: complaint.caseNo, subscriptionId: ctx.subscription.id, issueDate: day, code: body.code })));
          const caseNumber = caseNumberOf(complaint.caseNo);
          let credit: ComplaintReceipt['credit'] = null;
          if (body.remedy === 'CREDIT') {
            credit = await complaintCrediting.credit(tx, { subscriptionId: ctx.subscription.id, caseNumber, caseNo: complaint.caseNo, days, perIssueOre: ctx.title.pausedIssueCreditOre, at });
            // No invoice paid for these days (or nothing is left of it to credit): the complaint is not filed.
            if (credit.amountOre <= 0) throw new AppError(422, deliveryErrorCodes.remedyNotOffered, deliveryMessages.remedyNotOffered);
          }
          await mails.complaintReceived(tx, { subscriptionId: ctx.subscription.id, at, complaint: { caseNumber, code: body.code, days, text: body.text ?? null, remedy: body.remedy, credit } });
          return { caseNumber, code: body.code, days, remedy: body.remedy, createdAt: at.toISOString(), credit };
        });
      } catch (error) {
        // Two identical complaints at the same moment: the unique index decides, the loser hears why.
        if (uniqueViolationOf(error) !== null) throw new AppError(409, deliveryErrorCodes.complaintDuplicate, deliveryMessages.complaintDuplicate);
        throw error;
      }
    },
  };
}
