import { inArray } from 'drizzle-orm';
import {
  addDays,
  addMonths,
  INTRO_PRICE_ORE,
  instStatusCodes,
  invoiceLineDescription,
  kidFor,
  formatNorwegianAccountNumber,
  osloToday,
  type BillingPeriod,
  type FeatureSet,
  type PaymentMethod,
  type Clock,
} from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import type { Database } from './client.ts';
import { account, appUser, deliveryAddress, idpAccount, invoice, studentVerification, subscription, subscriptionMember, userLogin } from './schema.ts';
import { hashPassword } from '../identity/provider/password.ts';
import { seedPlans, seedSubscriptionHistory } from './seed-subscription.ts';
import { seedBilling } from './seed-billing.ts';
import { introColumns } from '../modules/subscription/index.ts';
import { seedStudentPlans } from './seed-student.ts';
import { seedUnconnectedSubscription } from './seed-ordering.ts';

/**
 * The demo subscribers (README "Demo users"): one per situation the portal must handle, with
 * consistent rows in every table. Seeding only adds what is missing; it never changes a row
 * that exists, so running it again (every start of the embedded default) is safe and cheap.
 * Dates are relative to the day of seeding.
 */

interface Persona {
  key: string;
  email: string;
  givenName: string;
  familyName: string;
  phoneNumber: string | null;
  /** Years old on the day of seeding. */
  age: number;
  accountNo: number | null;
  firstTitleCode: string;
  balanceOre?: number;
}

const personas: Persona[] = [
  { key: 'papir', email: 'papir@minside.test', givenName: 'Kari', familyName: 'Nordmann', phoneNumber: '+4791234567', age: 58, accountNo: 40_000_001, firstTitleCode: 'ADR' },
  { key: 'digital', email: 'digital@minside.test', givenName: 'Ola', familyName: 'Hansen', phoneNumber: '+4792345678', age: 41, accountNo: 40_000_002, firstTitleCode: 'ADR' },
  { key: 'ung', email: 'ung@minside.test', givenName: 'Emma', familyName: 'Berg', phoneNumber: '+4793456789', age: 25, accountNo: 40_000_003, firstTitleCode: 'ADR' },
  { key: 'familie', email: 'familie@minside.test', givenName: 'Per', familyName: 'Olsen', phoneNumber: '+4794567890', age: 46, accountNo: 40_000_004, firstTitleCode: 'ADR' },
  { key: 'familiemedlem', email: 'familiemedlem@minside.test', givenName: 'Lise', familyName: 'Olsen', phoneNumber: '+4795678901', age: 44, accountNo: 40_000_005, firstTitleCode: 'ADR' },
  { key: 'admin', email: 'admin@firma.test', givenName: 'Anne', familyName: 'Bakke', phoneNumber: '+4796789012', age: 52, accountNo: 40_000_006, firstTitleCode: 'ADR' },
  { key: 'ansatt', email: 'ansatt@firma.test', givenName: 'Bjørn', familyName: 'Lie', phoneNumber: '+4797890123', age: 33, accountNo: 40_000_007, firstTitleCode: 'ADR' },
  { key: 'student', email: 'student@minside.test', givenName: 'Sara', familyName: 'Dahl', phoneNumber: '+4798901234', age: 22, accountNo: 40_000_008, firstTitleCode: 'ADR' },
  { key: 'oppsagt', email: 'oppsagt@minside.test', givenName: 'Knut', familyName: 'Moen', phoneNumber: '+4799012345', age: 63, accountNo: 40_000_009, firstTitleCode: 'ADR' },
  { key: 'utlopt', email: 'utlopt@minside.test', givenName: 'Eva', familyName: 'Strand', phoneNumber: '+4790123456', age: 37, accountNo: 40_000_010, firstTitleCode: 'ADR', balanceOre: 0 },
  { key: 'prove', email: 'prove@minside.test', givenName: 'Tor', familyName: 'Haugen', phoneNumber: '+4741234567', age: 29, accountNo: 40_000_011, firstTitleCode: 'ADR' },
  { key: 'ny', email: 'ny@minside.test', givenName: 'Nina', familyName: 'Nygård', phoneNumber: null, age: 31, accountNo: null, firstTitleCode: 'ADR' },
  { key: 'nystudent', email: 'ny.student@minside.test', givenName: 'Jonas', familyName: 'Vik', phoneNumber: null, age: 21, accountNo: null, firstTitleCode: 'ADR' },
  { key: 'varden', email: 'varden@minside.test', givenName: 'Vidar', familyName: 'Berntsen', phoneNumber: '+4742345678', age: 67, accountNo: 40_000_013, firstTitleCode: 'VAR' },
  // Deleted by e2e/tests/privacy.spec.ts (account deletion): nobody else may rely on it.
  { key: 'slett', email: 'slett@minside.test', givenName: 'Siri', familyName: 'Sletten', phoneNumber: '+4743456789', age: 45, accountNo: 40_000_014, firstTitleCode: 'ADR' },
  // Owned by e2e/tests/subscriber-facts.spec.ts (issue 25): a paper subscriber whose vacation
  // stops no other journey sees, and an expired paper + digital subscriber nobody restarts.
  { key: 'ferie', email: 'ferie@minside.test', givenName: 'Frida', familyName: 'Eide', phoneNumber: '+4744567890', age: 49, accountNo: 40_000_015, firstTitleCode: 'ADR' },
  { key: 'tidligere', email: 'tidligere@minside.test', givenName: 'Terje', familyName: 'Aune', phoneNumber: '+4745678901', age: 55, accountNo: 40_000_016, firstTitleCode: 'ADR', balanceOre: 0 },
];

