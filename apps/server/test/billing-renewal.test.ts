import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  calendarDaysBetween,
  changeLogResponseSchema,
  formatKroner,
  instStatusCodes,
  isValidKid,
  kidFor,
  orderSchema,
  osloToday,
  paymentRedirectSchema,
  priceChangesResponseSchema,
  priceOn,
  reactivateSubscriptionResponseSchema,
  systemClock,
} from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { CHARGE_LEAD_DAYS } from '../src/integrations/payment/vipps-provider.ts';
import { CLAIM_MIN_LEAD_DAYS } from '../src/modules/billing/claim-window.ts';
import { RENEWAL_LEAD_DAYS } from '../src/modules/billing/jobs.ts';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser } from './browser.ts';
import { answerAtVipps, signIn, vippsClientOf, vippsOf } from './support.ts';

// Issue 6 renewals: the next period's invoice is issued before the period ends, exactly once
// per period however often (and however concurrently) the job runs; a Vipps agreement is charged
// when the invoice falls due (Vipps MobilePay, the simulator embedded in the test app, takes the
// charge on its due date), AvtaleGiro waits for the bank, giro waits with a pay-link e-mail, and so
// does a card Vipps MobilePay does not keep; discounts apply to the next invoices. A stored card
// is charged in the last describe, with a provider that keeps cards.

const DAY = 24 * 60 * 60 * 1000;
const subscriptions = { papir: 'demo-papir-adr', digital: 'demo-digital-adr', ung: 'demo-ung-adr', varden: 'demo-varden-var' } as const;
/** ung@'s Vipps agreement (seed-billing.ts), restored into the embedded simulator at start. */
const UNG_AGREEMENT = 'agr_DemoUng1';

interface InvoiceRow {
  aria_invoice_no: number;
  period_from: string;
  amount_ore: number;
  kid: string;
  due_on: string;
  paid_at: Date | null;
  settled_by: string | null;
  description: string;
}

