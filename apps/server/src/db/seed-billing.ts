import { sql } from 'drizzle-orm';
import { addDays, kidFor } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import type { Tx } from './client.ts';
import { discountCode, paymentAgreement, testProviderTransaction } from './schema.ts';

/**
 * Demo billing data (issue 6): stored payment agreements that match the demo subscriptions'
 * payment methods — ung@'s Vipps MobilePay agreement, and cards the test provider keeps (its side
 * of them too, so a test on it can charge them; Vipps MobilePay keeps no cards) — and discount
 * codes for `addDiscount`.
 * Like the rest of the seed it only adds what is missing.
 */
export async function seedBilling(tx: Tx, today: string, subscriptionId: (persona: string, titleCode: string) => string): Promise<void> {
  const at = new Date(`${addDays(today, -30)}T10:00:00Z`);
  const card = (last4: string, brand: string, expiryMonth: number, expiryYear: number) => ({ brand, last4, expiryMonth, expiryYear });
  const stored = [
    { persona: 'digital', method: 'SWEDBANK-PPG', card: card('4242', 'Visa', 12, 2030) },
    { persona: 'familie', method: 'SWEDBANK-PPG', card: card('4444', 'Mastercard', 6, 2029) },
    { persona: 'student', method: 'SWEDBANK-PPG', card: card('4242', 'Visa', 3, 2029) },
  ] as const;

  await tx
    .insert(testProviderTransaction)
    .values(
      stored.map((entry) => ({
        id: `tp_demo_${entry.persona}`,
        idempotencyKey: `demo-agreement:${entry.persona}`,
        kind: 'AGREEMENT',
        method: entry.method,
        amountOre: 0,
        status: 'AUTHORIZED',
        merchantReference: `demo-${entry.persona}`,
        agreementId: null,
        returnUrl: '/',
        description: 'Demo-avtale',
        card: entry.card,
        createdAt: at,
        updatedAt: at,
      })),
    )
    .onConflictDoNothing();

  await tx
    .insert(paymentAgreement)
    .values([
      ...stored.map((entry) => ({
        id: `demo-agreement-${entry.persona}`,
        subscriptionId: subscriptionId(entry.persona, 'ADR'),
        method: entry.method,
        status: 'ACTIVE',
        provider: 'test',
        providerAgreementId: `tp_demo_${entry.persona}`,
        cardBrand: entry.card.brand,
        cardLast4: entry.card.last4,
        cardExpiryMonth: entry.card.expiryMonth,
        cardExpiryYear: entry.card.expiryYear,
        phoneNumber: null,
        bankAccountNumber: null,
        createdAt: at,
        updatedAt: at,
      })),
      {
        // ung@ pays with a Vipps MobilePay agreement; the embedded simulator makes it again at start (npm start, tests).
        id: 'demo-agreement-ung',
        subscriptionId: subscriptionId('ung', 'ADR'),
        method: 'VIPPS',
        status: 'ACTIVE',
        provider: 'vipps',
        providerAgreementId: 'agr_DemoUng1',
        cardBrand: null,
        cardLast4: null,
        cardExpiryMonth: null,
        cardExpiryYear: null,
        phoneNumber: '+47 ••• •• 789',
        bankAccountNumber: null,
        createdAt: at,
        updatedAt: at,
      },
      {
        id: 'demo-agreement-papir',
        subscriptionId: subscriptionId('papir', 'ADR'),
        method: 'AVTALEGIRO',
        status: 'ACTIVE',
        provider: 'bank',
        // Mandate number 1 of the title's scheme: the bank confirmed it (issue 21), with its notice.
        providerAgreementId: kidFor('mandate', 1, defaultCatalogue.byTitleCode('ADR').bank),
        bankNotice: false,
        bankAccountNumber: null,
        createdAt: at,
        updatedAt: at,
      },
    ])
    .onConflictDoNothing();
  // The next mandate gets number 2 or later.
  await tx.execute(sql`select setval('avtalegiro_mandate_no_seq', greatest((select last_value from avtalegiro_mandate_no_seq), 1))`);

  await tx
    .insert(discountCode)
    .values([
      { code: 'VELKOMMEN20', titleCode: null, description: '20 % rabatt på de tre neste fakturaene', percentOff: 20, amountOffOre: null, periods: 3, validUntil: null },
      { code: 'HALVPRIS', titleCode: null, description: 'Halv pris på neste faktura', percentOff: 50, amountOffOre: null, periods: 1, validUntil: null },
      { code: 'ADRESSA100', titleCode: 'ADR', description: '100 kr i rabatt på de to neste fakturaene', percentOff: null, amountOffOre: 10_000, periods: 2, validUntil: null },
      { code: 'SOMMER2020', titleCode: null, description: 'Sommerkampanje 2020', percentOff: 30, amountOffOre: null, periods: 2, validUntil: '2020-08-31' },
    ])
    .onConflictDoNothing();
}