/** When the demo users proved their addresses: before any mail the seed or the app writes. */
const DEMO_EMAIL_VERIFIED_AT = new Date('2000-01-01T00:00:00Z');

/** The identity `sub` of a demo persona: stable, so the portal's rows find the provider's account. */
function demoIdentitySub(key: string): string {
  return `demo-${key}`;
}

const demoEmails = personas.map((persona) => persona.email);

const digitalOnly: FeatureSet = { plusContent: true, ePaper: true, paper: false, familySharing: false, thirdPartyBundle: false };
const digitalFamily: FeatureSet = { ...digitalOnly, familySharing: true };
const paperAndDigital: FeatureSet = { plusContent: true, ePaper: true, paper: true, familySharing: true, thirdPartyBundle: true };

interface PlannedSubscription {
  persona: string;
  titleCode: string;
  ariaPlanId: string;
  planName: string;
  planProductType: 'COMBO' | 'DIGITAL';
  eligibleForSharing: boolean;
  instStatusCode: number;
  subscriptionInfo1?: string;
  billingPeriod: BillingPeriod;
  priceOre: number;
  paymentMethod: PaymentMethod;
  features: FeatureSet;
  startedMonthsAgo: number;
  /** Days from today to the end of the paid period (negative: already over). */
  periodEndsInDays: number;
  cancelledDaysAgo?: number;
  sharedFrom?: string;
  companyDomain?: string;
  maxMembers?: number;
  /**
   * Bought with an introductory offer (issue 25.1): the offer's price and months, recorded as an
   * order records it (`introductoryPriceOf`): the regular price stays `priceOre`, the offer ends
   * on the period end, and the subscription started the offer's months before it.
   */
  intro?: { priceOre: number; months: number };
}

