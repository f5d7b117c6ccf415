import {
  addDays,
  deliveryErrorCodes,
  deliveryMessages,
  hasAccess,
  isPaperSubscription,
  MAX_DAYS_AHEAD,
  nextPossibleDeliveryDay,
  osloToday,
  type DeliveryAddress,
  type DeliveryAddressOverview,
  type DeliveryCalendar,
  type DeliveryNotice,
  type Subscription,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { ComplaintCrediting } from '../billing/index.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SignedInSubscriber } from '../auth/index.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { ChangeMails } from '../subscription/index.ts';
import type { createCalendarCache } from './calendars.ts';
import { createDeliveryChanges } from './changes.ts';
import { createDeliveryComplaints } from './complaints.ts';
import { activeChanges, addressOn, type DeliveryContext } from './delivery-record.ts';
import { townOf } from './postal-codes.ts';

export { caseNumberOf } from './complaints.ts';

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

/**
 * Paper delivery (issue 5): the subscription a call is about and its publication calendar, the
 * address in use and the moves ahead, here; the changes to delivery (changes.ts) and the
 * complaints about it (complaints.ts) are jobs of their own.
 */
export function createDeliveryService(deps: DeliveryServiceDeps) {
  const { db, catalogue, now, cutoffTime, calendarOf, noticesFor, complaintCrediting, mails } = deps;

  /** The signed-in user's subscription on this title; 404 without one, 403 unless it is a paper subscription. */
  async function contextFor({ user, subscription }: SignedInSubscriber): Promise<DeliveryContext> {
    if (!subscription || !hasAccess(subscription)) throw notFound();
    if (!isPaperSubscription(subscription)) throw new AppError(403, deliveryErrorCodes.paperOnly, deliveryMessages.paperOnly);
    const entry = catalogue.byTitleCode(subscription.titleCode);
    return { user, subscription, title: entry, calendar: calendarOf(entry) };
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

    ...createDeliveryChanges({ db, now, cutoffTime, mails }),

    async addressOverview(ctx: DeliveryContext): Promise<DeliveryAddressOverview> {
      const today = osloToday(now());
      const current = await addressOn(db, ctx, today);
      if (!current) throw notFound();
      const upcoming = (await activeChanges(db, ctx.subscription.id))
        .filter((row) => row.type === 'PERMANENT' && row.fromDate > today && row.address)
        .map((row) => ({ changeId: row.id, fromDate: row.fromDate, address: row.address as DeliveryAddress }));
      return { current, upcoming };
    },

    lookupPostalCode(postalCode: string): { postalCode: string; town: string } {
      const town = townOf(postalCode);
      if (!town) throw new AppError(404, deliveryErrorCodes.unknownPostalCode, deliveryMessages.unknownPostalCode);
      return { postalCode, town };
    },

    ...createDeliveryComplaints({ db, now, noticesFor, complaintCrediting, mails }),
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
