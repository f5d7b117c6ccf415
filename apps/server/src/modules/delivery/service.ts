import { randomUUID } from 'node:crypto';
import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import {
  addDays,
  addressKey,
  instStatusCodes,
  affectedIssues,
  checkNewPeriod,
  checkShortening,
  deliveryResumesOn,
  complaintDays,
  complaintRequiresText,
  deliveryChangeState,
  deliveryErrorCodes,
  deliveryMessages,
  earliestEnd,
  errorCodes,
  hasAccess,
  isPaperSubscription,
  MAX_DAYS_AHEAD,
  nextPossibleDeliveryDay,
  osloToday,
  overlappingChanges,
  REPEAT_COMPLAINT_DAYS,
  remediesFor,
  type ComplaintBody,
  type ComplaintCode,
  type ComplaintOptions,
  type ComplaintReceipt,
  type ComplaintRemedy,
  type DeliveryAddress,
  type DeliveryAddressInput,
  type DeliveryAddressOverview,
  type DeliveryCalendar,
  type DeliveryChange,
  type DeliveryChangeBody,
  type DeliveryChangeType,
  type DeliveryNotice,
  type DeliveryRuleViolation,
  type PublicationCalendar,
  type Subscription,
} from '@minside/domain';
import type { Catalogue, PublicationConfig } from '@minside/titles';
import type { ComplaintCrediting } from '../billing/index.ts';
import type { Db, Tx } from '../../db/client.ts';
import { deliveryAddress, deliveryChange, deliveryComplaint, deliveryComplaintDay, subscription as subscriptionTable, type StoredDeliveryAddress } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SignedInSubscriber } from '../auth/index.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { ChangeMails, DeliveryChangeEvent } from '../subscription/index.ts';
import type { createCalendarCache } from './calendars.ts';
import { townOf } from './postal-codes.ts';
import { uniqueViolationOf } from '../../lib/pg-errors.ts';

type ChangeRow = typeof deliveryChange.$inferSelect;

/** The paper subscription a delivery call is about, with its title and publication calendar. */
export interface DeliveryContext {
  user: SessionUser;
  subscription: Subscription;
  title: PublicationConfig;
  calendar: PublicationCalendar;
}

export interface DeliveryServiceDeps {
  db: Db;
  catalogue: Catalogue;
  now: () => Date;
  /** SPEC §5: the cutoff time (HH:MM, Europe/Oslo) the day before the first affected issue. */
  cutoffTime: string;
  calendarOf: ReturnType<typeof createCalendarCache>;
  /** The delivery notices a subscription received about these days (modules/delivery/notices.ts). */
  noticesFor: (subscriptionId: string, days: readonly string[]) => Promise<DeliveryNotice[]>;
  /** A complaint credited on the next invoice (remedy CREDIT): a credit note, set off by billing (ADR 026). */
  complaintCrediting: ComplaintCrediting;
  /** The confirmation e-mail of each change and complaint, queued in its transaction (issue 25.7). */
  mails: ChangeMails;
}

function ruleError(violation: DeliveryRuleViolation): AppError {
  const status = violation.code === deliveryErrorCodes.overlap || violation.code === deliveryErrorCodes.started ? 409 : 422;
  return new AppError(status, violation.code, violation.message, 'nextPossibleDeliveryDay' in violation ? violation.nextPossibleDeliveryDay : undefined);
}

