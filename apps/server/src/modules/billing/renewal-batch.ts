import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { addDays, addMonths, formatNorwegianAccountNumber, instStatusCodes, invoiceLineDescription, kidFor, type BillingPeriod, type ChangeDetails, type ChangeKind } from '@minside/domain';
import type { Catalogue, PublicationConfig } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { account, appUser, billingDocument, deliveryAddress, einvoiceRecipient, invoice, paymentAgreement, subscription, subscriptionChange, subscriptionPeriod, type plan } from '../../db/schema.ts';
import type { OutgoingMail } from '../../integrations/mail/index.ts';
import { CLAIM_MIN_LEAD_DAYS } from './claim-window.ts';
import { insertInvoiceDocuments } from './documents/issue.ts';
import { buyerFrom, invoiceContentFrom } from './documents/invoice-content.ts';
import { agreementMethodOf, howToPayFor, invoiceIssuedMail } from './renewal-mails.ts';

/**
 * The renewal run's decisions as functions of what was read (renewal-issue.ts reads one subscription
 * at a time for a reactivation, renewal-pages.ts a page of them at a time in the nightly run), and the run's writes
 * for a whole page in a few statements (issue 27 §4: a million subscribers in minutes). Whatever
 * the page form writes is what the one-at-a-time form (renewal-issue.ts issueIn) writes for the same row.
 */

type SubscriptionRow = typeof subscription.$inferSelect;
export type PlanRow = typeof plan.$inferSelect;

const periodMonths: Record<BillingPeriod, number> = { YEAR: 12, QUARTER: 3, MONTH: 1, MONTH_PREMIUM: 1 };
/** Giro invoices are due this many days before the period starts (as the demo invoices are). */
const DUE_DAYS_BEFORE_PERIOD = 2;

export interface PeriodPrice {
  amountOre: number;
  planName: string;
  months: number;
  billingPeriod: string;
}

/** The plan the period starting `periodFrom` is billed on: a pending plan change from its day on. */
export function planIdFor(row: SubscriptionRow, periodFrom: string): string {
  return row.pendingPlanId && row.pendingChangeOn && row.pendingChangeOn <= periodFrom ? row.pendingPlanId : row.ariaPlanId;
}

/** The period's price, name and length on `found` (the plan of planIdFor), or as stored on the subscription without it. */
export function priceFrom(found: PlanRow | undefined, row: SubscriptionRow, periodFrom: string): PeriodPrice {
  if (!found) return { amountOre: row.priceOre, planName: row.planName, months: periodMonths[row.billingPeriod as BillingPeriod] ?? 1, billingPeriod: row.billingPeriod };
  const announced = found.nextPriceOre !== null && found.nextPriceFrom !== null && found.nextPriceFrom <= periodFrom;
  const amountOre = found.ariaPlanId === row.ariaPlanId && !announced ? row.priceOre : announced ? (found.nextPriceOre as number) : found.priceOre;
  return { amountOre, planName: found.name, months: periodMonths[found.billingPeriod as BillingPeriod] ?? 1, billingPeriod: found.billingPeriod };
}

/**
 * Due before the period starts, or today if that is past. AvtaleGiro: not before the next claim
 * file can carry it (tomorrow's, when today's has gone), or the bank would never draw it.
 */
export function invoiceDueOn(paymentMethod: string, periodFrom: string, today: string): string {
  const earliest = paymentMethod === 'AVTALEGIRO' ? addDays(today, CLAIM_MIN_LEAD_DAYS + 1) : today;
  return [addDays(periodFrom, -DUE_DAYS_BEFORE_PERIOD), earliest].sort().at(-1) as string;
}

/** A period of a subscription to bill, as the page's run decided it. */
export interface PlannedPeriod {
  row: SubscriptionRow;
  title: PublicationConfig;
  periodFrom: string;
  price: PeriodPrice;
}

/** A JSON array as a set of rows in SQL: one parameter for a whole page, the same on PostgreSQL and PGlite. */
const rowsOf = (values: unknown[]) => sql`${JSON.stringify(values)}::jsonb`;

/**
 * Claims the periods (`subscription_period`'s primary key: one invoice per period, whoever runs)
 * and returns those this transaction claimed; a period claimed before (an earlier run, a
 * reactivation, another instance) is left alone.
 */
export async function claimPeriods(tx: Tx, periods: PlannedPeriod[], at: Date): Promise<PlannedPeriod[]> {
  if (periods.length === 0) return [];
  const claimed = await tx
    .insert(subscriptionPeriod)
    .values(periods.map((period) => ({ subscriptionId: period.row.id, periodFrom: period.periodFrom, ariaInvoiceNo: null, createdAt: at })))
    .onConflictDoNothing()
    .returning({ subscriptionId: subscriptionPeriod.subscriptionId, periodFrom: subscriptionPeriod.periodFrom });
  const keys = new Set(claimed.map((row) => `${row.subscriptionId} ${row.periodFrom}`));
  return periods.filter((period) => keys.has(`${period.row.id} ${period.periodFrom}`));
}