describe.each(testDatabases)('billing renewals ($name)', ({ name }) => {
  let test: TestApp;
  let offsetDays = 0;
  const now = () => new Date(systemClock().getTime() + offsetDays * DAY);
  const seededToday = osloToday(systemClock());
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now });
  });
  afterAll(() => test.close());

  const invoicesOf = (subscriptionId: string) =>
    test.database.rows<InvoiceRow>(sql`
      select aria_invoice_no::int as aria_invoice_no, period_from::text as period_from, amount_ore, kid, due_on::text as due_on, paid_at, settled_by, description
      from invoice where subscription_id = ${subscriptionId} order by period_from, aria_invoice_no`);
  const periodEnd = async (subscriptionId: string) =>
    (await test.database.rows<{ end: string }>(sql`select current_period_end::text as "end" from subscription where id = ${subscriptionId}`))[0]?.end ?? '';
  const mailAbout = async (to: string, ariaInvoiceNo: number | undefined) =>
    (await test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = ${to}`)).find((row) => row.subject.includes(`faktura ${ariaInvoiceNo}`))
      ?.text ?? '';
  const renewalPayments = (subscriptionId: string) =>
    test.database.rows<{ status: string; method: string; aria_invoice_no: number }>(
      sql`select status, method, aria_invoice_no::int as aria_invoice_no from payment where subscription_id = ${subscriptionId} and purpose = 'RENEWAL'`,
    );
  const vipps = () => vippsOf(test);
  /** Vipps MobilePay's own view, asked with the keys the app fetched its access token with. */
  const atVipps = () => vippsClientOf(test, now);

  it('applies a discount code to the next renewal invoice', async () => {
    const browser = new TestBrowser(() => injectTransport(test.app));
    expect((await login(browser, { portal: 'http://adresseavisen.localhost:3000', email: 'ung@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
    const added = await browser.request('POST', 'http://adresseavisen.localhost:3000/api/addDiscount', { json: { ariaAccountNo: 40_000_003, titleCode: 'ADR', discountCode: 'VELKOMMEN20' } });
    expect(added.status, added.body).toBe(200);

    // ung's period ends in 5 days: inside the 14-day lead, so today's run issues it.
    const end = await periodEnd(subscriptions.ung);
    expect(end).toBe(addDays(seededToday, 5));
    const report = await test.app.billingJobs.runRenewals();
    expect(report.invoicesIssued).toBeGreaterThanOrEqual(1);
    const issued = (await invoicesOf(subscriptions.ung)).filter((row) => row.period_from === end);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ amount_ore: 7_920, paid_at: null });
    expect(issued[0]?.description).toContain('VELKOMMEN20');
    expect(isValidKid(issued[0]?.kid ?? '', defaultCatalogue.byTitleCode('ADR').bank)).toBe(true);
    const credits = await test.database.rows<{ amount_ore: number; reason: string }>(sql`select amount_ore, reason from invoice_credit where aria_invoice_no = ${issued[0]?.aria_invoice_no}`);
    expect(credits).toEqual([{ amount_ore: 1_980, reason: 'Rabatt VELKOMMEN20' }]);
    const details = await browser.request('POST', 'http://adresseavisen.localhost:3000/api/getDiscountDetails', { json: { ariaAccountNo: 40_000_003, titleCode: 'ADR' } });
    expect(details.json()).toMatchObject({ discount: { discountCode: 'VELKOMMEN20', remainingPeriods: 2 } });
  });

  it('issues exactly one invoice per period when run twice and concurrently', async () => {
    offsetDays = 7;
    const end = await periodEnd(subscriptions.digital);
    expect(end).toBe(addDays(seededToday, 20));
    await Promise.all([test.app.billingJobs.runRenewals(), test.app.billingJobs.runRenewals()]);
    await test.app.billingJobs.runRenewals();
    const forPeriod = (await invoicesOf(subscriptions.digital)).filter((row) => row.period_from === end);
    expect(forPeriod).toHaveLength(1);
    expect(forPeriod[0]).toMatchObject({ amount_ore: 29_900, due_on: addDays(end, -2), paid_at: null });

    // papir already had next period's invoice (the unpaid one): no second one for that period.
    const papirEnd = await periodEnd(subscriptions.papir);
    expect((await invoicesOf(subscriptions.papir)).filter((row) => row.period_from === papirEnd)).toHaveLength(1);
    // ung's period has begun: it rolled over once, and its next invoice is not due to be issued yet.
    expect(await periodEnd(subscriptions.ung)).toBe(addMonths(addDays(seededToday, 5), 1));
  });

  it('charges ung’s Vipps agreement when due, once; a card Vipps MobilePay does not keep waits with a pay-link e-mail; AvtaleGiro is never paid without the bank', async () => {
    const ungPeriod = addDays(seededToday, 5);
    offsetDays = 18; // digital's due date (2 days before the period) and past papir's (12 − 2) and ung's (5 − 2)
    await test.app.billingJobs.runRenewals();
    await test.app.billingJobs.runRenewals();
    // ung's discounted invoice: a charge on the Vipps agreement was made when it fell due (the
    // previous test's runs, at day 7), due the provider's lead time ahead; nothing is paid before
    // Vipps MobilePay has taken it…
    const [charge] = await test.database.rows<{ id: string; status: string; provider_reference: string }>(
      sql`select id, status, provider_reference from payment where subscription_id = ${subscriptions.ung} and purpose = 'RENEWAL'`,
    );
    const ungInvoice = (await invoicesOf(subscriptions.ung)).find((row) => row.period_from === ungPeriod);
    expect(charge).toMatchObject({ status: 'PENDING', provider_reference: `charge:${UNG_AGREEMENT}:${charge?.id}` });
    expect(ungInvoice).toMatchObject({ amount_ore: 7_920, paid_at: null });
    // …which it does on the charge's due date (its webhook tells us): the invoice is paid by it at the
    // discounted amount, once, however often the jobs run after.
    await vipps().processCharges();
    await vipps().flushWebhooks();
    const paid = (await invoicesOf(subscriptions.ung)).find((row) => row.period_from === ungPeriod);
    expect(paid).toMatchObject({ settled_by: 'VIPPS' });
    expect(paid?.paid_at).not.toBeNull();
    await test.app.billingJobs.runRenewals();
    await test.app.billingJobs.runReconciliation();
    expect(await renewalPayments(subscriptions.ung)).toEqual([{ status: 'CAPTURED', method: 'VIPPS', aria_invoice_no: ungInvoice?.aria_invoice_no }]);
    expect(await atVipps().recurring.getCharge(UNG_AGREEMENT, charge?.id ?? '')).toMatchObject({ status: 'CHARGED', amount: 7_920 });

    // digital's card is kept by another provider (the seed's test provider); Vipps MobilePay keeps
    // none to charge: the invoice waits like a giro, and its e-mail said so, with a pay-link.
    const end = addDays(seededToday, 20);
    const digital = (await invoicesOf(subscriptions.digital)).find((row) => row.period_from === end);
    expect(digital).toMatchObject({ settled_by: null, paid_at: null });
    expect(await renewalPayments(subscriptions.digital)).toEqual([]);
    const digitalMail = await mailAbout('digital@minside.test', digital?.aria_invoice_no);
    expect(digitalMail).toContain('Vi har ikke et betalingskort vi kan trekke denne fakturaen fra.');
    expect(digitalMail).toContain(`KID: ${digital?.kid}`);
    expect(digitalMail).toMatch(/\/betaling\?token=\S+/);

    const papirUnpaid = (await invoicesOf(subscriptions.papir)).find((row) => row.period_from === addDays(seededToday, 12));
    // Past its due date and still unpaid: only the bank's OCR file can say the draw happened (issue 21, test/bank.test.ts).
    expect(papirUnpaid).toMatchObject({ settled_by: null, paid_at: null });
    expect(await renewalPayments(subscriptions.papir)).toEqual([]);
  });

  it('leaves a giro invoice waiting and mails a working pay-link', async () => {
    offsetDays = 31; // varden (quarterly, giro) ends in 44 days
    const end = addDays(seededToday, 44);
    await test.app.billingJobs.runRenewals();
    const issued = (await invoicesOf(subscriptions.varden)).filter((row) => row.period_from === end);
    expect(issued).toHaveLength(1);
    offsetDays = 44;
    await test.app.billingJobs.runRenewals();
    const [after] = (await invoicesOf(subscriptions.varden)).filter((row) => row.period_from === end);
    expect(after?.paid_at).toBeNull();
    expect(await renewalPayments(subscriptions.varden)).toEqual([]);

    const mails = await test.database.rows<{ to_address: string; subject: string; text: string }>(sql`select to_address, subject, text from mail_outbox where to_address = 'varden@minside.test'`);
    const mail = mails.find((row) => row.subject.includes(String(after?.aria_invoice_no)));
    expect(mail?.text).toContain(`KID: ${after?.kid}`);
    const link = /http:\/\/varden\.localhost:3000(\/betaling\?token=\S+)/.exec(mail?.text ?? '')?.[1];
    expect(link).toBeDefined();
    const token = decodeURIComponent(new URL(`http://x${link}`).searchParams.get('token') ?? '');
    const details = await test.app.inject({ method: 'GET', url: `/api/paylink/${encodeURIComponent(token)}` });
    // Past its due date and still unpaid: Forfalt.
    expect(details.json()).toMatchObject({ ariaInvoiceNo: after?.aria_invoice_no, status: 'OVERDUE', payable: true, titleCode: 'VAR' });
  });

  // Last: it moves the clock on day by day.
  it('the AvtaleGiro invoice e-mail says the bank draws it only once the bank has confirmed the mandate', async () => {
    // Day by day, as the scheduled job runs, until papir's next invoice is issued; its e-mail.
    const nextInvoiceMail = async () => {
      const before = new Set((await invoicesOf(subscriptions.papir)).map((row) => row.aria_invoice_no));
      for (let day = 0; day < 40; day += 1) {
        offsetDays += 1;
        await test.app.billingJobs.runRenewals();
        const issued = (await invoicesOf(subscriptions.papir)).find((row) => !before.has(row.aria_invoice_no));
        if (issued) return mailAbout('papir@minside.test', issued.aria_invoice_no);
      }
      throw new Error('no renewal invoice for papir in 40 days');
    };
    expect(await nextInvoiceMail()).toContain('Beløpet trekkes med AvtaleGiro på forfallsdatoen.');
    await test.database.rows(sql`update payment_agreement set status = 'PENDING' where subscription_id = ${subscriptions.papir} and method = 'AVTALEGIRO'`);
    const pending = await nextInvoiceMail();
    expect(pending).toContain('AvtaleGiro-avtalen din venter på bekreftelse fra banken.');
    expect(pending).not.toContain('trekkes med AvtaleGiro');
    await test.database.rows(sql`update payment_agreement set status = 'ACTIVE' where subscription_id = ${subscriptions.papir} and method = 'AVTALEGIRO'`);
  });
});

