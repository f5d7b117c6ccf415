import { addDays, addMonths, formatTownName, instStatusCodes, invoiceLineDescription, formatNorwegianAccountNumber, kidFor, type BillingPeriod, type FeatureSet } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { postalCodeEntries } from '../modules/delivery/index.ts';
import { planTemplates } from './seed-subscription.ts';

/**
 * The generated subscribers of `npm run seed:large` (issue 11): a pure function of the
 * subscriber's number, so each table's COPY pass can regenerate the same subscriber without
 * holding a million of them in memory. Numbers, ids and e-mails follow from the index:
 *   idp account  scale-00000042        e-mail abonnent42@scale.minside.test
 *   app user     user-scale-00000042   account 10 000 042
 * Invoice numbers count up from 1 000 000 000, far above what the invoice sequence hands out.
 */

export const SCALE_ACCOUNT_BASE = 10_000_000;
/** Demo accounts start at 40 000 001: the generated range must stay below. */
export const SCALE_ACCOUNT_LIMIT = 40_000_000;
export const SCALE_INVOICE_BASE = 1_000_000_000;

export const scaleEmailOf = (index: number) => `abonnent${index}@scale.minside.test`;
const pad = (index: number) => String(index).padStart(8, '0');
const scaleIdentityIdOf = (index: number) => `scale-${pad(index)}`;
const scaleUserIdOf = (index: number) => `user-scale-${pad(index)}`;
const scaleAccountNoOf = (index: number) => SCALE_ACCOUNT_BASE + index;
const scaleSubscriptionIdOf = (index: number, titleCode: string) => `sub-scale-${pad(index)}-${titleCode.toLowerCase()}`;

/**
 * mulberry32: small, fast and deterministic per seed (the data must be the same in every pass;
 * bench/scale.ts draws its users with it too, so a rerun draws the same ones).
 */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const givenNames = [
  'Kari',
  'Ola',
  'Ingrid',
  'Per',
  'Anne',
  'Lars',
  'Marit',
  'Jan',
  'Liv',
  'Knut',
  'Nora',
  'Emma',
  'Jonas',
  'Sofie',
  'Henrik',
  'Sara',
  'Magnus',
  'Ida',
  'Bjørn',
  'Solveig',
  'Håkon',
  'Astrid',
  'Øystein',
  'Ragnhild',
  'Tor',
  'Hilde',
  'Erik',
  'Randi',
  'Sindre',
  'Mari',
];
const familyNames = [
  'Hansen',
  'Johansen',
  'Olsen',
  'Larsen',
  'Andersen',
  'Pedersen',
  'Nilsen',
  'Kristiansen',
  'Jensen',
  'Karlsen',
  'Johnsen',
  'Pettersen',
  'Eriksen',
  'Berg',
  'Haugen',
  'Hagen',
  'Johannessen',
  'Andreassen',
  'Jacobsen',
  'Dahl',
  'Jørgensen',
  'Halvorsen',
  'Henriksen',
  'Lund',
  'Sørensen',
  'Jakobsen',
  'Moen',
  'Gundersen',
  'Iversen',
  'Strand',
  'Solberg',
  'Svendsen',
  'Eide',
  'Knutsen',
  'Martinsen',
  'Paulsen',
  'Bakken',
  'Kristoffersen',
  'Mathisen',
  'Lie',
];
const streets = [
  'Kongens gate',
  'Storgata',
  'Kirkegata',
  'Skolegata',
  'Parkveien',
  'Strandveien',
  'Bakkeveien',
  'Industriveien',
  'Elvegata',
  'Fjordgata',
  'Nordre gate',
  'Søndre gate',
  'Granveien',
  'Bjørkeveien',
  'Furuveien',
  'Løkkeveien',
  'Haugeveien',
  'Prinsens gate',
  'Dronningens gate',
  'Jernbanegata',
];
const postalRegister = postalCodeEntries();

/**
 * `compute` with each answer kept: the same few thousand towns and dates recur across a million
 * subscribers, so the calendar arithmetic and formatting run once per distinct input.
 */
function remembered<Args extends unknown[]>(compute: (...args: Args) => string, keyOf: (...args: Args) => string): (...args: Args) => string {
  const answers = new Map<string, string>();
  return (...args) => {
    const key = keyOf(...args);
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = compute(...args);
      answers.set(key, answer);
    }
    return answer;
  };
}
const townOf = remembered(formatTownName, (name) => name);
const plusDays = remembered(addDays, (date, days) => `${date}d${days}`);
const plusMonths = remembered(addMonths, (date, months) => `${date}m${months}`);
const lineDescription = remembered(
  (planName: string, periodFrom: string, periodTo: string) => invoiceLineDescription({ planName, periodFrom, periodTo }),
  (planName, periodFrom, periodTo) => `${planName}|${periodFrom}|${periodTo}`,
);

