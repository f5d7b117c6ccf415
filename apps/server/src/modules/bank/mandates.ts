import { and, eq } from 'drizzle-orm';
import type { PublicationConfig } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { account, appUser, subscription } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';

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
