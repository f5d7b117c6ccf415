import {
  complaintCodeList,
  complaintRemedyLabels,
  cutoffFor,
  deliveryAddressLines,
  deliveryResumesMessage,
  deliveryResumesOn,
  formatClockTime,
  formatKroner,
  formatWeekdayDate,
  type ComplaintCode,
  type ComplaintRemedy,
  type DeliveryAddress,
  type DeliveryChangeType,
  type PublicationCalendar,
} from '@minside/domain';
import type { Tx } from '../../db/client.ts';
import type { SendConfirmation } from './change-mail-send.ts';

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

/**
 * The confirmations of what a subscriber does about delivery (issue 25.7): a vacation stop, a
 * redirect or a move placed, changed, ended early or deleted, and a complaint received. They
 * name issues, days and addresses; the subscription's own changes are subscription-change-mails.ts.
 */
export function deliveryChangeMails(send: SendConfirmation) {
  return {
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
          paragraphs = [
            `Fra og med ${from} kommer papiravisen til ${address}.`,
            ...(firstIssue !== change.fromDate ? [`Første avis på den nye adressen kommer ${formatWeekdayDate(firstIssue)}.`] : []),
            changeable,
          ];
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