export function createDeliveryService(deps: DeliveryServiceDeps) {
  const { db, catalogue, now, cutoffTime, calendarOf, noticesFor, complaintCrediting, mails } = deps;

  /** The subscriber's confirmation of what just happened to a change, in the same transaction. */
  function confirm(tx: Tx, ctx: DeliveryContext, row: ChangeRow, event: DeliveryChangeEvent, at: Date): Promise<void> {
    const change = { id: row.id, event, type: row.type as DeliveryChangeType, fromDate: row.fromDate, toDate: row.toDate, address: row.address ?? null, calendar: ctx.calendar, cutoffTime };
    return mails.deliveryChanged(tx, { subscriptionId: ctx.subscription.id, at, change });
  }

  /**
   * Whether CREDIT ("godskrevet på neste faktura") can be offered: the title gives a value per paper,
   * a next invoice will come (an active subscription, which the renewal run invoices), and a paid
   * invoice paid for one of the days not credited yet (ADR 026).
   */
  async function creditOffered(ctx: DeliveryContext, days: readonly string[]): Promise<boolean> {
    if (!ctx.title.complaintRemedies.includes('CREDIT') || ctx.subscription.instStatusCode !== instStatusCodes.ACTIVE) return false;
    return complaintCrediting.creditable(ctx.subscription.id, days, ctx.title.pausedIssueCreditOre);
  }

  /** The signed-in user's subscription on this title; 404 without one, 403 unless it is a paper subscription. */
  async function contextFor({ user, subscription }: SignedInSubscriber): Promise<DeliveryContext> {
    if (!subscription || !hasAccess(subscription)) throw notFound();
    if (!isPaperSubscription(subscription)) throw new AppError(403, deliveryErrorCodes.paperOnly, deliveryMessages.paperOnly);
    const entry = catalogue.byTitleCode(subscription.titleCode);
    return { user, subscription, title: entry, calendar: calendarOf(entry) };
  }

  function resolveAddress(input: DeliveryAddressInput): StoredDeliveryAddress {
    const town = townOf(input.postalCode);
    if (!town) throw new AppError(422, deliveryErrorCodes.unknownPostalCode, deliveryMessages.unknownPostalCode);
    return { ...input, town };
  }

  async function baseAddress(ctx: DeliveryContext, tx: Db | Tx = db): Promise<DeliveryAddress | null> {
    const [row] = await tx.select().from(deliveryAddress).where(eq(deliveryAddress.subscriptionId, ctx.subscription.id));
    if (!row) return null;
    const fallbackName = `${ctx.user.givenName} ${ctx.user.familyName}`.trim();
    return {
      name: row.name || fallbackName,
      coName: row.coName,
      street: row.street,
      streetNumber: row.streetNumber,
      apartment: row.apartment,
      floor: row.floor,
      postalCode: row.postalCode,
      town: row.town,
    };
  }

  async function activeChanges(subscriptionId: string, tx: Db | Tx = db): Promise<ChangeRow[]> {
    return tx
      .select()
      .from(deliveryChange)
      .where(and(eq(deliveryChange.subscriptionId, subscriptionId), eq(deliveryChange.status, 'active')))
      .orderBy(asc(deliveryChange.fromDate), asc(deliveryChange.placedAt));
  }

  /** The permanent address in use on `date`: the newest move that has begun, else the subscription's own. */
  async function addressOn(ctx: DeliveryContext, date: string, tx: Db | Tx = db): Promise<DeliveryAddress | null> {
    const moves = (await activeChanges(ctx.subscription.id, tx)).filter((row) => row.type === 'PERMANENT' && row.fromDate <= date && row.address);
    const newest = moves.at(-1);
    return newest?.address ?? (await baseAddress(ctx, tx));
  }

  function toDto(ctx: DeliveryContext, row: ChangeRow, at: Date): DeliveryChange {
    const type = row.type as DeliveryChangeType;
    const state = deliveryChangeState(ctx.calendar, { type, fromDate: row.fromDate, toDate: row.toDate }, at, cutoffTime);
    return {
      id: row.id,
      type,
      fromDate: row.fromDate,
      toDate: row.toDate,
      address: row.address ?? null,
      state,
      firstIssue: ctx.calendar.nextPublicationDay(row.fromDate),
      issueCount: type === 'PERMANENT' || row.toDate === null ? null : ctx.calendar.publicationDaysBetween(row.fromDate, row.toDate).length,
      earliestEnd: state === 'started' ? earliestEnd(ctx.calendar, at, cutoffTime) : null,
      resumesOn: type === 'PERMANENT' || row.toDate === null ? null : deliveryResumesOn(ctx.calendar, row.toDate),
      placedAt: row.placedAt.toISOString(),
    };
  }

  /** Serialises every change to one subscription's deliveries: two tabs cannot both pass the overlap check. */
  async function lockSubscription(tx: Tx, subscriptionId: string): Promise<void> {
    await tx.select({ id: subscriptionTable.id }).from(subscriptionTable).where(eq(subscriptionTable.id, subscriptionId)).for('update');
  }

  function checkAddressPresence(type: DeliveryChangeType, address: DeliveryAddressInput | null): void {
    if ((type === 'STOP') !== (address === null)) {
      throw new AppError(400, errorCodes.validation, type === 'STOP' ? 'En stopp har ingen adresse.' : deliveryMessages.streetRequired);
    }
  }

  async function refuseOverlap(tx: Tx, ctx: DeliveryContext, candidate: { id?: string; type: DeliveryChangeType; fromDate: string; toDate: string | null }) {
    const clashes = overlappingChanges(candidate, (await activeChanges(ctx.subscription.id, tx)).map((row) => ({ ...row, type: row.type as DeliveryChangeType })));
    if (clashes.length > 0) throw ruleError({ code: deliveryErrorCodes.overlap, message: deliveryMessages.overlap });
  }

  async function refuseSameAddress(tx: Tx, ctx: DeliveryContext, fromDate: string, address: StoredDeliveryAddress) {
    const current = await addressOn(ctx, addDays(fromDate, -1), tx);
    if (current && addressKey(current) === addressKey(address) && current.name === address.name && current.coName === address.coName) {
      throw new AppError(422, deliveryErrorCodes.sameAsCurrent, deliveryMessages.sameAsCurrent);
    }
  }

  async function ownChange(tx: Tx, ctx: DeliveryContext, id: string): Promise<ChangeRow> {
    const [row] = await tx
      .select()
      .from(deliveryChange)
      .where(and(eq(deliveryChange.id, id), eq(deliveryChange.subscriptionId, ctx.subscription.id), eq(deliveryChange.status, 'active')));
    if (!row) throw notFound();
    return row;
  }

  /** The context of a paper subscription already read and checked by the caller (the home overview): no second look-up. */
  function contextOf(user: SessionUser, subscription: Subscription): DeliveryContext {
    const entry = catalogue.byTitleCode(subscription.titleCode);
    return { user, subscription, title: entry, calendar: calendarOf(entry) };
  }

  return {
    contextFor,
    contextOf,

    /** Today in Europe/Oslo, by the server's clock. */
    today: () => osloToday(now()),

    calendar(ctx: DeliveryContext): DeliveryCalendar {
      const at = now();
      const today = osloToday(at);
      const nextPossible = nextPossibleDeliveryDay(ctx.calendar, at, cutoffTime);
      const last = addDays(nextPossible, MAX_DAYS_AHEAD + 366);
      return {
        titleCode: ctx.title.titleCode,
        today,
        cutoffTime,
        nextPossibleDeliveryDay: nextPossible,
        publicationDays: ctx.calendar.publicationDaysBetween(today, last),
        lastSelectableDay: last,
        publicationWeekdays: ctx.title.publicationWeekdays,
        pausedIssues: { creditPerIssueOre: ctx.title.pausedIssueCreditOre },
      };
    },

    /** Changes that are upcoming or still running; moves until the day they take effect. */
    async listChanges(ctx: DeliveryContext): Promise<DeliveryChange[]> {
      const at = now();
      const today = osloToday(at);
      return (await activeChanges(ctx.subscription.id))
        .filter((row) => (row.type === 'PERMANENT' ? row.fromDate > today : row.toDate === null || row.toDate >= today))
        .map((row) => toDto(ctx, row, at));
    },

    async placeChange(ctx: DeliveryContext, body: DeliveryChangeBody): Promise<DeliveryChange> {
      const at = now();
      checkAddressPresence(body.type, body.address);
      const address = body.address ? resolveAddress(body.address) : null;
      const violation = checkNewPeriod({ calendar: ctx.calendar, now: at, cutoffTime, type: body.type, fromDate: body.fromDate, toDate: body.toDate });
      if (violation) throw ruleError(violation);
      const row = await db.transaction(async (tx) => {
        await lockSubscription(tx, ctx.subscription.id);
        await refuseOverlap(tx, ctx, body);
        if (body.type === 'PERMANENT' && address) await refuseSameAddress(tx, ctx, body.fromDate, address);
        const [inserted] = await tx
          .insert(deliveryChange)
          .values({ id: randomUUID(), subscriptionId: ctx.subscription.id, type: body.type, fromDate: body.fromDate, toDate: body.toDate, address, status: 'active', placedAt: at, updatedAt: at })
          .returning();
        if (inserted) await confirm(tx, ctx, inserted, 'placed', at);
        return inserted;
      });
      if (!row) throw new Error('delivery change missing after insert');
      return toDto(ctx, row, at);
    },

    /** Upcoming changes may change freely (same type); started ones may only be shortened. */
    async updateChange(ctx: DeliveryContext, id: string, body: DeliveryChangeBody): Promise<DeliveryChange> {
      const at = now();
      const row = await db.transaction(async (tx) => {
        await lockSubscription(tx, ctx.subscription.id);
        const current = await ownChange(tx, ctx, id);
        const type = current.type as DeliveryChangeType;
        if (body.type !== type) throw new AppError(400, errorCodes.validation, 'Typen kan ikke endres. Slett endringen og legg inn en ny.');
        const state = deliveryChangeState(ctx.calendar, { type, fromDate: current.fromDate, toDate: current.toDate }, at, cutoffTime);
        let values: Partial<typeof deliveryChange.$inferInsert>;
        if (state === 'upcoming') {
          checkAddressPresence(type, body.address);
          const address = body.address ? resolveAddress(body.address) : null;
          const violation = checkNewPeriod({ calendar: ctx.calendar, now: at, cutoffTime, type, fromDate: body.fromDate, toDate: body.toDate });
          if (violation) throw ruleError(violation);
          await refuseOverlap(tx, ctx, { id, type, fromDate: body.fromDate, toDate: body.toDate });
          if (type === 'PERMANENT' && address) await refuseSameAddress(tx, ctx, body.fromDate, address);
          values = { fromDate: body.fromDate, toDate: body.toDate, address };
        } else if (state === 'started') {
          const violation = checkShortening({ calendar: ctx.calendar, now: at, cutoffTime, current: { type, fromDate: current.fromDate, toDate: current.toDate }, requested: body });
          if (violation) throw ruleError(violation);
          values = { toDate: body.toDate };
        } else {
          throw ruleError({ code: deliveryErrorCodes.started, message: type === 'PERMANENT' ? deliveryMessages.permanentStarted : deliveryMessages.started });
        }
        const [updated] = await tx.update(deliveryChange).set({ ...values, updatedAt: at }).where(eq(deliveryChange.id, id)).returning();
        if (updated) await confirm(tx, ctx, updated, state === 'upcoming' ? 'updated' : 'shortened', at);
        return updated;
      });
      if (!row) throw notFound();
      return toDto(ctx, row, at);
    },

    /**
     * Deletes an upcoming change. A started one ends as early as the cutoff allows (delivery
     * resumes on the next possible delivery day) and is returned; a locked one is refused.
     */
    async cancelChange(ctx: DeliveryContext, id: string): Promise<DeliveryChange | null> {
      const at = now();
      return db.transaction(async (tx) => {
        await lockSubscription(tx, ctx.subscription.id);
        const current = await ownChange(tx, ctx, id);
        const type = current.type as DeliveryChangeType;
        const state = deliveryChangeState(ctx.calendar, { type, fromDate: current.fromDate, toDate: current.toDate }, at, cutoffTime);
        if (state === 'upcoming') {
          await tx.update(deliveryChange).set({ status: 'cancelled', cancelledAt: at, updatedAt: at }).where(eq(deliveryChange.id, id));
          await confirm(tx, ctx, current, 'deleted', at);
          return null;
        }
        if (state === 'locked') throw ruleError({ code: deliveryErrorCodes.started, message: type === 'PERMANENT' ? deliveryMessages.permanentStarted : deliveryMessages.started });
        const [updated] = await tx
          .update(deliveryChange)
          .set({ toDate: earliestEnd(ctx.calendar, at, cutoffTime), updatedAt: at })
          .where(eq(deliveryChange.id, id))
          .returning();
        if (!updated) return null;
        await confirm(tx, ctx, updated, 'shortened', at);
        return toDto(ctx, updated, at);
      });
    },

    /** The issues a period would affect, for the confirmation step (open ends: the next 12 weeks). */
    affected(ctx: DeliveryContext, fromDate: string, toDate: string | null): string[] {
      return affectedIssues(ctx.calendar, { fromDate, toDate }, addDays(fromDate, 83));
    },

    async addressOverview(ctx: DeliveryContext): Promise<DeliveryAddressOverview> {
      const today = osloToday(now());
      const current = await addressOn(ctx, today);
      if (!current) throw notFound();
      const upcoming = (await activeChanges(ctx.subscription.id))
        .filter((row) => row.type === 'PERMANENT' && row.fromDate > today && row.address)
        .map((row) => ({ changeId: row.id, fromDate: row.fromDate, address: row.address as DeliveryAddress }));
      return { current, upcoming };
    },

    lookupPostalCode(postalCode: string): { postalCode: string; town: string } {
      const town = townOf(postalCode);
      if (!town) throw new AppError(404, deliveryErrorCodes.unknownPostalCode, deliveryMessages.unknownPostalCode);
      return { postalCode, town };
    },

    async complaintOptions(ctx: DeliveryContext): Promise<ComplaintOptions> {
      const today = osloToday(now());
      const days = complaintDays(ctx.calendar, today);
      const reported = days.length === 0 ? [] : await db
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
      const address = await addressOn(ctx, today);
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
            .values({ subscriptionId: ctx.subscription.id, code: body.code, text: body.text, remedy: body.remedy, addressKey: key, postalCode: address.postalCode, flagged: earlier !== undefined, createdAt: at })
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

export function caseNumberOf(caseNo: number): string {
  return `RK-${caseNo}`;
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