/**
 * The invoices made elsewhere (seed, an order) for the periods, by subscription id: they count as
 * the renewal — unless a credit note took all of it back (a cancellation since undone). Read by
 * invoice_account_idx (account, period).
 */
export async function invoicesMadeElsewhere(tx: Tx, periods: PlannedPeriod[]): Promise<Map<string, number>> {
  if (periods.length === 0) return new Map();
  const { rows } = (await tx.execute(sql`
    select v.id, found.no from jsonb_to_recordset(${rowsOf(periods.map((period) => ({ id: period.row.id, account: period.row.ariaAccountNo, from: period.periodFrom })))}) as v(id text, account bigint, "from" date)
    cross join lateral (
      select i.aria_invoice_no::bigint as no from ${invoice} i
      where i.aria_account_no = v.account and i.period_from = v."from" and i.subscription_id = v.id
        and not exists (select 1 from ${billingDocument} d where d.aria_invoice_no = i.aria_invoice_no and d.kind = 'CREDIT_NOTE' and (d.source like 'cancel:%' or d.source like 'refund:%'))
      limit 1) found`)) as unknown as { rows: { id: string; no: string | number }[] };
  return new Map(rows.map((row) => [row.id, Number(row.no)]));
}

/** Records each period's invoice on its claim. */
export async function linkPeriods(tx: Tx, links: { subscriptionId: string; periodFrom: string; ariaInvoiceNo: number }[]): Promise<void> {
  if (links.length === 0) return;
  await tx.execute(sql`
    update ${subscriptionPeriod} p set aria_invoice_no = v.no
    from jsonb_to_recordset(${rowsOf(links.map((link) => ({ id: link.subscriptionId, from: link.periodFrom, no: link.ariaInvoiceNo })))}) as v(id text, "from" date, no bigint)
    where p.subscription_id = v.id and p.period_from = v."from"`);
}

export interface BatchInvoiceDeps {
  catalogue: Catalogue;
  /** The payment provider's name: only its own agreements are charged (no invoice e-mail then). */
  providerName: string;
  enqueue: (tx: Tx, mail: OutgoingMail) => Promise<unknown>;
  payUrl: (row: SubscriptionRow, ariaInvoiceNo: number) => string;
}

/**
 * The invoices of claimed periods with nothing to set off (no discount, no waiting credit: renewal-pages.ts
 * sends those through issueIn), each with its document and, when the payer has to act, its e-mail:
 * numbers from the invoice sequence (so the KID is written with the row), one insert for the
 * invoices, one read of the buyers, one insert for the documents, one read of the agreements.
 */
