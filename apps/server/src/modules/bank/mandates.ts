import { randomUUID } from 'node:crypto';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { kidFor } from '@minside/domain';
import type { PublicationConfig } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { account, appUser, avtaleGiroMandateNo, paymentAgreement, subscription } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';

/**
 * AvtaleGiro mandates (issue 21). The payer creates the mandate in their own netbank with the
 * title's name and the customer KID we show; the bank tells us in a mandate file (record 70), and
 * only then is the mandate ACTIVE. Nothing here asks a bank or a provider: the files do.
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
  await tx.update(paymentAgreement).set({ status: 'REPLACED', updatedAt: now }).where(and(eq(paymentAgreement.subscriptionId, subscriptionId), ne(paymentAgreement.status, 'REPLACED'), ne(paymentAgreement.status, 'DELETED')));
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

/**
 * The bank deleted a mandate (the payer stopped it in their netbank, or closed the account): the
 * subscription goes back to giro, and its owner is told, in the importing transaction.
 */
export async function mandateDeleted(tx: Tx, deps: { mailer: Mailer; portalOrigin: (titleCode: string) => string }, agreement: { id: string; subscriptionId: string }, title: PublicationConfig): Promise<void> {
  const [moved] = await tx
    .update(subscription)
    .set({ paymentMethod: 'INVOICE' })
    .where(and(eq(subscription.id, agreement.subscriptionId), eq(subscription.paymentMethod, 'AVTALEGIRO')))
    .returning({ ariaAccountNo: subscription.ariaAccountNo, planName: subscription.planName });
  if (!moved) return;
  const [owner] = await tx.select({ email: appUser.email, givenName: appUser.givenName }).from(account).innerJoin(appUser, eq(appUser.id, account.userId)).where(eq(account.ariaAccountNo, moved.ariaAccountNo));
  if (!owner) return;
  await deps.mailer.enqueue(tx, {
    to: owner.email,
    title,
    kind: 'avtalegiroStopped',
    idempotencyKey: `avtalegiro-deleted:${agreement.id}`,
    ...titleMail(title, {
      subject: `${title.name}: AvtaleGiro-avtalen er stoppet`,
      heading: 'AvtaleGiro er stoppet',
      paragraphs: [
        `Hei ${owner.givenName}!`,
        `Banken din har gitt oss beskjed om at AvtaleGiro-avtalen for ${moved.planName} er slettet. Fakturaene kommer derfor som vanlig giro fra nå av, og du betaler dem i nettbanken med KID og kontonummer.`,
        'Vil du ha AvtaleGiro igjen, eller heller betale med kort eller Vipps, kan du velge det på Min side.',
      ],
      action: { label: 'Velg betalingsmåte', url: `${deps.portalOrigin(title.titleCode)}/endre-betalingsmetode` },
    }),
  });
}