/** Plan suffixes of seed-subscription.ts with how common each is among subscribers. */
const planWeights: [string, number][] = [
  ['DIGITAL-M', 34],
  ['KOMPLETT-M', 24],
  ['DIGITAL-Y', 8],
  ['DIGITAL-FAMILIE-M', 8],
  ['KOMPLETT-Q', 7],
  ['KOMPLETT-Y', 5],
  ['UNG-DIGITAL-M', 8],
  ['DIGITAL-HONNOR-M', 6],
];
const planTotal = planWeights.reduce((sum, [, weight]) => sum + weight, 0);
const templates = new Map(planTemplates.map((template) => [template.suffix, template]));

function pickWeighted<T>(items: [T, number][], total: number, r: number): T {
  let left = r * total;
  for (const [item, weight] of items) {
    left -= weight;
    if (left < 0) return item;
  }
  return items[items.length - 1]![0];
}

const periodMonthsOf = (period: BillingPeriod) => (period === 'YEAR' ? 12 : period === 'QUARTER' ? 3 : 1);

interface ScaleInvoice {
  no: number;
  kid: string;
  /** The title's creditor account, as printed (xxxx.xx.xxxxx). */
  bankAccountNumber: string;
  amountOre: number;
  description: string;
  periodFrom: string;
  periodTo: string;
  dueOn: string;
  createdAt: string;
  paidAt: string | null;
}

interface ScaleDeliveryChange {
  id: string;
  type: 'STOP' | 'TRANSFER';
  fromDate: string;
  toDate: string;
  address: string | null;
  status: 'active' | 'cancelled';
  placedAt: string;
  cancelledAt: string | null;
}

interface ScaleChange {
  id: string;
  at: string;
  actor: 'self' | 'customerCentre' | 'system';
  kind: 'started' | 'cancelled' | 'expired' | 'paymentMethodChanged';
  from: number | null;
  to: number | null;
  details: string;
}

interface ScaleSubscription {
  id: string;
  titleCode: string;
  ariaPlanId: string;
  planName: string;
  planProductType: 'COMBO' | 'DIGITAL';
  billingPeriod: BillingPeriod;
  priceOre: number;
  paymentMethod: string;
  features: FeatureSet;
  instStatusCode: number;
  startedOn: string;
  currentPeriodEnd: string;
  cancelledAt: string | null;
  resumeStatusCode: number | null;
  maxMembers: number;
  address: { name: string; street: string; streetNumber: string; postalCode: string; town: string; floor: string | null; apartment: string | null } | null;
  invoiceCount: number;
  /** Built only when asked for (the invoice pass): they are most of the generating work. */
  invoices: ScaleInvoice[];
  changes: ScaleChange[];
  deliveryChanges: ScaleDeliveryChange[];
}

export interface ScaleSubscriber {
  index: number;
  identityId: string;
  userId: string;
  email: string;
  givenName: string;
  familyName: string;
  phoneNumber: string | null;
  birthdate: string;
  createdAt: string;
  accountNo: number;
  subscriptions: ScaleSubscription[];
  /** Some subscribers are signed in somewhere: their session rows (hash seeds, never usable tokens). */
  hasSession: boolean;
}

export interface ScaleContext {
  today: string;
  /** Offered title codes, the biggest first: a subscriber's title is drawn with weight 1/rank. */
  titleCodes: string[];
}

/**
 * One subscriber. `nextInvoiceNo` is the first invoice number this subscriber's invoices take;
 * the caller adds `invoiceCount` of the result for the next one.
 */
