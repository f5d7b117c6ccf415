import { eq } from 'drizzle-orm';
import { formatLongInstant } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { account, appUser, subscription } from '../../db/schema.ts';
import { subscriberMail, type MailContent, type Mailer, type TransactionalMailKind } from '../../integrations/mail/index.ts';

// How every confirmation of a change reaches its holder (change-mails.ts): the subscription as the
// change left it, the holder's proven address, the title's sender, and the footnote with the time
// and the reference to quote. What each mail says is subscription-change-mails.ts and
// delivery-change-mails.ts.

export type SubscriptionRow = typeof subscription.$inferSelect;

/** Whose change it is and how to reach them: the subscription as it now is, its title, its holder. */
interface Addressee {
  row: SubscriptionRow;
  email: string;
  givenName: string;
}

interface ConfirmationContent extends Omit<MailContent, 'subject' | 'paragraphs'> {
  /** After the title's name: "Adresseavisen: {subject}". */
  subject: string;
  paragraphs: string[];
  /** A reference other than the customer number: "saksnummer RK-100001". */
  reference?: string;
}

export function createConfirmationSender({ mailer, catalogue, portalOrigin }: { mailer: Mailer; catalogue: Catalogue; portalOrigin: (titleCode: string) => string }) {
  /** The subscription as the change left it, with its holder's proven address; none: no mail. */
  async function addresseeOf(tx: Tx, subscriptionId: string): Promise<Addressee | undefined> {
    const [found] = await tx
      .select({ row: subscription, email: appUser.email, givenName: appUser.givenName, verifiedAt: appUser.emailVerifiedAt })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .innerJoin(appUser, eq(appUser.id, account.userId))
      .where(eq(subscription.id, subscriptionId));
    return found && found.verifiedAt ? { row: found.row, email: found.email, givenName: found.givenName } : undefined;
  }

  async function send(tx: Tx, subscriptionId: string, kind: TransactionalMailKind, idempotencyKey: string, at: Date, build: (to: Addressee) => ConfirmationContent): Promise<void> {
    const to = await addresseeOf(tx, subscriptionId);
    const title = to ? catalogue.findByTitleCode(to.row.titleCode) : undefined;
    if (!to || !title) return;
    const { reference, action, footnotes, ...content } = build(to);
    await mailer.enqueue(tx, {
      kind,
      idempotencyKey,
      ...subscriberMail(title, to, {
        ...content,
        ...(action ? { action: { label: action.label, url: `${portalOrigin(title.titleCode)}${action.url}` } } : {}),
        footnotes: [...(footnotes ?? []), `Registrert ${formatLongInstant(at)}. Har du spørsmål, kan du svare på denne e-posten. Oppgi ${reference ?? `kundenummer ${to.row.ariaAccountNo}`}.`],
      }),
    });
  }

  return send;
}

export type SendConfirmation = ReturnType<typeof createConfirmationSender>;
