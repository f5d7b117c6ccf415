import { and, eq, ne } from 'drizzle-orm';
import type { AvtaleGiroMandate } from '@minside/bank-files';
import { readKid } from '@minside/domain';
import type { PublicationConfig } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { account, appUser, paymentAgreement, subscription } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';
import type { Assignment, Outcome, Positioned, UnmatchedReason } from './import-record.ts';

/**
 * AvtaleGiro mandates (issue 21). The payer creates the mandate in their own netbank with the
 * title's name and the customer KID we show; the bank tells us in a mandate file (record 70), and
 * only then is the mandate ACTIVE. Nothing here asks a bank or a provider: the files do. The
 * subscriber's choice of AvtaleGiro is billing's (modules/billing/avtalegiro-mandate.ts).
 */

/**
 * The bank deleted a mandate (the payer stopped it in their netbank, or closed the account): the
 * subscription goes back to giro, and its owner is told, in the importing transaction.
 */
async function mandateDeleted(
  tx: Tx,
  deps: { mailer: Mailer; portalOrigin: (titleCode: string) => string },
  agreement: { id: string; subscriptionId: string },
  title: PublicationConfig,
): Promise<void> {
  const [moved] = await tx
    .update(subscription)
    .set({ paymentMethod: 'INVOICE' })
    .where(and(eq(subscription.id, agreement.subscriptionId), eq(subscription.paymentMethod, 'AVTALEGIRO')))
    .returning({ ariaAccountNo: subscription.ariaAccountNo, planName: subscription.planName });
  if (!moved) return;
  const [owner] = await tx
    .select({ email: appUser.email, givenName: appUser.givenName })
    .from(account)
    .innerJoin(appUser, eq(appUser.id, account.userId))
    .where(eq(account.ariaAccountNo, moved.ariaAccountNo));
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

/**
 * One record of a mandate file, in the import's transaction (import.ts): a mandate the bank
 * confirms becomes ACTIVE with the payer's notice choice; one it deleted is DELETED on every row
 * of that KID, and the subscription goes back to giro (mandateDeleted).
 */
export async function applyMandate(
  tx: Tx,
  item: Positioned<AvtaleGiroMandate>,
  deps: { mailer: Mailer; portalOrigin: (titleCode: string) => string; now: () => Date; titleOf: (assignment: Assignment) => PublicationConfig | undefined },
): Promise<Outcome> {
  const { transaction: m, assignment } = item;
  const title = deps.titleOf(assignment);
  const open = (reason: UnmatchedReason): Outcome => ({ outcome: 'UNMATCHED', reason, openAmountOre: 0, ariaInvoiceNo: null, paymentId: null, settled: false, titleCode: title?.titleCode ?? null });
  if (!title) return open('WRONG_ACCOUNT');
  if (readKid(m.kid, title.bank)?.kind !== 'mandate') return open('UNKNOWN_MANDATE');
  // Every row of ours with this KID: the one in use (PENDING or ACTIVE), and older ones set aside for a card or giro.
  const rows = await tx
    .select()
    .from(paymentAgreement)
    .where(and(eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.providerAgreementId, m.kid)))
    .for('update');
  if (rows.length === 0) return open('UNKNOWN_MANDATE');
  const current = rows.find((row) => row.status === 'PENDING' || row.status === 'ACTIVE');
  const at = deps.now();
  const done: Outcome = { outcome: 'MANDATE', reason: null, openAmountOre: 0, ariaInvoiceNo: null, paymentId: null, settled: false, titleCode: title.titleCode };
  if (m.registrationType === 2) {
    // Deleted at the bank: on every row, so choosing AvtaleGiro again waits for a new confirmation.
    await tx
      .update(paymentAgreement)
      .set({ status: 'DELETED', bankNotice: null, updatedAt: at })
      .where(and(eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.providerAgreementId, m.kid), ne(paymentAgreement.status, 'DELETED')));
    if (current) await mandateDeleted(tx, deps, current, title);
    return done;
  }
  // 0 (the bank's full list) and 1 (new or changed): the mandate stands, with the payer's notice
  // choice; a row set aside stays set aside, but remembers the bank has the mandate.
  await tx
    .update(paymentAgreement)
    .set({ bankNotice: m.notify, updatedAt: at })
    .where(and(eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.providerAgreementId, m.kid), eq(paymentAgreement.status, 'REPLACED')));
  if (current) await tx.update(paymentAgreement).set({ status: 'ACTIVE', bankNotice: m.notify, updatedAt: at }).where(eq(paymentAgreement.id, current.id));
  return done;
}
