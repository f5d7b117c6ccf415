import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import {
  addDays,
  addressKey,
  affectedIssues,
  checkNewPeriod,
  checkShortening,
  deliveryChangeState,
  deliveryErrorCodes,
  deliveryMessages,
  deliveryResumesOn,
  earliestEnd,
  errorCodes,
  osloToday,
  overlappingChanges,
  type DeliveryAddressInput,
  type DeliveryChange,
  type DeliveryChangeBody,
  type DeliveryChangeType,
  type DeliveryRuleViolation,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { deliveryChange, subscription as subscriptionTable, type StoredDeliveryAddress } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import type { ChangeMails, DeliveryChangeEvent } from '../subscription/index.ts';
import { activeChanges, addressOn, type ChangeRow, type DeliveryContext } from './delivery-record.ts';
import { townOf } from './postal-codes.ts';

function ruleError(violation: DeliveryRuleViolation): AppError {
  const status = violation.code === deliveryErrorCodes.overlap || violation.code === deliveryErrorCodes.started ? 409 : 422;
  return new AppError(status, violation.code, violation.message, 'nextPossibleDeliveryDay' in violation ? violation.nextPossibleDeliveryDay : undefined);
}

/**
 * Delivery changes (SPEC §5, issue 5): a vacation stop, a redirect or a move placed, changed,
 * shortened once started, or deleted, each checked against the cutoff and the changes already
 * in force, under the subscription's lock, and confirmed by e-mail in its transaction (issue 25.7).
 */
export function createDeliveryChanges({ db, now, cutoffTime, mails }: { db: Db; now: () => Date; cutoffTime: string; mails: ChangeMails }) {
  /** The subscriber's confirmation of what just happened to a change, in the same transaction. */
  function confirm(tx: Tx, ctx: DeliveryContext, row: ChangeRow, event: DeliveryChangeEvent, at: Date): Promise<void> {
    const change = { id: row.id, event, type: row.type as DeliveryChangeType, fromDate: row.fromDate, toDate: row.toDate, address: row.address ?? null, calendar: ctx.calendar, cutoffTime };
    return mails.deliveryChanged(tx, { subscriptionId: ctx.subscription.id, at, change });
  }

  function resolveAddress(input: DeliveryAddressInput): StoredDeliveryAddress {
    const town = townOf(input.postalCode);
    if (!town) throw new AppError(422, deliveryErrorCodes.unknownPostalCode, deliveryMessages.unknownPostalCode);
    return { ...input, town };
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
    const clashes = overlappingChanges(
      candidate,
      (await activeChanges(tx, ctx.subscription.id)).map((row) => ({ ...row, type: row.type as DeliveryChangeType })),
    );
    if (clashes.length > 0) throw ruleError({ code: deliveryErrorCodes.overlap, message: deliveryMessages.overlap });
  }

  async function refuseSameAddress(tx: Tx, ctx: DeliveryContext, fromDate: string, address: StoredDeliveryAddress) {
    const current = await addressOn(tx, ctx, addDays(fromDate, -1));
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

  return {
    /** Changes that are upcoming or still running; moves until the day they take effect. */
    async listChanges(ctx: DeliveryContext): Promise<DeliveryChange[]> {
      const at = now();
      const today = osloToday(at);
      return (await activeChanges(db, ctx.subscription.id))
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
        const [updated] = await tx
          .update(deliveryChange)
          .set({ ...values, updatedAt: at })
          .where(eq(deliveryChange.id, id))
          .returning();
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
  };
}