describe.each(testDatabases)('billing renewals, charging a stored card ($name)', ({ name }) => {
  // The test provider stands in for a card-storing provider (Vipps MobilePay keeps none).
  let test: TestApp;
  let offsetDays = 0;
  const now = () => new Date(systemClock().getTime() + offsetDays * DAY);
  const seededToday = osloToday(systemClock());
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now, config: { paymentProvider: 'test', vipps: undefined } });
  });
  afterAll(() => test.close());

  it('charges the stored card on the due date, once', async () => {
    const end = addDays(seededToday, 20);
    offsetDays = 18; // digital's due date: 2 days before the period; the invoice is issued and collected in one run
    await Promise.all([test.app.billingJobs.runRenewals(), test.app.billingJobs.runRenewals()]);
    await test.app.billingJobs.runRenewals();
    const [digital] = await test.database.rows<{ aria_invoice_no: number; due_on: string; paid_at: Date | null; settled_by: string | null }>(
      sql`select aria_invoice_no::int as aria_invoice_no, due_on::text as due_on, paid_at, settled_by from invoice where subscription_id = ${subscriptions.digital} and period_from = ${end}`,
    );
    expect(digital).toMatchObject({ due_on: addDays(end, -2), settled_by: 'SWEDBANK-PPG' });
    expect(digital?.paid_at).not.toBeNull();
    const payments = await test.database.rows(
      sql`select status, method, aria_invoice_no::int as aria_invoice_no from payment where subscription_id = ${subscriptions.digital} and purpose = 'RENEWAL'`,
    );
    expect(payments).toEqual([{ status: 'CAPTURED', method: 'SWEDBANK-PPG', aria_invoice_no: digital?.aria_invoice_no }]);
  });
});

