import { formatKroner, formatLongDate, formatLongInstant, lastDayWithAccess, paymentProviderLabels, perBillingPeriod, priceOn, renewalDay, type BillingPeriod, type Plan } from '@minside/domain';
import type { Tx } from '../../db/client.ts';
import type { SendConfirmation, SubscriptionRow } from './change-mail-send.ts';

/** A cancellation, undo, plan change … just made, as the lifecycle service knows it. */
export type PlanChangeConfirmation =
  | { kind: 'upgrade'; fromPlanName: string; plan: Plan; amountOre: number; invoice: { ariaInvoiceNo: number; dueOn: string } | null; undidCancellation: boolean }
  | { kind: 'downgrade' | 'afterTrial'; fromPlanName: string; plan: Plan; effectiveOn: string; undidCancellation: boolean }
  | { kind: 'withdrawn'; withdrawnPlanName: string; undidCancellation: boolean };

export type PaymentMethodConfirmation =
  { method: 'CARD'; card: { brand: string | null; last4: string | null } | null } | { method: 'VIPPS' } | { method: 'AVTALEGIRO'; kid: string | null; confirmed: boolean } | { method: 'INVOICE' };

/**
 * The confirmations of changes to the subscription itself (issue 25.7): a cancellation and its
 * undoing, a retention offer taken, a restart, a plan change, a new way to pay. Apart from those
 * of delivery (delivery-change-mails.ts), which speak of issues and addresses rather than periods and prices.
 */
export function subscriptionChangeMails(send: SendConfirmation) {
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
            ? [
                `Fra nå av betaler du ${row.planName} med kort${change.card?.last4 ? ` (${change.card.brand ?? 'kort'} som slutter på ${change.card.last4})` : ''}. Beløpet trekkes fra kortet når abonnementet fornyes.`,
              ]
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
  };
}
