import { randomUUID } from 'node:crypto';
import { and, eq, or, sql } from 'drizzle-orm';
import { addDays } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { avtaleGiroClaim, bankFile, invoice, paymentAgreement, subscription } from '../../db/schema.ts';
import { CANCEL_MIN_LEAD_DAYS, CLAIM_MAX_LEAD_DAYS, CLAIM_MIN_LEAD_DAYS, settledOreOf } from '../billing/index.ts';

/**
 * The first of the claim run's two steps (claims.ts): which invoices go to the bank today and
 * which claims are withdrawn, decided in one transaction and recorded against the day's file row.
 * Apart from the writing because this is where money is decided; the file only says it.
 */

/** Invoices chosen per statement: each statement stays far inside the query timeout, whatever the number. */
const DECIDE_BATCH = 20_000;

/** Decides the day's claims once; returns the file row (new, or the one an earlier run made), or null when there is nothing to send. */
export async function decideClaimFile({ db, customerUnitId, now }: { db: Db; customerUnitId: string; now: () => Date }, date: string): Promise<typeof bankFile.$inferSelect | null> {
  return db.transaction(async (tx) => {
    // One run at a time, whatever its date: the transmission number is the last one plus one.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('avtalegiro-claims'))`);
    const [existing] = await tx
      .select()
      .from(bankFile)
      .where(and(eq(bankFile.direction, 'OUT'), eq(bankFile.kind, 'avtalegiro-claims'), eq(bankFile.dataTransmitter, customerUnitId), eq(bankFile.netsDate, date)));
    if (existing) return existing;
    const [last] = await tx
      .select({ number: sql<string | null>`max(${bankFile.transmissionNumber})` })
      .from(bankFile)
      .where(and(eq(bankFile.direction, 'OUT'), eq(bankFile.kind, 'avtalegiro-claims'), eq(bankFile.dataTransmitter, customerUnitId)));
    const transmissionNumber = String(Number(last?.number ?? 0) + 1).padStart(7, '0');
    const id = randomUUID();
    const at = now();
    await tx.insert(bankFile).values({
      id,
      direction: 'OUT',
      kind: 'avtalegiro-claims',
      dataTransmitter: customerUnitId,
      transmissionNumber,
      dataRecipient: '00008080',
      sha256: '',
      status: 'WRITING',
      netsDate: date,
      createdAt: at,
    });
    // Withdrawn while the bank still lets go: settled another way (credited, paid by card) or no
    // longer on AvtaleGiro. Part-paid in the netbank since, the claim would draw too much: it is
    // withdrawn only while tomorrow's run can still claim the rest in time (a cancellation and a
    // new claim of one KID and due date are never in one file); later, the bank draws the claim
    // and the excess is an over-payment on the reconciliation list, refunded by a person.
    await tx.execute(sql`
      update ${avtaleGiroClaim} c set cancelled_in = ${id}
      from ${invoice} i, ${subscription} s
      where c.aria_invoice_no = i.aria_invoice_no and s.id = i.subscription_id
        and c.cancelled_in is null and c.due_on >= ${addDays(date, CANCEL_MIN_LEAD_DAYS)}
        and ((i.paid_at is not null and coalesce(i.settled_by, '') <> 'AVTALEGIRO')
          or s.payment_method <> 'AVTALEGIRO'
          or (i.paid_at is null and c.due_on >= ${addDays(date, CLAIM_MIN_LEAD_DAYS + 1)} and c.amount_ore <> i.amount_ore - ${settledOreOf(sql`i.aria_invoice_no`)}))`);
    // The claims, in batches of invoices so that no statement runs long (a million is 50 of them):
    // what is still open of each unpaid invoice due inside the bank's window, on the mandate's KID,
    // unless a claim is out already or was withdrawn in this very file.
    for (let after = 0; ;) {
      const [batch] = (
        (await tx.execute(sql`
        with candidate as (
          select i.aria_invoice_no, pa.provider_agreement_id as kid, i.amount_ore - ${settledOreOf(sql`i.aria_invoice_no`)} as open_ore, i.due_on
          from ${invoice} i
          join ${subscription} s on s.id = i.subscription_id and s.payment_method = 'AVTALEGIRO'
          join ${paymentAgreement} pa on pa.subscription_id = s.id and pa.method = 'AVTALEGIRO' and pa.status = 'ACTIVE' and pa.provider_agreement_id is not null
          where i.aria_invoice_no > ${after} and i.paid_at is null and i.amount_ore > 0
            and i.due_on between ${addDays(date, CLAIM_MIN_LEAD_DAYS)} and ${addDays(date, CLAIM_MAX_LEAD_DAYS)}
            and not exists (select 1 from ${avtaleGiroClaim} c where c.aria_invoice_no = i.aria_invoice_no and (c.cancelled_in is null or c.cancelled_in = ${id}))
          order by i.aria_invoice_no
          limit ${DECIDE_BATCH}
        ), claimed as (
          insert into ${avtaleGiroClaim} (aria_invoice_no, bank_file_id, kid, amount_ore, due_on, created_at)
          select aria_invoice_no, ${id}, kid, open_ore, due_on, ${at} from candidate where open_ore > 0
          on conflict do nothing
        )
        select count(*)::int as chosen, max(aria_invoice_no) as last from candidate`)) as unknown as { rows: { chosen: number; last: string | number | null }[] }
      ).rows;
      if (!batch || batch.chosen < DECIDE_BATCH) break;
      after = Number(batch.last);
    }
    const [totals] = await tx
      .select({ count: sql<string>`count(*)`, amount: sql<string>`coalesce(sum(${avtaleGiroClaim.amountOre}), 0)` })
      .from(avtaleGiroClaim)
      .where(or(eq(avtaleGiroClaim.bankFileId, id), eq(avtaleGiroClaim.cancelledIn, id)));
    if (Number(totals?.count ?? 0) === 0) {
      // Nothing due and nothing withdrawn: no transmission that day (the bank takes none without an assignment).
      await tx.delete(bankFile).where(eq(bankFile.id, id));
      return null;
    }
    const [row] = await tx
      .update(bankFile)
      .set({ transactions: Number(totals?.count ?? 0), amountOre: Number(totals?.amount ?? 0) })
      .where(eq(bankFile.id, id))
      .returning();
    if (!row) throw new Error('bank_file row vanished');
    return row;
  });
}
