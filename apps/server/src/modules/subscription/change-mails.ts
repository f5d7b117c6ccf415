import type { Catalogue } from '@minside/titles';
import type { Mailer } from '../../integrations/mail/index.ts';
import { createConfirmationSender } from './change-mail-send.ts';
import { deliveryChangeMails } from './delivery-change-mails.ts';
import { subscriptionChangeMails } from './subscription-change-mails.ts';

export type { DeliveryChangeEvent } from './delivery-change-mails.ts';

/**
 * The confirmation e-mail of every change a subscriber makes to the subscription or its delivery
 * (issue 25.7; the list of mails is in ADR 010 "Confirmations of changes"). Each is queued in the
 * transaction that makes the change, so a change that rolls back sends nothing and one that commits
 * is never without its mail (the outbox, ADR 010). It goes from the title's sender to the account
 * holder's address, and only once that address is proven (`emailVerifiedAt`): a confirmation of a
 * contract change to an address nobody has shown to be theirs would tell a stranger about it. The
 * mails are transactional: they answer something the person just did, so no opt-out applies.
 *
 * Every mail names the dates in prose ("7. desember 2026", "kl. 00.15"), the amount where there is
 * one, and a short reference to quote to customer service: the complaint's case number, an
 * invoice's number, else the customer number (never an internal id).
 */
export interface ChangeMailDeps {
  mailer: Mailer;
  catalogue: Catalogue;
  /** A title's portal origin (lib/portal-url.ts), for the link in the mail. */
  portalOrigin: (titleCode: string) => string;
}

/**
 * One sender (change-mail-send.ts) and the mails it sends: those of the subscription's own changes
 * (subscription-change-mails.ts) and those of delivery (delivery-change-mails.ts).
 */
export function createChangeMails({ mailer, catalogue, portalOrigin }: ChangeMailDeps) {
  const send = createConfirmationSender({ mailer, catalogue, portalOrigin });
  return { ...subscriptionChangeMails(send), ...deliveryChangeMails(send) };
}

export type ChangeMails = ReturnType<typeof createChangeMails>;
