import { addDays, formatKroner, formatLongDate, WITHDRAWAL_DAYS } from '@minside/domain';
import type { MoneyBack } from './withdrawal-refunds.ts';

export interface WithdrawalMailFacts extends Omit<MoneyBack, 'cameInOre'> {
  planName: string;
  agreedOn: string;
  deadline: string;
  /** The day of the withdrawal (Oslo): the money goes back within 14 days of it. */
  day: string;
  /** A complaint's credit set off against the agreement's invoices: the customer centre pays it back. */
  creditOre: number;
  /** A complaint's credit still waiting for a next invoice, handed to the customer centre. */
  waitingOre: number;
}

/** A sentence of what the customer centre pays back; `last` ends it with the one promise to get in touch. */
type ByThePerson = (last: boolean) => string;

/**
 * The paragraphs of the withdrawal's confirmation (the seller confirms at once, on a durable medium:
 * angrerettloven), written before the refunds are asked for. It says what goes back where: to the
 * means of payment only what the provider can refund; by the customer centre, to the buyer's account,
 * what it cannot — a payment in the bank or outside Min Side, one with Vipps or a card that cannot be
 * refunded there, an AvtaleGiro draw too late to stop — and a complaint's credit (ADR 036). The
 * customer centre's sentences each name their amount; only the last says it will get in touch.
 */
export function withdrawalParagraphs(facts: WithdrawalMailFacts): string[] {
  const { providerOre, bankOre, otherOre, drawOre, creditOre, waitingOre } = facts;
  const by = formatLongDate(addDays(facts.day, WITHDRAWAL_DAYS));
  const contact = (last: boolean, comma = '') => (last ? `${comma} og tar kontakt med deg for å få kontonummeret.` : '.');
  const givenBack = providerOre > 0 || bankOre > 0 || otherOre > 0 || drawOre > 0 || creditOre > 0;
  const byThePerson: ByThePerson[] = [];
  if (bankOre > 0) {
    byThePerson.push((last) => `Kundeservice betaler tilbake ${formatKroner(bankOre)} som du betalte i banken eller på annen måte, til kontoen din senest ${by}${contact(last, ',')}`);
  }
  if (otherOre > 0) {
    byThePerson.push((last) => `Av det du betalte, kan ${formatKroner(otherOre)} ikke betales tilbake automatisk. Kundeservice betaler beløpet tilbake til kontoen din senest ${by}${contact(last)}`);
  }
  if (drawOre > 0) {
    byThePerson.push(
      (last) =>
        `AvtaleGiro-trekket på ${formatKroner(drawOre)} kan ikke lenger stoppes. Når banken har trukket beløpet, betaler kundeservice det tilbake til kontoen din senest ${by}${contact(last, ',')}`,
    );
  }
  if (creditOre > 0) {
    byThePerson.push(
      (last) =>
        `Av det du skulle betale, ble ${formatKroner(creditOre)} dekket av en kreditnota du hadde til gode. Det beløpet kan ikke trekkes fra en ny faktura når abonnementet er avsluttet, så kundeservice betaler det tilbake til kontoen din${contact(last)}`,
    );
  }
  if (waitingOre > 0) {
    byThePerson.push(
      (last) =>
        `Du hadde ${givenBack ? 'dessuten ' : ''}${formatKroner(waitingOre)} til gode fra en kreditnota som ikke var trukket fra noen faktura ennå. Kundeservice betaler det tilbake til kontoen din${contact(last)}`,
    );
  }
  return [
    `Vi har mottatt at du angrer kjøpet av ${facts.planName}. Avtalen ble inngått ${formatLongDate(facts.agreedOn)}, og angrefristen var ${formatLongDate(facts.deadline)}.`,
    'Abonnementet er avsluttet fra i dag.',
    ...(providerOre > 0 ? [`Vi betaler tilbake ${formatKroner(providerOre)} med samme betalingsmiddel som du brukte, senest ${by}. Du får en kreditnota på e-post når pengene er sendt.`] : []),
    ...byThePerson.map((sentence, index) => sentence(index === byThePerson.length - 1)),
    // Nothing goes back at all: neither to the means of payment nor by the customer centre.
    ...(providerOre <= 0 && byThePerson.length === 0 ? ['Du har ikke betalt noe for abonnementet, så det er ingenting å betale tilbake.'] : []),
  ];
}
