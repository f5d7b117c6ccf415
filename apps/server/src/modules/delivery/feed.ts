import { and, asc, eq, gte, isNull, lt, lte, or } from 'drizzle-orm';
import { addDays, cutoffFor, isInFeed, osloInstantOf, type CarrierFeedKind, type CarrierFeedRow, type DeliveryAddress } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { appUser, account, deliveryAddress, deliveryChange, deliveryComplaint, deliveryComplaintDay, subscription } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { caseNumberOf } from './service.ts';

/** The instant a cutoff on the Oslo wall clock (`YYYY-MM-DDTHH:MM:00`, from `cutoffFor`) stands for. */
function osloInstant(wallClock: string): Date {
  return osloInstantOf(wallClock.slice(0, 10), wallClock.slice(11, 16));
}

/**
 * The carrier feed of one title and publication day (issue 5): stops and redirects in force that
 * day, moves taking effect that day, and complaints reported since the previous day's feed. Only
 * what was placed before the day's cutoff is in it, so a feed that was due never changes later.
 * Rows are ordered by postal code and street, the way a carrier walks a route. Read in three
 * statements however many rows the day has (issue 27 §4: the largest title at a million subscribers).
 */
export async function carrierFeed(deps: { db: Db; catalogue: Catalogue; cutoffTime: string }, titleCode: string, date: string): Promise<CarrierFeedRow[]> {
  const { db, catalogue, cutoffTime } = deps;
  const title = catalogue.findByTitleCode(titleCode);
  if (!title || title.excluded) throw new AppError(404, 'UNKNOWN_TITLE', `Fant ingen avis med koden ${titleCode}.`);
  const code = title.titleCode;

  // The changes in force that day, each with its subscription's own address and owner: one read, whatever the number of rows.
  const changes = await db
    .select({ change: deliveryChange, accountNo: subscription.ariaAccountNo, base: deliveryAddress, givenName: appUser.givenName, familyName: appUser.familyName })
    .from(deliveryChange)
    .innerJoin(subscription, eq(subscription.id, deliveryChange.subscriptionId))
    .leftJoin(deliveryAddress, eq(deliveryAddress.subscriptionId, deliveryChange.subscriptionId))
    .leftJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
    .leftJoin(appUser, eq(appUser.id, account.userId))
    .where(and(eq(subscription.titleCode, code), eq(deliveryChange.status, 'active'), lte(deliveryChange.fromDate, date), or(isNull(deliveryChange.toDate), gte(deliveryChange.toDate, date))))
    .orderBy(asc(deliveryChange.fromDate));

  // The home address on the day: the subscription's own, or the newest move that has begun (the last in from-date order).
  const moves = new Map<string, DeliveryAddress>();
  for (const { change } of changes) {
    if (change.type === 'PERMANENT' && change.address && isInFeed(change.placedAt, date, cutoffTime)) moves.set(change.subscriptionId, change.address);
  }
  const homes = new Map<string, DeliveryAddress | null>();
  for (const { change, base, givenName, familyName } of changes) {
    if (homes.has(change.subscriptionId)) continue;
    const move = moves.get(change.subscriptionId);
    homes.set(change.subscriptionId, move ?? (base ? { ...base, name: base.name || `${givenName ?? ''} ${familyName ?? ''}`.trim() } : null));
  }
  const homeOn = (subscriptionId: string): DeliveryAddress | null => homes.get(subscriptionId) ?? null;

  const rows: CarrierFeedRow[] = [];
  const row = (kind: CarrierFeedKind, subscriptionId: string, accountNo: number, address: DeliveryAddress | null, extra: Partial<CarrierFeedRow>): CarrierFeedRow => ({
    date,
    title_code: code,
    kind,
    subscription_id: subscriptionId,
    account_no: String(accountNo),
    name: address?.name ?? '',
    co_name: address?.coName ?? '',
    street: address?.street ?? '',
    street_number: address?.streetNumber ?? '',
    apartment: address?.apartment ?? '',
    floor: address?.floor ?? '',
    postal_code: address?.postalCode ?? '',
    town: address?.town ?? '',
    from_date: '',
    to_date: '',
    case_number: '',
    complaint_code: '',
    remedy: '',
    ...extra,
  });

  for (const { change, accountNo } of changes) {
    if (!isInFeed(change.placedAt, date, cutoffTime)) continue;
    const period = { from_date: change.fromDate, to_date: change.toDate ?? '' };
    if (change.type === 'STOP') rows.push(row('STOP', change.subscriptionId, accountNo, homeOn(change.subscriptionId), period));
    else if (change.type === 'TRANSFER') rows.push(row('REDIRECT', change.subscriptionId, accountNo, change.address ?? null, period));
    else if (change.type === 'PERMANENT' && change.fromDate === date) rows.push(row('ADDRESS_CHANGE', change.subscriptionId, accountNo, change.address ?? null, period));
  }

  // Complaints reported between the previous day's cutoff and this day's: each appears in one feed.
  const windowStart = osloInstant(cutoffFor(addDays(date, -1), cutoffTime));
  const windowEnd = osloInstant(cutoffFor(date, cutoffTime));
  const inWindow = and(eq(subscription.titleCode, code), gte(deliveryComplaint.createdAt, windowStart), lt(deliveryComplaint.createdAt, windowEnd));
  const complaints = await db
    .select({ complaint: deliveryComplaint, accountNo: subscription.ariaAccountNo, base: deliveryAddress })
    .from(deliveryComplaint)
    .innerJoin(subscription, eq(subscription.id, deliveryComplaint.subscriptionId))
    .leftJoin(deliveryAddress, eq(deliveryAddress.subscriptionId, deliveryComplaint.subscriptionId))
    .where(inWindow)
    .orderBy(asc(deliveryComplaint.caseNo));
  const daysOf = new Map<number, string[]>();
  if (complaints.length > 0) {
    const days = await db
      .select({ caseNo: deliveryComplaintDay.caseNo, issueDate: deliveryComplaintDay.issueDate })
      .from(deliveryComplaintDay)
      .innerJoin(deliveryComplaint, eq(deliveryComplaint.caseNo, deliveryComplaintDay.caseNo))
      .innerJoin(subscription, eq(subscription.id, deliveryComplaint.subscriptionId))
      .where(inWindow);
    for (const day of days) daysOf.set(day.caseNo, [...(daysOf.get(day.caseNo) ?? []), day.issueDate]);
  }
  for (const { complaint, accountNo, base } of complaints) {
    const days = (daysOf.get(complaint.caseNo) ?? []).sort();
    rows.push(
      row('COMPLAINT', complaint.subscriptionId, accountNo, base ? { ...base, name: base.name } : null, {
        from_date: days[0] ?? '',
        to_date: days.at(-1) ?? '',
        case_number: caseNumberOf(complaint.caseNo),
        complaint_code: complaint.code,
        remedy: complaint.remedy,
      }),
    );
  }

  return rows.sort(
    (a, b) =>
      a.postal_code.localeCompare(b.postal_code) || a.street.localeCompare(b.street, 'nb') || a.street_number.localeCompare(b.street_number, 'nb', { numeric: true }) || a.kind.localeCompare(b.kind),
  );
}