const plannedSubscriptions: PlannedSubscription[] = [
  {
    persona: 'papir',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-KOMPLETT-M',
    planName: 'Komplett',
    planProductType: 'COMBO',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE,
    billingPeriod: 'MONTH',
    priceOre: 64_900,
    paymentMethod: 'AVTALEGIRO',
    features: paperAndDigital,
    startedMonthsAgo: 38,
    periodEndsInDays: 12,
    maxMembers: 4,
  },
  {
    persona: 'digital',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-DIGITAL-M',
    planName: 'Digital',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE,
    billingPeriod: 'MONTH',
    priceOre: 29_900,
    paymentMethod: 'CARD',
    features: digitalOnly,
    startedMonthsAgo: 14,
    periodEndsInDays: 20,
    maxMembers: 0,
  },
  {
    persona: 'ung',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-UNG-DIGITAL-M',
    planName: 'Ung digital',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE,
    billingPeriod: 'MONTH',
    priceOre: 9_900,
    paymentMethod: 'VIPPS',
    features: digitalOnly,
    startedMonthsAgo: 7,
    periodEndsInDays: 5,
    maxMembers: 0,
  },
  {
    persona: 'familie',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-DIGITAL-FAMILIE-M',
    planName: 'Digital Familie',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE,
    billingPeriod: 'MONTH_PREMIUM',
    priceOre: 39_900,
    paymentMethod: 'CARD',
    features: digitalFamily,
    startedMonthsAgo: 22,
    periodEndsInDays: 9,
    maxMembers: 4,
  },
  {
    persona: 'familiemedlem',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-DIGITAL-FAMILIE-MEDLEM',
    planName: 'Digital Familie (delt)',
    planProductType: 'DIGITAL',
    eligibleForSharing: false,
    instStatusCode: instStatusCodes.ACTIVE_NON_BILLABLE,
    billingPeriod: 'MONTH_PREMIUM',
    priceOre: 0,
    paymentMethod: 'NONE',
    features: digitalFamily,
    startedMonthsAgo: 10,
    periodEndsInDays: 9,
    sharedFrom: 'familie',
  },
  {
    persona: 'admin',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-BEDRIFT-DIGITAL-Y',
    planName: 'Bedrift digital',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE,
    subscriptionInfo1: 'admin',
    billingPeriod: 'YEAR',
    priceOre: 2_990_000,
    paymentMethod: 'INVOICE',
    features: digitalOnly,
    startedMonthsAgo: 16,
    periodEndsInDays: 240,
    companyDomain: 'firma.test',
    maxMembers: 25,
  },
  {
    persona: 'ansatt',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-BEDRIFT-DIGITAL-Y',
    planName: 'Bedrift digital',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE_NON_BILLABLE,
    subscriptionInfo1: 'employee',
    billingPeriod: 'YEAR',
    priceOre: 0,
    paymentMethod: 'NONE',
    features: digitalOnly,
    startedMonthsAgo: 8,
    periodEndsInDays: 240,
    sharedFrom: 'admin',
    companyDomain: 'firma.test',
  },
  {
    persona: 'student',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-STUDENT-DIGITAL-M',
    planName: 'Student digital',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE,
    billingPeriod: 'MONTH',
    priceOre: 9_900,
    paymentMethod: 'CARD',
    features: digitalOnly,
    startedMonthsAgo: 3,
    periodEndsInDays: 17,
    maxMembers: 0,
  },
  {
    persona: 'oppsagt',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-DIGITAL-M',
    planName: 'Digital',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.PENDING_CANCELLATION,
    billingPeriod: 'MONTH',
    priceOre: 29_900,
    paymentMethod: 'CARD',
    features: digitalOnly,
    startedMonthsAgo: 26,
    periodEndsInDays: 19,
    cancelledDaysAgo: 6,
    maxMembers: 0,
  },
  {
    persona: 'utlopt',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-DIGITAL-M',
    planName: 'Digital',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.CANCELLED,
    billingPeriod: 'MONTH',
    priceOre: 29_900,
    paymentMethod: 'CARD',
    features: digitalOnly,
    startedMonthsAgo: 30,
    periodEndsInDays: -45,
    cancelledDaysAgo: 70,
    maxMembers: 0,
  },
  // The 1 kr month, 16 days left: two days after seeding the renewal job invoices Digital at the regular
  // price (no stored card: the invoice waits with a pay-link), and at the period end it is ACTIVE.
  {
    persona: 'prove',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-DIGITAL-M',
    planName: 'Digital',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.TRIAL,
    billingPeriod: 'MONTH',
    priceOre: 29_900,
    paymentMethod: 'CARD',
    features: digitalOnly,
    startedMonthsAgo: 0,
    periodEndsInDays: 16,
    maxMembers: 0,
    intro: { priceOre: INTRO_PRICE_ORE, months: 1 },
  },
  {
    persona: 'slett',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-DIGITAL-M',
    planName: 'Digital',
    planProductType: 'DIGITAL',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE,
    billingPeriod: 'MONTH',
    priceOre: 29_900,
    paymentMethod: 'CARD',
    features: digitalOnly,
    startedMonthsAgo: 5,
    periodEndsInDays: 15,
    maxMembers: 0,
  },
  {
    persona: 'ferie',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-KOMPLETT-M',
    planName: 'Komplett',
    planProductType: 'COMBO',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE,
    billingPeriod: 'MONTH',
    priceOre: 64_900,
    paymentMethod: 'CARD',
    features: paperAndDigital,
    startedMonthsAgo: 20,
    periodEndsInDays: 14,
    maxMembers: 4,
  },
  {
    persona: 'tidligere',
    titleCode: 'ADR',
    ariaPlanId: 'ADR-KOMPLETT-M',
    planName: 'Komplett',
    planProductType: 'COMBO',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.CANCELLED,
    billingPeriod: 'MONTH',
    priceOre: 64_900,
    paymentMethod: 'CARD',
    features: paperAndDigital,
    startedMonthsAgo: 26,
    periodEndsInDays: -20,
    cancelledDaysAgo: 50,
    maxMembers: 0,
  },
  {
    persona: 'varden',
    titleCode: 'VAR',
    ariaPlanId: 'VAR-KOMPLETT-Q',
    planName: 'Papir + digital',
    planProductType: 'COMBO',
    eligibleForSharing: true,
    instStatusCode: instStatusCodes.ACTIVE,
    billingPeriod: 'QUARTER',
    priceOre: 189_900,
    paymentMethod: 'INVOICE',
    features: paperAndDigital,
    startedMonthsAgo: 60,
    periodEndsInDays: 44,
    maxMembers: 4,
  },
];

