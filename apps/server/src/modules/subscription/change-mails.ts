import { eq } from 'drizzle-orm';
import {
  complaintCodeList,
  complaintRemedyLabels,
  cutoffFor,
  deliveryAddressLines,
  deliveryResumesMessage,
  deliveryResumesOn,
  formatClockTime,
  formatKroner,
  formatLongDate,
  formatLongInstant,
  formatWeekdayDate,
  lastDayWithAccess,
  paymentProviderLabels,
  perBillingPeriod,
  priceOn,
  renewalDay,
  type BillingPeriod,
  type ComplaintCode,
  type ComplaintRemedy,
  type DeliveryAddress,
  type DeliveryChangeType,
  type Plan,
  type PublicationCalendar,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { account, appUser, subscription } from '../../db/schema.ts';
import { subscriberMail, type MailContent, type Mailer, type TransactionalMailKind } from '../../integrations/mail/index.ts';

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

type SubscriptionRow = typeof subscription.$inferSelect;

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

/** A cancellation, undo, plan change … just made, as the lifecycle service knows it. */
export type PlanChangeConfirmation =
  | { kind: 'upgrade'; fromPlanName: string; plan: Plan; amountOre: number; invoice: { ariaInvoiceNo: number; dueOn: string } | null; undidCancellation: boolean }
  | { kind: 'downgrade' | 'afterTrial'; fromPlanName: string; plan: Plan; effectiveOn: string; undidCancellation: boolean }
  | { kind: 'withdrawn'; withdrawnPlanName: string; undidCancellation: boolean };

export type PaymentMethodConfirmation =
  | { method: 'CARD'; card: { brand: string | null; last4: string | null } | null }
  | { method: 'VIPPS' }
  | { method: 'AVTALEGIRO'; kid: string | null; confirmed: boolean }
  | { method: 'INVOICE' };

/** What happened to a delivery change: placed, changed, ended early (a started one), or deleted (an upcoming one). */
export type DeliveryChangeEvent = 'placed' | 'updated' | 'shortened' | 'deleted';

export interface DeliveryChangeConfirmation {
  id: string;
  event: DeliveryChangeEvent;
  type: DeliveryChangeType;
  fromDate: string;
  toDate: string | null;
  address: DeliveryAddress | null;
  calendar: PublicationCalendar;
  /** The cutoff (HH:MM, Oslo) the day before an issue: until then the change may still be changed. */
  cutoffTime: string;
}

export interface ComplaintConfirmation {
  caseNumber: string;
  code: ComplaintCode;
  days: string[];
  text: string | null;
  remedy: ComplaintRemedy;
  credit: { amountOre: number; creditNoteNumbers: number[] } | null;
}

const deliveryNouns: Record<DeliveryChangeType, { noun: string; action: { label: string; path: string } }> = {
  STOP: { noun: 'Stopp av avisen', action: { label: 'Se leveringsendringene dine', path: '/endre-avislevering' } },
  TRANSFER: { noun: 'Omadressering av avisen', action: { label: 'Se leveringsendringene dine', path: '/endre-avislevering' } },
  PERMANENT: { noun: 'Adresseendringen', action: { label: 'Se leveringsadressen din', path: '/leveringsadresse' } },
};

const deliveryVerbs: Record<DeliveryChangeEvent, string> = {
  placed: 'er registrert',
  updated: 'er endret',
  shortened: 'avsluttes tidligere',
  deleted: 'er slettet',
};

/** "lørdag 5. desember, mandag 7. desember og tirsdag 8. desember 2026". */
function dayList(days: readonly string[]): string {
  const sorted = [...days].sort();
  const written = sorted.map((day, index) => formatWeekdayDate(day, index === sorted.length - 1 ? 'full' : 'dayMonth'));
  return written.length <= 1 ? (written[0] ?? '') : `${written.slice(0, -1).join(', ')} og ${written.at(-1) ?? ''}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function issueCount(count: number): string {
  return count === 1 ? '1 avis' : `${count} aviser`;
}

export function createChangeMails({ mailer, catalogue, portalOrigin }: ChangeMailDeps) {
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
        footnotes: [
          ...(footnotes ?? []),
          `Registrert ${formatLongInstant(at)}. Har du spørsmål, kan du svare på denne e-posten. Oppgi ${reference ?? `kundenummer ${to.row.ariaAccountNo}`}.`,
        ],
      }),
    });
  }

  const lastDay = (row: SubscriptionRow) => formatLongDate(lastDayWithAccess(row.currentPeriodEnd));
  const price = (plan: Pick<Plan, 'priceOre' | 'nextPrice' | 'billingPeriod'>, day: string) => `${formatKroner(priceOn(plan, day))} ${perBillingPeriod[plan.billingPeriod]}`;
  const undone = 'Oppsigelsen din er samtidig angret, så abonnementet fortsetter.';

  return {
    /**
     * DELETE /api/deleteSubscription, CANCELLATION: the last day with access, and the way back; and
     * an invoice already issued for the period after it, which is credited (ADR 026) once the
     * cancellation has committed — the credit note follows by e-mail.
     */
    cancelled(tx: Tx, input: { subscriptionId: string; changeId: string; at: Date; nextInvoices: readonly { ariaInvoiceNo: number; amountOre: number; paid: boolean }[] }): Promise<void> {
      return send(tx, input.subscriptionId, 'subscriptionCancelled', `change:${input.changeId}`, input.at, ({ row }) => ({
        subject: 'oppsigelsen er registrert',
        heading: 'Oppsigelsen er registrert',
        paragraphs: [
          `Du sa opp ${row.planName} ${formatLongInstant(input.at)}.`,
          `Du har abonnementet og tilgangen til og med ${lastDay(row)}. Etter det fornyes det ikke, og du får ingen nye fakturaer for det.`,
          ...input.nextInvoices.map((next) =>
            next.paid
              ? `Du har allerede betalt faktura ${next.ariaInvoiceNo} for neste periode. Vi betaler ${formatKroner(next.amountOre)} tilbake, og du får en kreditnota på e-post når pengene er sendt.`
              : `Faktura ${next.ariaInvoiceNo} for neste periode blir kreditert, så du skal ikke betale den. Kreditnotaen får du på e-post.`,
          ),
          `Har du ombestemt deg? Du kan angre oppsigelsen på Min Side til og med ${lastDay(row)}.`,
        ],
        action: { label: 'Angre oppsigelsen', url: '/angre-oppsigelse' },
      }));
    },

    /** …/undo-cancellation: the subscription goes on, and when it renews. */
    cancellationUndone(tx: Tx, input: { subscriptionId: string; changeId: string; at: Date }): Promise<void> {
      return send(tx, input.subscriptionId, 'cancellationUndone', `change:${input.changeId}`, input.at, ({ row }) => ({
        subject: 'oppsigelsen er angret',
        heading: 'Abonnementet fortsetter',
        paragraphs: [
          `Du angret oppsigelsen av ${row.planName} ${formatLongInstant(input.at)}. Abonnementet fortsetter som før.`,
          `Neste fornyelse er ${formatLongDate(renewalDay(row.currentPeriodEnd))}.`,
        ],
        action: { label: 'Se abonnementet ditt', url: '/endre-abonnement' },
      }));
    },

    /** A retention offer taken instead of the cancellation: what it gives, and from when. */
    retentionOfferAccepted(tx: Tx, input: { subscriptionId: string; changeId: string; at: Date; headline: string; plan: Plan | null; from: string }): Promise<void> {
      return send(tx, input.subscriptionId, 'retentionOfferAccepted', `change:${input.changeId}`, input.at, ({ row }) => ({
        subject: 'du har takket ja til tilbudet',
        heading: 'Takk for at du blir',
        paragraphs: [
          `Du takket ja til «${input.headline}» ${formatLongInstant(input.at)}, i stedet for å si opp ${row.planName}.`,
          input.plan
            ? `Fra ${formatLongDate(input.from)} bytter abonnementet til ${input.plan.name}, og prisen blir ${price(input.plan, input.from)}. Til da har du ${row.planName} som før.`
            : `Den betalte perioden din varer nå til og med ${lastDay(row)}, uten at du betaler mer for det.`,
        ],
        action: { label: 'Se abonnementet ditt', url: '/endre-abonnement' },
      }));
    },

    /** POST /api/reactivateSubscription: the new period and its price. */
    reactivated(tx: Tx, input: { subscriptionId: string; changeId: string; at: Date }): Promise<void> {
      return send(tx, input.subscriptionId, 'subscriptionReactivated', `change:${input.changeId}`, input.at, ({ row }) => ({
        subject: 'abonnementet er startet igjen',
        heading: 'Velkommen tilbake',
        paragraphs: [
          `Du startet ${row.planName} igjen ${formatLongInstant(input.at)}.`,
          `Den nye perioden varer til og med ${lastDay(row)}, og prisen er ${formatKroner(row.priceOre)}${row.billingPeriod in perBillingPeriod ? ` ${perBillingPeriod[row.billingPeriod as BillingPeriod]}` : ''}.`,
        ],
        action: { label: 'Se abonnementet ditt', url: '/endre-abonnement' },
      }));
    },

    /** …/plan: an upgrade now (with its top-up invoice), a change ordered from the period end, or an ordered change withdrawn. */
    planChanged(tx: Tx, input: { subscriptionId: string; changeId: string; at: Date; change: PlanChangeConfirmation }): Promise<void> {
      const { change } = input;
      return send(tx, input.subscriptionId, 'planChanged', `change:${input.changeId}`, input.at, ({ row }) => {
        const also = change.undidCancellation ? [undone] : [];
        if (change.kind === 'withdrawn') {
          return {
            subject: `byttet til ${change.withdrawnPlanName} er trukket tilbake`,
            heading: 'Byttet er trukket tilbake',
            paragraphs: [`Du trakk tilbake byttet til ${change.withdrawnPlanName} ${formatLongInstant(input.at)}. Du beholder ${row.planName} som før.`, ...also],
            action: { label: 'Se abonnementet ditt', url: '/endre-abonnement' },
          };
        }
        if (change.kind === 'upgrade') {
          const renewal = renewalDay(row.currentPeriodEnd);
          return {
            subject: `du har byttet til ${change.plan.name}`,
            heading: `Du har byttet til ${change.plan.name}`,
            paragraphs: [
              `Du byttet fra ${change.fromPlanName} til ${change.plan.name} ${formatLongInstant(input.at)}. Det nye abonnementet gjelder fra nå.`,
              change.invoice && change.amountOre > 0
                ? `For resten av perioden, til og med ${lastDay(row)}, betaler du mellomlegget: ${formatKroner(change.amountOre)}, på faktura ${change.invoice.ariaInvoiceNo} med forfall ${formatLongDate(change.invoice.dueOn)}.`
                : 'Du betaler ikke noe ekstra for resten av perioden.',
              `Fra ${formatLongDate(renewal)} koster ${change.plan.name} ${price(change.plan, renewal)}.`,
              ...also,
            ],
            action: change.invoice ? { label: 'Se fakturaene dine', url: '/fakturaoversikt' } : { label: 'Se abonnementet ditt', url: '/endre-abonnement' },
            ...(change.invoice ? { reference: `fakturanummer ${change.invoice.ariaInvoiceNo}` } : {}),
          };
        }
        return {
          subject: `byttet til ${change.plan.name} er bestilt`,
          heading: `Byttet til ${change.plan.name} er bestilt`,
          paragraphs: [
            `Du bestilte ${formatLongInstant(input.at)} å bytte fra ${change.fromPlanName} til ${change.plan.name}.`,
            `Byttet skjer ${formatLongDate(change.effectiveOn)}. Til og med ${formatLongDate(lastDayWithAccess(change.effectiveOn))} har du ${change.fromPlanName} som før, og du betaler ikke noe nå.`,
            `Fra ${formatLongDate(change.effectiveOn)} koster ${change.plan.name} ${price(change.plan, change.effectiveOn)}.`,
            ...also,
          ],
          action: { label: 'Se abonnementet ditt', url: '/endre-abonnement' },
        };
      });
    },

    /** A new way to pay: chosen on Min Side (giro, AvtaleGiro) or approved at the provider (card, Vipps). */
    paymentMethodChanged(tx: Tx, input: { subscriptionId: string; changeId: string; at: Date; change: PaymentMethodConfirmation }): Promise<void> {
      const { change } = input;
      return send(tx, input.subscriptionId, 'paymentMethodChanged', `change:${input.changeId}`, input.at, ({ row }) => {
        const how =
          change.method === 'CARD'
            ? [`Fra nå av betaler du ${row.planName} med kort${change.card?.last4 ? ` (${change.card.brand ?? 'kort'} som slutter på ${change.card.last4})` : ''}. Beløpet trekkes fra kortet når abonnementet fornyes.`]
            : change.method === 'VIPPS'
              ? [`Fra nå av betaler du ${row.planName} med Vipps. Beløpet trekkes med Vipps-avtalen din når abonnementet fornyes.`]
              : change.method === 'INVOICE'
                ? [`Fra nå av får du fakturaene for ${row.planName} som giro eller eFaktura, og betaler dem selv i nettbanken med KID og kontonummer.`]
                : change.confirmed
                  ? [`Fra nå av betaler du ${row.planName} med AvtaleGiro: banken trekker beløpet fra kontoen din på forfallsdatoen.`]
                  : [
                      `Du har valgt AvtaleGiro for ${row.planName}. Avtalen blir ikke aktiv før du har bekreftet den i nettbanken din${change.kid ? `, med KID ${change.kid}` : ''}.`,
                      'Til banken har bekreftet avtalen, betaler du fakturaene selv i nettbanken med KID og kontonummer.',
                    ];
        return {
          subject: 'betalingsmåten er endret',
          heading: `Ny betalingsmåte: ${change.method === 'INVOICE' ? paymentProviderLabels.BANKGIRO : change.method === 'CARD' ? 'kort' : change.method === 'VIPPS' ? paymentProviderLabels.VIPPS : paymentProviderLabels.AVTALEGIRO}`,
          paragraphs: [...how, `Neste fornyelse er ${formatLongDate(renewalDay(row.currentPeriodEnd))}.`],
          action: { label: 'Se betalingsmåten', url: '/endre-betalingsmetode' },
        };
      });
    },

    /** A vacation stop, a redirect or a move placed, changed, ended early or deleted: the issues it touches and when the paper comes back. */
    deliveryChanged(tx: Tx, input: { subscriptionId: string; at: Date; change: DeliveryChangeConfirmation }): Promise<void> {
      const { change } = input;
      const { noun, action } = deliveryNouns[change.type];
      // Placed and deleted happen once to a change; it may be changed or shortened again and again.
      const key = `delivery-change:${change.id}:${change.event}${change.event === 'updated' || change.event === 'shortened' ? `:${input.at.toISOString()}` : ''}`;
      return send(tx, input.subscriptionId, 'deliveryChanged', key, input.at, () => {
        const from = formatWeekdayDate(change.fromDate);
        const to = change.toDate ? formatWeekdayDate(change.toDate) : null;
        const issues = change.toDate ? issueCount(change.calendar.publicationDaysBetween(change.fromDate, change.toDate).length) : null;
        const address = change.address ? deliveryAddressLines(change.address).join(', ') : '';
        const period = to ? `fra og med ${from} til og med ${to} (${issues})` : `fra og med ${from}, til du gir beskjed`;
        const firstIssue = change.calendar.nextPublicationDay(change.fromDate);
        const cutoff = cutoffFor(firstIssue, change.cutoffTime);
        const changeable = `Du kan endre eller slette den på Min Side til ${formatWeekdayDate(cutoff.slice(0, 10))} ${formatClockTime(cutoff.slice(11, 16))}.`;
        const resumes = change.toDate && change.type !== 'PERMANENT' ? [deliveryResumesMessage(change.type, deliveryResumesOn(change.calendar, change.toDate))] : [];
        let paragraphs: string[];
        if (change.event === 'deleted') {
          paragraphs = [
            change.type === 'PERMANENT'
              ? `Du slettet adresseendringen til ${address} fra og med ${from}. Avisen kommer fortsatt til den vanlige adressen.`
              : `Du slettet ${lowerFirst(noun)} ${period}. Avisen kommer som vanlig.`,
          ];
        } else if (change.event === 'shortened') {
          paragraphs = [`${noun} avsluttes tidligere enn planlagt. Siste dag er nå ${to ?? from}.`, ...resumes];
        } else if (change.type === 'STOP') {
          paragraphs = [`Papiravisen stoppes ${period}.`, ...resumes, changeable];
        } else if (change.type === 'TRANSFER') {
          paragraphs = [`Papiravisen sendes ${period} til ${address}.`, ...resumes, changeable];
        } else {
          paragraphs = [`Fra og med ${from} kommer papiravisen til ${address}.`, ...(firstIssue !== change.fromDate ? [`Første avis på den nye adressen kommer ${formatWeekdayDate(firstIssue)}.`] : []), changeable];
        }
        return { subject: lowerFirst(`${noun} ${deliveryVerbs[change.event]}`), heading: `${noun} ${deliveryVerbs[change.event]}`, paragraphs, action: { label: action.label, url: action.path } };
      });
    },

    /** POST /api/delivery/complaints: the case number, what was reported for which days, and the remedy (a credit with its amount). */
    complaintReceived(tx: Tx, input: { subscriptionId: string; at: Date; complaint: ComplaintConfirmation }): Promise<void> {
      const { complaint } = input;
      const label = complaintCodeList.find((entry) => entry.code === complaint.code)?.label ?? complaint.code;
      return send(tx, input.subscriptionId, 'complaintReceived', `complaint:${complaint.caseNumber}`, input.at, () => ({
        subject: `vi har fått beskjeden din om avisen (${complaint.caseNumber})`,
        heading: 'Takk, vi har fått beskjeden',
        paragraphs: [
          `Saksnummer: ${complaint.caseNumber}.`,
          `Du meldte fra om: ${label}, ${dayList(complaint.days)}.`,
          ...(complaint.text ? [`Det du skrev: «${complaint.text}»`] : []),
          `Du ba om å ${lowerFirst(complaintRemedyLabels[complaint.remedy])}.`,
          ...(complaint.credit ? [`${formatKroner(complaint.credit.amountOre)} trekkes fra neste faktura (kreditnota ${complaint.credit.creditNoteNumbers.join(', ')}).`] : []),
        ],
        ...(complaint.credit ? { action: { label: 'Se fakturaene dine', url: '/fakturaoversikt' } } : {}),
        reference: `saksnummer ${complaint.caseNumber}`,
      }));
    },
  };
}

export type ChangeMails = ReturnType<typeof createChangeMails>;