export async function insertRenewalInvoices(
  tx: Tx,
  deps: BatchInvoiceDeps,
  periods: PlannedPeriod[],
  today: string,
  at: Date,
): Promise<{ subscriptionId: string; periodFrom: string; ariaInvoiceNo: number }[]> {
  if (periods.length === 0) return [];
  const { rows: numbered } = (await tx.execute(sql`select nextval(pg_get_serial_sequence('invoice', 'aria_invoice_no'))::bigint as no from generate_series(1, ${periods.length})`)) as unknown as {
    rows: { no: string | number }[];
  };
  const numbers = numbered.map((row) => Number(row.no)).sort((a, b) => a - b);
  const values = periods.map((period, index) => {
    const { row, title, periodFrom, price } = period;
    const no = numbers[index] as number;
    const periodTo = addDays(addMonths(periodFrom, price.months), -1);
    return {
      ariaInvoiceNo: no,
      ariaAccountNo: row.ariaAccountNo,
      subscriptionId: row.id,
      kid: kidFor('invoice', no, deps.catalogue.byTitleCode(title.titleCode).bank),
      amountOre: price.amountOre,
      description: invoiceLineDescription({ planName: price.planName, periodFrom, periodTo, note: null }),
      periodFrom,
      periodTo,
      dueOn: invoiceDueOn(row.paymentMethod, periodFrom, today),
      bankAccountNumber: formatNorwegianAccountNumber(deps.catalogue.byTitleCode(title.titleCode).bank.creditorAccount),
      createdAt: at,
    };
  });
  const inserted = await tx.insert(invoice).values(values).returning();
  const byNo = new Map(inserted.map((row) => [row.ariaInvoiceNo, row]));

  // The parties as they are now, for the documents; the owner also for the e-mail.
  const accountNos = [...new Set(periods.map((period) => period.row.ariaAccountNo))];
  const subscriptionIds = periods.map((period) => period.row.id);
  const owners = new Map(
    (
      await tx
        .select({ ariaAccountNo: account.ariaAccountNo, email: appUser.email, givenName: appUser.givenName, familyName: appUser.familyName })
        .from(account)
        .innerJoin(appUser, eq(appUser.id, account.userId))
        .where(inArray(account.ariaAccountNo, accountNos))
    ).map(({ ariaAccountNo, ...owner }) => [ariaAccountNo, owner]),
  );
  const companies = new Map((await tx.select().from(einvoiceRecipient).where(inArray(einvoiceRecipient.subscriptionId, subscriptionIds))).map((row) => [row.subscriptionId, row]));
  const addresses = new Map((await tx.select().from(deliveryAddress).where(inArray(deliveryAddress.subscriptionId, subscriptionIds))).map((row) => [row.subscriptionId, row]));
  await insertInvoiceDocuments(
    tx,
    periods.map((period, index) => {
      const row = byNo.get(numbers[index] as number) as typeof invoice.$inferSelect;
      const buyer = buyerFrom(row.ariaAccountNo, { owner: owners.get(row.ariaAccountNo), company: companies.get(period.row.id), address: addresses.get(period.row.id) });
      return { titleCode: period.title.titleCode, ariaAccountNo: row.ariaAccountNo, content: invoiceContentFrom(row, period.title, period.row.planProductType, buyer, []) };
    }),
    at,
  );

  // The e-mail where the payer has to act: giro and AvtaleGiro always, card and Vipps without an agreement this provider charges.
  const agreements = await tx
    .select({ subscriptionId: paymentAgreement.subscriptionId, method: paymentAgreement.method, provider: paymentAgreement.provider })
    .from(paymentAgreement)
    .where(sql`${inArray(paymentAgreement.subscriptionId, subscriptionIds)} and ${paymentAgreement.status} = 'ACTIVE'`);
  for (const [index, period] of periods.entries()) {
    const row = byNo.get(numbers[index] as number) as typeof invoice.$inferSelect;
    const own = agreements.filter((agreement) => agreement.subscriptionId === period.row.id);
    const howToPay = howToPayFor(period.row.paymentMethod, {
      mandate: own.some((agreement) => agreement.method === 'AVTALEGIRO'),
      chargeable: own.some((agreement) => agreement.method === agreementMethodOf(period.row.paymentMethod) && agreement.provider === deps.providerName),
    });
    const owner = owners.get(row.ariaAccountNo);
    if (howToPay === null || !owner) continue;
    await deps.enqueue(tx, invoiceIssuedMail(period.title, row, 0, howToPay, owner, deps.payUrl(period.row, row.ariaInvoiceNo)));
  }
  return periods.map((period, index) => ({ subscriptionId: period.row.id, periodFrom: period.periodFrom, ariaInvoiceNo: numbers[index] as number }));
}

/** A subscription whose period has begun, and what its next period is. */
export interface PeriodToRoll {
  row: SubscriptionRow;
  price: PeriodPrice;
  next: string;
}

/**
 * Rolls the periods that have begun over (compare-and-set on the period end and the status read:
 * once, whoever runs; a trial cancelled since is neither rolled nor converted), a trial becoming
 * ACTIVE with its change logged. Returns those this transaction rolled.
 */
export async function rollPeriods(tx: Tx, periods: PeriodToRoll[], at: Date): Promise<PeriodToRoll[]> {
  if (periods.length === 0) return [];
  const { rows } = (await tx.execute(sql`
    update ${subscription} s set current_period_end = v.next, inst_status_code = ${instStatusCodes.ACTIVE}
    from jsonb_to_recordset(${rowsOf(periods.map(({ row, next }) => ({ id: row.id, end: row.currentPeriodEnd, status: row.instStatusCode, next })))}) as v(id text, "end" date, status integer, next date)
    where s.id = v.id and s.current_period_end = v."end" and s.inst_status_code = v.status
    returning s.id`)) as unknown as { rows: { id: string }[] };
  const rolled = new Set(rows.map((row) => row.id));
  const done = periods.filter(({ row }) => rolled.has(row.id));
  const trials = done.filter(({ row }) => row.instStatusCode === instStatusCodes.TRIAL);
  if (trials.length > 0) {
    await tx.insert(subscriptionChange).values(
      trials.map(({ row, price }) => ({
        id: randomUUID(),
        subscriptionId: row.id,
        at,
        actor: 'system',
        actorUserId: null,
        kind: 'trialEnded' satisfies ChangeKind,
        fromStatusCode: instStatusCodes.TRIAL,
        toStatusCode: instStatusCodes.ACTIVE,
        details: { planName: price.planName, billingPeriod: price.billingPeriod, amountOre: price.amountOre, on: row.currentPeriodEnd } satisfies ChangeDetails,
      })),
    );
  }
  return done;
}