describe.each(testDatabases)('reactivation bills its first period at once ($name)', ({ name }) => {
  // "Start abonnementet igjen" gives access today, so today's period is billed today, through the
  // one function that bills every period (ADR 006); the money moves as for any invoice: a stored
  // card when the job collects it on its due date, AvtaleGiro in the bank's claim file.
  // The test provider stands in for a card-storing provider, as above.
  const PORTAL = 'http://adresseavisen.localhost:3000';
  let test: TestApp;
  let bankDir: string;
  const today = () => osloToday(systemClock());
  beforeAll(async () => {
    bankDir = mkdtempSync(path.join(tmpdir(), 'minside-reactivation-bank-'));
    test = await buildTestApp(name, { seed: true, config: { paymentProvider: 'test', vipps: undefined, bankFilesDir: bankDir } });
  });
  afterAll(async () => {
    await test.close();
    rmSync(bankDir, { recursive: true, force: true });
  });

  const reactivate = async (email: string, accountNo: number) => {
    const browser = await signIn(test, PORTAL, email);
    const response = await browser.request('POST', `${PORTAL}/api/reactivateSubscription/`, { json: { ariaAccountNo: accountNo, titleCode: 'ADR', email } });
    expect(response.status, response.body).toBe(200);
    return reactivateSubscriptionResponseSchema.parse(response.json());
  };
  const invoiceOf = async (subscriptionId: string, periodFrom: string) =>
    test.database.rows<InvoiceRow & { period_to: string }>(sql`
      select aria_invoice_no::int as aria_invoice_no, period_from::text as period_from, period_to::text as period_to, amount_ore, kid, due_on::text as due_on, paid_at, settled_by, description
      from invoice where subscription_id = ${subscriptionId} and period_from = ${periodFrom}`);
  const renewalPayments = (subscriptionId: string) =>
    test.database.rows<{ status: string; method: string; amount_ore: number; aria_invoice_no: number }>(
      sql`select status, method, amount_ore, aria_invoice_no::int as aria_invoice_no from payment where subscription_id = ${subscriptionId} and purpose = 'RENEWAL'`,
    );

  it('a stored card: the invoice is due today, and the job charges the card for it, once', async () => {
    // utlopt's card, kept by the provider (as the seed keeps digital's): still on file after the subscription expired.
    const at = systemClock();
    await test.database
      .rows(sql`insert into test_provider_transaction (id, idempotency_key, kind, method, amount_ore, status, merchant_reference, agreement_id, return_url, description, card, created_at, updated_at)
      values ('tp_test_utlopt', 'test-agreement:utlopt', 'AGREEMENT', 'SWEDBANK-PPG', 0, 'AUTHORIZED', 'test-utlopt', null, '/', 'Testavtale', ${JSON.stringify({ brand: 'Visa', last4: '4242', expiryMonth: 12, expiryYear: 2031 })}::jsonb, ${at}, ${at})`);
    await test.database
      .rows(sql`insert into payment_agreement (id, subscription_id, method, status, provider, provider_agreement_id, card_brand, card_last4, card_expiry_month, card_expiry_year, created_at, updated_at)
      values ('test-agreement-utlopt', 'demo-utlopt-adr', 'SWEDBANK-PPG', 'ACTIVE', 'test', 'tp_test_utlopt', 'Visa', '4242', 12, 2031, ${at}, ${at})`);

    const day = today();
    const answer = await reactivate('utlopt@minside.test', 40_000_010);
    const [issued] = await invoiceOf('demo-utlopt-adr', day);
    expect(issued).toMatchObject({ amount_ore: answer.subscription.priceOre, period_to: addDays(addMonths(day, 1), -1), due_on: day, paid_at: null });
    expect(answer.invoice).toEqual({
      ariaInvoiceNo: issued?.aria_invoice_no,
      amountOre: answer.subscription.priceOre,
      periodFrom: day,
      periodTo: addDays(addMonths(day, 1), -1),
      dueOn: day,
      payment: 'card',
    });
    // Money moves on the provider's word only: nothing is charged by the reactivation itself.
    expect(await renewalPayments('demo-utlopt-adr')).toEqual([]);

    await Promise.all([test.app.billingJobs.runRenewals(), test.app.billingJobs.runRenewals()]);
    await test.app.billingJobs.runRenewals();
    expect(await invoiceOf('demo-utlopt-adr', day)).toEqual([expect.objectContaining({ aria_invoice_no: issued?.aria_invoice_no, settled_by: 'SWEDBANK-PPG' })]);
    expect(await renewalPayments('demo-utlopt-adr')).toEqual([{ status: 'CAPTURED', method: 'SWEDBANK-PPG', amount_ore: answer.subscription.priceOre, aria_invoice_no: issued?.aria_invoice_no }]);
  });

  it('a confirmed AvtaleGiro mandate: due when the next claim file can still carry it, and the claim run claims it', async () => {
    // tidligere, moved to AvtaleGiro with a mandate the bank has confirmed before the subscription ran out.
    const at = systemClock();
    const mandateKid = kidFor('mandate', 901, defaultCatalogue.byTitleCode('ADR').bank);
    await test.database.rows(sql`update subscription set payment_method = 'AVTALEGIRO' where id = 'demo-tidligere-adr'`);
    await test.database.rows(sql`insert into payment_agreement (id, subscription_id, method, status, provider, provider_agreement_id, bank_notice, created_at, updated_at)
      values ('test-agreement-tidligere', 'demo-tidligere-adr', 'AVTALEGIRO', 'ACTIVE', 'bank', ${mandateKid}, false, ${at}, ${at})`);

    const day = today();
    const answer = await reactivate('tidligere@minside.test', 40_000_016);
    const dueOn = addDays(day, CLAIM_MIN_LEAD_DAYS + 1);
    const [issued] = await invoiceOf('demo-tidligere-adr', day);
    expect(issued).toMatchObject({ amount_ore: answer.subscription.priceOre, due_on: dueOn, paid_at: null });
    expect(answer.invoice).toMatchObject({ ariaInvoiceNo: issued?.aria_invoice_no, periodFrom: day, dueOn, payment: 'avtalegiro' });
    const mail = (await test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = 'tidligere@minside.test'`)).find((row) =>
      row.subject.includes(`ny faktura ${issued?.aria_invoice_no}`),
    );
    expect(mail?.text).toContain('Beløpet trekkes med AvtaleGiro på forfallsdatoen.');

    await test.app.bank.claims(day);
    const claims = await test.database.rows<{ kid: string; amount_ore: number; due_on: string }>(
      sql`select kid, amount_ore, due_on::text as due_on from avtalegiro_claim where aria_invoice_no = ${issued?.aria_invoice_no ?? 0}`,
    );
    expect(claims).toEqual([{ kid: mandateKid, amount_ore: answer.subscription.priceOre, due_on: dueOn }]);
  });
});

describe.each(testDatabases)('billing renewals, the end of the 1 kr month ($name)', ({ name }) => {
  // SPEC §9's offer, as the order page sells it: "1 kr første måned, deretter 299 kr per måned".
  // The trial is not paying while it runs (SPEC §4), but when it ends the subscription renews at
  // the regular price like any paying one, and from that day it is ACTIVE.
  const PORTAL = 'http://adresseavisen.localhost:3000';
  let test: TestApp;
  let offsetDays = 0;
  const now = () => new Date(systemClock().getTime() + offsetDays * DAY);
  const seededToday = osloToday(systemClock());
  /** Moves the clock to `day` (an ISO date on or after the seeded today). */
  const setToday = (day: string) => {
    offsetDays = calendarDaysBetween(seededToday, day);
    expect(osloToday(now())).toBe(day);
  };
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now });
  });
  afterAll(() => test.close());

  interface SubscriptionRow {
    id: string;
    aria_account_no: number;
    inst_status_code: number;
    price_ore: number;
    intro_price_ore: number | null;
    intro_ends_on: string | null;
    current_period_end: string;
    payment_method: string;
  }
  const subscriptionOf = async (userId: string) =>
    (
      await test.database.rows<SubscriptionRow>(sql`
        select s.id, s.aria_account_no::int as aria_account_no, s.inst_status_code, s.price_ore, s.intro_price_ore, s.intro_ends_on::text as intro_ends_on,
               s.current_period_end::text as current_period_end, s.payment_method
        from subscription s join account a on a.aria_account_no = s.aria_account_no where a.user_id = ${userId} and s.title_code = 'ADR'`)
    )[0];
  const invoicesOf = (subscriptionId: string) =>
    test.database.rows<InvoiceRow & { period_to: string }>(sql`
      select aria_invoice_no::int as aria_invoice_no, period_from::text as period_from, period_to::text as period_to, amount_ore, kid, due_on::text as due_on, paid_at, settled_by, description
      from invoice where subscription_id = ${subscriptionId} order by period_from, aria_invoice_no`);
  const changesOf = (subscriptionId: string, kind: string) =>
    test.database.rows<{ actor: string; from_status_code: number | null; to_status_code: number | null; details: Record<string, unknown> }>(
      sql`select actor, from_status_code, to_status_code, details from subscription_change where subscription_id = ${subscriptionId} and kind = ${kind}`,
    );
  const renewalPayments = (subscriptionId: string) =>
    test.database.rows<{ status: string; method: string; amount_ore: number; aria_invoice_no: number }>(
      sql`select status, method, amount_ore, aria_invoice_no::int as aria_invoice_no from payment where subscription_id = ${subscriptionId} and purpose = 'RENEWAL'`,
    );
  const runTwiceAtOnceAndAgain = async () => {
    await Promise.all([test.app.billingJobs.runRenewals(), test.app.billingJobs.runRenewals()]);
    await test.app.billingJobs.runRenewals();
  };

  // First, while nobody else's trial is running: the seeded prove@ (Digital, the 1 kr month, ends in 16 days).
  it('a cancelled trial is neither invoiced nor converted, before or after its period end', async () => {
    const trialEnd = addDays(seededToday, 16);
    const before = await subscriptionOf('user-prove');
    expect(before).toMatchObject({ id: 'demo-prove-adr', inst_status_code: instStatusCodes.TRIAL, price_ore: 29_900, intro_price_ore: 100, intro_ends_on: trialEnd, current_period_end: trialEnd });
    const prove = await signIn(test, PORTAL, 'prove@minside.test');
    const cancelled = await prove.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ariaAccountNo: before?.aria_account_no, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'PRICE' },
    });
    expect(cancelled.status, cancelled.body).toBe(200);
    for (const day of [addDays(trialEnd, -RENEWAL_LEAD_DAYS), addDays(trialEnd, -2), trialEnd, addDays(trialEnd, 1)]) {
      setToday(day);
      await runTwiceAtOnceAndAgain();
    }
    expect(await invoicesOf('demo-prove-adr')).toEqual([]);
    expect(await renewalPayments('demo-prove-adr')).toEqual([]);
    expect(await subscriptionOf('user-prove')).toMatchObject({ inst_status_code: instStatusCodes.PENDING_CANCELLATION, current_period_end: trialEnd });
    expect(await changesOf('demo-prove-adr', 'trialEnded')).toEqual([]);
  });

  let trial: { subscriptionId: string; accountNo: number; startedOn: string; end: string; regularOre: number } | undefined;

  it('the 1 kr month bought with Vipps: the regular price is invoiced RENEWAL_LEAD_DAYS before it ends, while it is still a trial', async () => {
    const ny = await signIn(test, PORTAL, 'ny@minside.test');
    const ordered = await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-DIGITAL-M' } });
    expect(ordered.status, ordered.body).toBe(201);
    const created = orderSchema.parse(ordered.json());
    expect(created.quote).toMatchObject({ offerCode: 'INTRO_1KR', amountNowOre: 100, firstPeriodMonths: 1, priceLaterOre: 29_900 });
    const paying = paymentRedirectSchema.parse((await ny.request('POST', `${PORTAL}/api/order/${created.orderId}/payment`, { json: { method: 'VIPPS' } })).json());
    await answerAtVipps(test, paying.redirectUrl, 'approve');
    const startedOn = osloToday(now());
    const end = addMonths(startedOn, 1);
    const row = await subscriptionOf('user-ny');
    expect(row).toMatchObject({ inst_status_code: instStatusCodes.TRIAL, price_ore: 29_900, intro_price_ore: 100, intro_ends_on: end, current_period_end: end, payment_method: 'VIPPS' });
    if (!row) throw new Error('the order made no subscription');
    // The regular price on the day the offer ends, as the order page's "Deretter" gave it: with a
    // price change announced on /nye-priser (the seed announces one) if it has begun by then.
    const plans = priceChangesResponseSchema.parse((await test.app.inject({ method: 'GET', url: '/api/plans/ADR' })).json()).plans;
    const digital = plans.find((plan) => plan.ariaPlanID === 'ADR-DIGITAL-M');
    if (!digital) throw new Error('ADR sells no Digital');
    const regularOre = priceOn(digital, end);
    trial = { subscriptionId: row.id, accountNo: row.aria_account_no, startedOn, end, regularOre };

    // A day before the lead time: only the 1 kr invoice of the order.
    setToday(addDays(end, -RENEWAL_LEAD_DAYS - 1));
    await test.app.billingJobs.runRenewals();
    expect((await invoicesOf(row.id)).map((invoice) => [invoice.period_from, invoice.amount_ore])).toEqual([[startedOn, 100]]);

    // RENEWAL_LEAD_DAYS ahead, as for a paying subscription: the next period at the regular price.
    setToday(addDays(end, -RENEWAL_LEAD_DAYS));
    await test.app.billingJobs.runRenewals();
    const next = (await invoicesOf(row.id)).filter((invoice) => invoice.period_from === end);
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ amount_ore: regularOre, period_to: addDays(addMonths(end, 1), -1), due_on: addDays(end, -2), paid_at: null });
    expect(next[0]?.description).toContain('Digital');
    expect(isValidKid(next[0]?.kid ?? '', defaultCatalogue.byTitleCode('ADR').bank)).toBe(true);
    // The month paid for with 1 kr runs to its end: still a trial, nothing converted yet.
    expect(await subscriptionOf('user-ny')).toMatchObject({ inst_status_code: instStatusCodes.TRIAL, current_period_end: end });
    expect(await changesOf(row.id, 'trialEnded')).toEqual([]);
  });

  it('run twice and at once: one invoice for the period, and one charge of the Vipps agreement when it falls due', async () => {
    if (!trial) throw new Error('needs the trial ordered above');
    await runTwiceAtOnceAndAgain();
    expect((await invoicesOf(trial.subscriptionId)).filter((invoice) => invoice.period_from === trial?.end)).toHaveLength(1);

    // Due 2 days before the period: Vipps MobilePay is given the charge its lead time before that,
    // once however often the job runs, and takes it on the due date.
    const dueOn = addDays(trial.end, -2);
    setToday(addDays(dueOn, -CHARGE_LEAD_DAYS));
    await runTwiceAtOnceAndAgain();
    expect(await renewalPayments(trial.subscriptionId)).toMatchObject([{ status: 'PENDING', method: 'VIPPS', amount_ore: trial.regularOre }]);
    setToday(dueOn);
    await runTwiceAtOnceAndAgain();
    await vippsOf(test).processCharges();
    await vippsOf(test).flushWebhooks();
    await runTwiceAtOnceAndAgain();
    const invoices = (await invoicesOf(trial.subscriptionId)).filter((invoice) => invoice.period_from === trial?.end);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amount_ore: trial.regularOre, settled_by: 'VIPPS' });
    expect(invoices[0]?.paid_at).not.toBeNull();
    expect(await renewalPayments(trial.subscriptionId)).toEqual([{ status: 'CAPTURED', method: 'VIPPS', amount_ore: trial.regularOre, aria_invoice_no: invoices[0]?.aria_invoice_no }]);
    expect(await subscriptionOf('user-ny')).toMatchObject({ inst_status_code: instStatusCodes.TRIAL, current_period_end: trial.end });
  });

  it('when the new period begins the trial is ACTIVE, in the step that rolls the period, once, with its change-log entry', async () => {
    if (!trial) throw new Error('needs the trial ordered above');
    setToday(trial.end);
    await runTwiceAtOnceAndAgain();
    expect(await subscriptionOf('user-ny')).toMatchObject({ inst_status_code: instStatusCodes.ACTIVE, current_period_end: addMonths(trial.end, 1) });
    expect(await changesOf(trial.subscriptionId, 'trialEnded')).toEqual([
      {
        actor: 'system',
        from_status_code: instStatusCodes.TRIAL,
        to_status_code: instStatusCodes.ACTIVE,
        details: { planName: 'Digital', billingPeriod: 'MONTH', amountOre: trial.regularOre, on: trial.end },
      },
    ]);
    // Still one invoice per period: the 1 kr month and the first month at the regular price.
    expect((await invoicesOf(trial.subscriptionId)).map((invoice) => [invoice.period_from, invoice.amount_ore])).toEqual([
      [trial.startedOn, 100],
      [trial.end, trial.regularOre],
    ]);
    // What the subscriber reads in the change log.
    const ny = await signIn(test, PORTAL, 'ny@minside.test');
    const log = await ny.request('GET', `${PORTAL}/api/subscription/${trial.accountNo}/ADR/changes`);
    expect(log.status, log.body).toBe(200);
    expect(changeLogResponseSchema.parse(log.json()).entries.find((entry) => entry.kind === 'trialEnded')).toMatchObject({
      actor: 'system',
      description: `Prøveperioden er over. Digital fortsetter til ordinær pris, ${formatKroner(trial.regularOre)} per måned.`,
    });
  });

  it('a trial whose end passed unbilled (before trials converted) converts from today: nothing is billed back for the months between', async () => {
    const today = osloToday(now());
    const row = await subscriptionOf('user-digital');
    if (!row) throw new Error('digital@ has a subscription at ADR in the seed');
    const longAgo = addMonths(today, -3);
    await test.database.rows(sql`update subscription set inst_status_code = ${instStatusCodes.TRIAL}, current_period_end = ${longAgo} where id = ${row.id}`);
    const before = new Set((await invoicesOf(row.id)).map((invoice) => invoice.aria_invoice_no));
    await runTwiceAtOnceAndAgain();
    const added = (await invoicesOf(row.id)).filter((invoice) => !before.has(invoice.aria_invoice_no));
    // One invoice, for the period from today; none for the three months since the trial ended.
    expect(added.map((invoice) => invoice.period_from)).toEqual([today]);
    expect(await subscriptionOf('user-digital')).toMatchObject({ inst_status_code: instStatusCodes.ACTIVE, current_period_end: addMonths(today, 1) });
    expect((await changesOf(row.id, 'trialEnded')).map((change) => change.details['on'])).toEqual([today]);
  });
});
