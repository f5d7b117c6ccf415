import { randomUUID } from 'node:crypto';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { kidFor } from '@minside/domain';
import type { PublicationConfig } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { avtaleGiroMandateNo, paymentAgreement } from '../../db/schema.ts';

/**
 * Choosing AvtaleGiro as the way to pay (issue 21): the mandate row the payer then confirms in
 * their own netbank. The bank's side of mandates (its mandate files) is the bank area's
 * (modules/bank/mandates.ts); this is billing's, so billing never reaches into the bank area.
 */

type AgreementRow = typeof paymentAgreement.$inferSelect;

/**
 * The subscription's AvtaleGiro mandate after the subscriber chose AvtaleGiro, under the caller's
 * subscription lock: the one already PENDING or ACTIVE, else a new row. A subscription keeps one
 * customer KID for good, so a mandate the payer once confirmed (and we set aside for a card, say)
 * is ACTIVE again at once: the bank still has it.
 */
export async function chooseAvtaleGiro(tx: Tx, subscriptionId: string, title: PublicationConfig, now: Date): Promise<AgreementRow> {
  const [newest] = await tx
    .select()
    .from(paymentAgreement)
    .where(and(eq(paymentAgreement.subscriptionId, subscriptionId), eq(paymentAgreement.method, 'AVTALEGIRO')))
    .orderBy(desc(paymentAgreement.createdAt))
    .limit(1);
  if (newest && (newest.status === 'PENDING' || newest.status === 'ACTIVE')) return newest;
  let kid = newest?.providerAgreementId ?? null;
  if (!kid) {
    // Both drivers answer execute() with { rows }; drizzle types them apart.
    const { rows } = (await tx.execute(sql`select nextval(${avtaleGiroMandateNo.seqName}) as no`)) as unknown as { rows: { no: string }[] };
    const next = rows[0];
    kid = kidFor('mandate', Number(next?.no), title.bank);
  }
  // Confirmed by the bank once (it told us the payer's notice choice) and not deleted by it since.
  const stillAtBank = newest?.status === 'REPLACED' && newest.bankNotice !== null;
  await tx
    .update(paymentAgreement)
    .set({ status: 'REPLACED', updatedAt: now })
    .where(and(eq(paymentAgreement.subscriptionId, subscriptionId), ne(paymentAgreement.status, 'REPLACED'), ne(paymentAgreement.status, 'DELETED')));
  const [created] = await tx
    .insert(paymentAgreement)
    .values({
      id: randomUUID(),
      subscriptionId,
      method: 'AVTALEGIRO',
      status: stillAtBank ? 'ACTIVE' : 'PENDING',
      provider: 'bank',
      providerAgreementId: kid,
      bankNotice: stillAtBank ? newest.bankNotice : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!created) throw new Error('payment_agreement insert returned nothing');
  return created;
}