export function scaleSubscriber(context: ScaleContext, index: number, nextInvoiceNo: number, withInvoices = false): ScaleSubscriber {
  const r = random(index * 2_654_435_761 + 17);
  const { today, titleCodes } = context;
  const givenName = givenNames[Math.floor(r() * givenNames.length)]!;
  const familyName = familyNames[Math.floor(r() * familyNames.length)]!;
  const accountNo = scaleAccountNoOf(index);
  const userId = scaleUserIdOf(index);
  const age = 18 + Math.floor(r() * 72);
  const birthdate = plusDays(plusMonths(today, -12 * age), -Math.floor(r() * 360));
  const phoneNumber = r() < 0.85 ? `+47${String(40_000_000 + Math.floor(r() * 59_999_999))}` : null;

  const titleWeights: [string, number][] = titleCodes.map((code, rank) => [code, 1 / (rank + 1)]);
  const titleTotal = titleWeights.reduce((sum, [, weight]) => sum + weight, 0);
  const firstTitle = pickWeighted(titleWeights, titleTotal, r());
  const titles = [firstTitle];
  // A few subscribe to a second newspaper too.
  if (r() < 0.08) {
    const second = titleCodes[Math.floor(r() * titleCodes.length)]!;
    if (second !== firstTitle) titles.push(second);
  }

  let invoiceNo = nextInvoiceNo;
  let earliest = today;
  const subscriptions = titles.map((titleCode, position): ScaleSubscription => {
    const suffix = position === 0 ? pickWeighted(planWeights, planTotal, r()) : 'DIGITAL-M';
    const template = templates.get(suffix === 'DIGITAL-HONNOR-M' && age < 67 ? 'DIGITAL-M' : suffix)!;
    const periodMonths = periodMonthsOf(template.billingPeriod);
    const invoiceCount = periodMonths === 1 ? 12 + Math.floor(r() * 13) : periodMonths === 3 ? 4 + Math.floor(r() * 5) : 2 + Math.floor(r() * 3);
    const statusRoll = r();
    const instStatusCode = statusRoll < 0.88 ? instStatusCodes.ACTIVE : statusRoll < 0.92 ? instStatusCodes.PENDING_CANCELLATION : instStatusCodes.CANCELLED;
    const cancelled = instStatusCode === instStatusCodes.CANCELLED;
    // The end of the paid period: ahead for running ones, behind for those that ran out.
    const currentPeriodEnd = cancelled ? plusDays(today, -(10 + Math.floor(r() * 300))) : plusDays(today, 1 + Math.floor(r() * periodMonths * 28));
    const startedOn = plusMonths(currentPeriodEnd, -periodMonths * invoiceCount);
    if (startedOn < earliest) earliest = startedOn;
    const paper = template.planProductType === 'COMBO';
    const methodRoll = r();
    const paymentMethod = paper
      ? methodRoll < 0.5
        ? 'AVTALEGIRO'
        : methodRoll < 0.7
          ? 'INVOICE'
          : methodRoll < 0.9
            ? 'CARD'
            : 'VIPPS'
      : methodRoll < 0.6
        ? 'CARD'
        : methodRoll < 0.9
          ? 'VIPPS'
          : 'AVTALEGIRO';
    const cancelledAt = instStatusCode === instStatusCodes.ACTIVE ? null : `${plusDays(currentPeriodEnd, -(5 + Math.floor(r() * 20)))}T10:00:00Z`;
    const id = scaleSubscriptionIdOf(index, titleCode);

    // Invoices, newest first: the current period, and for some running ones the next, unpaid.
    const bank = defaultCatalogue.byTitleCode(titleCode).bank;
    const invoices: ScaleInvoice[] = [];
    const unpaidNext = !cancelled && r() < 0.06;
    const firstPeriod = unpaidNext ? -1 : 0;
    // Numbered oldest first, as they were issued.
    const lastNo = invoiceNo + invoiceCount - firstPeriod - 1;
    if (withInvoices)
      for (let period = firstPeriod; period < invoiceCount; period++) {
        const periodTo = plusDays(plusMonths(currentPeriodEnd, -periodMonths * period), -1);
        const periodFrom = plusMonths(currentPeriodEnd, -periodMonths * (period + 1));
        const no = lastNo - (period - firstPeriod);
        invoices.push({
          no,
          kid: kidFor('invoice', no, bank),
          bankAccountNumber: formatNorwegianAccountNumber(bank.creditorAccount),
          amountOre: template.priceOre,
          description: lineDescription(template.name, periodFrom, periodTo),
          periodFrom,
          periodTo,
          dueOn: plusDays(periodFrom, -2),
          createdAt: `${plusDays(periodFrom, -14)}T04:00:00Z`,
          paidAt: period === -1 ? null : `${plusDays(periodFrom, -3)}T06:00:00Z`,
        });
      }
    invoices.reverse();
    invoiceNo = lastNo + 1;

    const changes: ScaleChange[] = [];
    const selfStarted = r() < 0.8;
    changes.push({
      id: `${id}-started`,
      at: `${startedOn}T09:30:00Z`,
      actor: selfStarted ? 'self' : 'customerCentre',
      kind: 'started',
      from: null,
      to: null,
      details: JSON.stringify({ planName: template.name }),
    });
    if (r() < 0.1) {
      changes.push({
        id: `${id}-payment`,
        at: `${plusDays(startedOn, 40)}T12:15:00Z`,
        actor: 'customerCentre',
        kind: 'paymentMethodChanged',
        from: null,
        to: null,
        details: JSON.stringify({ paymentMethod }),
      });
    }
    if (cancelledAt) {
      changes.push({ id: `${id}-cancelled`, at: cancelledAt, actor: 'self', kind: 'cancelled', from: 1, to: 2, details: JSON.stringify({ on: currentPeriodEnd, reason: 'Det er for dyrt' }) });
    }
    if (cancelled) {
      changes.push({ id: `${id}-expired`, at: `${currentPeriodEnd}T01:00:00Z`, actor: 'system', kind: 'expired', from: 2, to: -2, details: JSON.stringify({ on: currentPeriodEnd }) });
    }

    const [postalCode, registerName] = postalRegister[Math.floor(r() * postalRegister.length)]!;
    const address = paper
      ? {
          name: `${givenName} ${familyName}`,
          street: streets[Math.floor(r() * streets.length)]!,
          streetNumber: `${1 + Math.floor(r() * 120)}${r() < 0.15 ? 'B' : ''}`,
          postalCode,
          town: townOf(registerName),
          floor: r() < 0.3 ? String(1 + Math.floor(r() * 6)) : null,
          apartment: null as string | null,
        }
      : null;
    if (address?.floor) address.apartment = `H0${address.floor}0${1 + Math.floor(r() * 4)}`;

    // Vacation stops for some paper subscribers: a past one, an upcoming one, now and then a withdrawn one.
    const deliveryChanges: ScaleDeliveryChange[] = [];
    if (paper && !cancelled && r() < 0.25) {
      const stops = 1 + Math.floor(r() * 3);
      for (let stop = 0; stop < stops; stop++) {
        const fromDate = stop === 0 ? plusDays(today, 7 + Math.floor(r() * 60)) : plusDays(today, -(20 + Math.floor(r() * 300)));
        const toDate = plusDays(fromDate, 3 + Math.floor(r() * 18));
        const placedAt = `${plusDays(fromDate, -(3 + Math.floor(r() * 30)))}T18:00:00Z`;
        const withdrawn = r() < 0.1;
        const transfer = r() < 0.15;
        const [awayCode, awayName] = postalRegister[Math.floor(r() * postalRegister.length)]!;
        deliveryChanges.push({
          id: `${id}-stop-${stop}`,
          type: transfer ? 'TRANSFER' : 'STOP',
          fromDate,
          toDate,
          address: transfer
            ? JSON.stringify({
                name: `${givenName} ${familyName}`,
                coName: null,
                street: 'Hytteveien',
                streetNumber: String(1 + Math.floor(r() * 40)),
                apartment: null,
                floor: null,
                postalCode: awayCode,
                town: townOf(awayName),
              })
            : null,
          status: withdrawn ? 'cancelled' : 'active',
          placedAt,
          cancelledAt: withdrawn ? placedAt : null,
        });
      }
    }

    return {
      id,
      titleCode,
      ariaPlanId: `${titleCode}-${template.suffix}`,
      planName: template.name,
      planProductType: template.planProductType,
      billingPeriod: template.billingPeriod,
      priceOre: template.priceOre,
      paymentMethod,
      features: template.features,
      instStatusCode,
      startedOn,
      currentPeriodEnd,
      cancelledAt,
      resumeStatusCode: instStatusCode === instStatusCodes.ACTIVE ? null : instStatusCodes.ACTIVE,
      maxMembers: template.features.familySharing ? 4 : 0,
      address,
      invoiceCount: invoiceCount - firstPeriod,
      invoices,
      changes,
      deliveryChanges,
    };
  });

  return {
    index,
    identityId: scaleIdentityIdOf(index),
    userId,
    email: scaleEmailOf(index),
    givenName,
    familyName,
    phoneNumber,
    birthdate,
    createdAt: `${earliest}T08:00:00Z`,
    accountNo,
    subscriptions,
    hasSession: r() < 0.05,
  };
}

export const invoiceCountOf = (subscriber: ScaleSubscriber) => subscriber.subscriptions.reduce((sum, item) => sum + item.invoiceCount, 0);