export interface SeedOptions {
  password: string;
  /** The clock the seed's dates are relative to: the process's, or a test's. */
  now: Clock;
}

export interface SeedResult {
  identityAccountsCreated: number;
  usersCreated: number;
}

export async function seedDemoData(database: Database, options: SeedOptions): Promise<SeedResult> {
  const { db } = database;
  const today = osloToday(options.now());
  const subscriptionId = (persona: string, titleCode: string) => `demo-${persona}-${titleCode.toLowerCase()}`;

  // Hashing is the slow part (scrypt): only for the provider accounts that are missing.
  const existing = new Set((await db.select({ email: idpAccount.email }).from(idpAccount).where(inArray(idpAccount.email, demoEmails))).map((row) => row.email));
  const missing = personas.filter((persona) => !existing.has(persona.email));
  const passwordHash = missing.length > 0 ? await hashPassword(options.password) : '';

  return db.transaction(async (tx) => {
    if (missing.length > 0) {
      await tx
        .insert(idpAccount)
        .values(
          missing.map((persona) => ({
            id: demoIdentitySub(persona.key),
            email: persona.email,
            passwordHash,
            givenName: persona.givenName,
            familyName: persona.familyName,
            phoneNumber: persona.phoneNumber,
            // Demo users are seeded as verified (issue 20): they log in at once.
            emailVerified: true,
          })),
        )
        .onConflictDoNothing();
    }

    const users = await tx
      .insert(appUser)
      .values(
        personas.map((persona) => ({
          id: `user-${persona.key}`,
          identitySub: demoIdentitySub(persona.key),
          email: persona.email,
          givenName: persona.givenName,
          familyName: persona.familyName,
          phoneNumber: persona.phoneNumber,
          birthdate: addMonths(today, -12 * persona.age - 2),
          // Proven from the start: every seeded or later mail to the address is theirs (issue 20).
          emailVerifiedAt: DEMO_EMAIL_VERIFIED_AT,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: appUser.id });
    // Each persona's login at the embedded provider (issue 24: user_login), under the main issuer's default key (OIDC_KEY).
    await tx
      .insert(userLogin)
      .values(personas.map((persona) => ({ issuer: 'account', subject: demoIdentitySub(persona.key), userId: `user-${persona.key}`, linkedAt: new Date(`${addMonths(today, -24)}T08:00:00Z`) })))
      .onConflictDoNothing();

    await tx
      .insert(account)
      .values(
        personas.flatMap((persona) =>
          persona.accountNo === null
            ? []
            : [
                {
                  ariaAccountNo: persona.accountNo,
                  userId: `user-${persona.key}`,
                  firstTitleCode: persona.firstTitleCode,
                  accountBalanceOre: persona.balanceOre ?? 0,
                },
              ],
        ),
      )
      .onConflictDoNothing();

    const accountNoOf = (key: string) => {
      const accountNo = personas.find((persona) => persona.key === key)?.accountNo;
      if (!accountNo) throw new Error(`demo persona ${key} has no account`);
      return accountNo;
    };

    // Owners first: shared subscriptions point at them.
    const ordered = [...plannedSubscriptions].sort((a, b) => Number(Boolean(a.sharedFrom)) - Number(Boolean(b.sharedFrom)));
    for (const plan of ordered) {
      const periodEnd = addDays(today, plan.periodEndsInDays);
      await tx
        .insert(subscription)
        .values({
          id: subscriptionId(plan.persona, plan.titleCode),
          ariaAccountNo: accountNoOf(plan.persona),
          titleCode: plan.titleCode,
          ariaPlanId: plan.ariaPlanId,
          planName: plan.planName,
          planProductType: plan.planProductType,
          eligibleForSharing: plan.eligibleForSharing,
          instStatusCode: plan.instStatusCode,
          subscriptionInfo1: plan.subscriptionInfo1 ?? null,
          billingPeriod: plan.billingPeriod,
          priceOre: plan.priceOre,
          ...introColumns(plan.intro ? { ...plan.intro, endsOn: periodEnd } : null),
          paymentMethod: plan.paymentMethod,
          features: plan.features,
          startedOn: plan.intro ? addMonths(periodEnd, -plan.intro.months) : addMonths(today, -plan.startedMonthsAgo),
          currentPeriodEnd: periodEnd,
          cancelledAt: plan.cancelledDaysAgo === undefined ? null : new Date(`${addDays(today, -plan.cancelledDaysAgo)}T10:00:00Z`),
          sharedFromSubscriptionId: plan.sharedFrom ? subscriptionId(plan.sharedFrom, plan.titleCode) : null,
          companyDomain: plan.companyDomain ?? null,
          maxMembers: plan.maxMembers ?? 0,
        })
        .onConflictDoNothing();
    }

    await tx
      .insert(subscriptionMember)
      .values([
        {
          id: 'demo-member-familiemedlem',
          subscriptionId: subscriptionId('familie', 'ADR'),
          kind: 'family',
          email: 'familiemedlem@minside.test',
          status: 'active',
          userId: 'user-familiemedlem',
          invitedAt: new Date(`${addMonths(today, -10)}T09:00:00Z`),
          acceptedAt: new Date(`${addMonths(today, -10)}T18:30:00Z`),
        },
        {
          id: 'demo-member-familie-invitasjon',
          subscriptionId: subscriptionId('familie', 'ADR'),
          kind: 'family',
          email: 'sofie.olsen@minside.test',
          status: 'emailSent',
          userId: null,
          invitedAt: new Date(`${addDays(today, -2)}T19:15:00Z`),
          acceptedAt: null,
        },
        {
          id: 'demo-member-ansatt',
          subscriptionId: subscriptionId('admin', 'ADR'),
          kind: 'business',
          email: 'ansatt@firma.test',
          status: 'active',
          userId: 'user-ansatt',
          invitedAt: new Date(`${addMonths(today, -8)}T08:00:00Z`),
          acceptedAt: new Date(`${addMonths(today, -8)}T08:40:00Z`),
        },
        {
          id: 'demo-member-bedrift-invitasjon',
          subscriptionId: subscriptionId('admin', 'ADR'),
          kind: 'business',
          email: 'ny.kollega@firma.test',
          status: 'emailSent',
          userId: null,
          invitedAt: new Date(`${addDays(today, -4)}T07:45:00Z`),
          acceptedAt: null,
        },
      ])
      .onConflictDoNothing();

    // Invoices: the last months of every paying subscription; papir's newest one is unpaid (the
    // bank draws it with AvtaleGiro), and varden's older one is overdue (giro: varden pays it by
    // Vipps in e2e/tests/billing.spec.ts, issue 25.6).
    const invoiceRows: (typeof invoice.$inferInsert)[] = [];
    const invoiced: { persona: string; months: number; unpaidNewest: boolean; unpaidOldest?: boolean }[] = [
      { persona: 'papir', months: 3, unpaidNewest: true },
      { persona: 'digital', months: 2, unpaidNewest: false },
      { persona: 'ung', months: 2, unpaidNewest: false },
      { persona: 'familie', months: 2, unpaidNewest: false },
      { persona: 'student', months: 2, unpaidNewest: false },
      { persona: 'oppsagt', months: 2, unpaidNewest: false },
      { persona: 'utlopt', months: 1, unpaidNewest: false },
      { persona: 'admin', months: 1, unpaidNewest: false },
      { persona: 'varden', months: 2, unpaidNewest: false, unpaidOldest: true },
      { persona: 'slett', months: 2, unpaidNewest: false },
      // Last, so the numbers above stay put: admin's coming year, unpaid. e2e/tests/keyboard.spec.ts
      // pays it by keyboard alone; papir's unpaid one belongs to billing.spec.ts.
      { persona: 'admin', months: 1, unpaidNewest: true },
    ];
    let invoiceNo = 80_000_001;
    for (const entry of invoiced) {
      const plan = plannedSubscriptions.find((candidate) => candidate.persona === entry.persona);
      if (!plan) continue;
      const periodMonths = plan.billingPeriod === 'YEAR' ? 12 : plan.billingPeriod === 'QUARTER' ? 3 : 1;
      const periodEnd = addDays(today, plan.periodEndsInDays);
      // With an unpaid newest invoice, that one is for the coming period, due before it starts.
      const first = entry.unpaidNewest ? -1 : 0;
      for (let index = first; index < first + entry.months; index++) {
        const periodTo = addDays(addMonths(periodEnd, -periodMonths * index), -1);
        const periodFrom = addMonths(addDays(periodTo, 1), -periodMonths);
        const unpaid = index === -1 || (entry.unpaidOldest === true && index === first + entry.months - 1);
        const accountNo = accountNoOf(entry.persona);
        invoiceRows.push({
          ariaInvoiceNo: invoiceNo,
          ariaAccountNo: accountNo,
          subscriptionId: subscriptionId(plan.persona, plan.titleCode),
          kid: kidFor('invoice', invoiceNo, defaultCatalogue.byTitleCode(plan.titleCode).bank),
          amountOre: plan.priceOre,
          description: invoiceLineDescription({ planName: plan.planName, periodFrom, periodTo }),
          periodFrom,
          periodTo,
          dueOn: addDays(periodFrom, -2),
          bankAccountNumber: formatNorwegianAccountNumber(defaultCatalogue.byTitleCode(plan.titleCode).bank.creditorAccount),
          paidAt: unpaid ? null : new Date(`${addDays(periodFrom, -3)}T06:00:00Z`),
        });
        invoiceNo += 1;
      }
    }
    await tx.insert(invoice).values(invoiceRows).onConflictDoNothing();
    await seedBilling(tx, today, subscriptionId);

    await tx
      .insert(deliveryAddress)
      .values([
        {
          subscriptionId: subscriptionId('papir', 'ADR'),
          name: 'Kari Nordmann',
          coName: null,
          street: 'Kongens gate',
          streetNumber: '14B',
          apartment: 'H0302',
          floor: '3',
          postalCode: '7011',
          town: 'Trondheim',
        },
        {
          subscriptionId: subscriptionId('ferie', 'ADR'),
          name: 'Frida Eide',
          coName: null,
          street: 'Innherredsveien',
          streetNumber: '21',
          apartment: null,
          floor: null,
          postalCode: '7014',
          town: 'Trondheim',
        },
        {
          subscriptionId: subscriptionId('tidligere', 'ADR'),
          name: 'Terje Aune',
          coName: null,
          street: 'Olav Tryggvasons gate',
          streetNumber: '5',
          apartment: null,
          floor: null,
          postalCode: '7013',
          town: 'Trondheim',
        },
        {
          subscriptionId: subscriptionId('varden', 'VAR'),
          name: 'Vidar Berntsen',
          coName: null,
          street: 'Hesselbergs gate',
          streetNumber: '7',
          apartment: null,
          floor: null,
          postalCode: '3722',
          town: 'Skien',
        },
      ])
      .onConflictDoNothing();

    await tx
      .insert(studentVerification)
      .values({ userId: 'user-student', studentEmail: 'sara.dahl@stud.ntnu.no', verifiedAt: new Date(`${addMonths(today, -3)}T12:00:00Z`) })
      .onConflictDoNothing();

    await seedPlans(tx, today);
    await seedStudentPlans(tx);
    await seedUnconnectedSubscription(tx, today);
    await seedSubscriptionHistory(tx, today, plannedSubscriptions);

    return { identityAccountsCreated: missing.length, usersCreated: users.length };
  });
}
