import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { osloToday, paymentSchema, systemClock } from '@minside/domain';
import type { PaymentProvider } from '../src/integrations/payment/provider.ts';
import { signTestCallback, TEST_SIGNATURE_HEADER } from '../src/integrations/payment/test-provider.ts';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser } from './browser.ts';

// Review findings 4, 5, 7, 9, 10 and 14 (docs/decisions/009-billing-and-payments.md): failed or
// unanswered renewal charges, concurrent captures and webhook retries, payment ids, method-change
// ordering, renewals racing a payment by hand, and concurrent AvtaleGiro changes. The embedded
// test provider and the real database are used throughout; where a provider that errors or is
// slow is needed, only the provider's own methods are wrapped (the PaymentProvider seam).

const PORTAL = 'http://adresseavisen.localhost:3000';
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const accounts = { papir: 40_000_001, digital: 40_000_002, ung: 40_000_003 } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type ProviderMethod = 'capture' | 'cancel' | 'refund' | 'chargeAgreement';

describe.each(testDatabases)('billing hardening ($name)', ({ name }) => {
  let test: TestApp;
  let offsetMs = 0;
  const now = () => new Date(systemClock().getTime() + offsetMs);
  const restore: (() => void)[] = [];
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now });
  });
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });
  afterAll(() => test.close());

  /** Replaces one provider method for the rest of the test; `original` is the real test provider's. */
  function wrap<K extends ProviderMethod>(method: K, make: (original: PaymentProvider[K]) => PaymentProvider[K]): void {
    const provider = test.app.paymentProvider;
    const original = provider[method];
    provider[method] = make(original.bind(provider) as PaymentProvider[K]);
    restore.push(() => {
      provider[method] = original;
    });
  }

  const signIn = async (email: string) => {
    const browser = new TestBrowser(() => injectTransport(test.app));
    const response = await login(browser, { portal: PORTAL, email, password: DEMO_PASSWORD, titleCode: 'ADR' });
    expect(response.status, response.body).toBe(200);
    return browser;
  };
  const newInvoice = async (accountNo: number, subscriptionId: string, dueOn: string, amountOre = 29_900) =>
    Number(
      (
        await test.database.rows<{ no: number }>(sql`
          insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
          values (${accountNo}, ${subscriptionId}, '0', ${amountOre}, 'Testfaktura', '2040-01-01', '2040-01-31', ${dueOn}, '1503.12.34567') returning aria_invoice_no as no`)
      )[0]?.no,
    );
  const paymentsOf = (invoiceNo: number) =>
    test.database.rows<{ id: string; status: string; purpose: string; method: string; error_code: string | null; idempotency_key: string; provider_reference: string | null }>(
      sql`select id, status, purpose, method, error_code, idempotency_key, provider_reference from payment where aria_invoice_no = ${invoiceNo} order by created_at, idempotency_key`,
    );
  const invoiceRow = async (invoiceNo: number) =>
    (await test.database.rows<{ paid_at: Date | null; settled_by: string | null }>(sql`select paid_at, settled_by from invoice where aria_invoice_no = ${invoiceNo}`))[0];
  const startPayment = (browser: TestBrowser, invoiceNo: number, method = 'VIPPS') =>
    browser.request('POST', `${PORTAL}/api/invoice/${invoiceNo}/payment`, { json: { method, idempotencyKey: randomUUID() } });
  /** The payer's button on the test provider's hosted page (POST, as the form does). */
  const press = async (browser: TestBrowser, redirectUrl: string, action: 'approve' | 'cancel', extra: Record<string, string> = {}) => {
    const response = await browser.request('POST', `${PORTAL}${redirectUrl}`, { form: { action, ...extra } });
    expect(response.status).toBe(303);
  };
  const paymentView = async (browser: TestBrowser, paymentId: string) => {
    const response = await browser.request('GET', `${PORTAL}/api/payment/${paymentId}`);
    expect(response.status, response.body).toBe(200);
    return paymentSchema.parse(response.json());
  };
  const webhookSecret = async () => (await test.database.rows<{ value: string }>(sql`select value from billing_secret where name = 'test_provider_webhook'`))[0]?.value ?? '';
  const callback = async (eventId: string, paymentId: string, redirectUrl: string) => {
    const body = JSON.stringify({ eventId, transactionId: decodeURIComponent(redirectUrl.split('/').at(-1) ?? ''), merchantReference: paymentId, status: 'AUTHORIZED' });
    return test.app.inject({
      method: 'POST',
      url: '/api/payment/callback/test',
      payload: body,
      headers: { 'content-type': 'application/json', [TEST_SIGNATURE_HEADER]: signTestCallback(await webhookSecret(), body, now()) },
    });
  };
  const today = () => osloToday(now());

  // --- finding 7 ------------------------------------------------------------------------------

  it('answers 400 for a payment id that is not one (NUL byte, free text), not 500', async () => {
    const digital = await signIn('digital@minside.test');
    for (const id of ['%00', 'a%00b', 'not-a-payment', `${'a'.repeat(64)}`]) {
      const response = await digital.request('GET', `${PORTAL}/api/payment/${id}`);
      expect(response.status, `${id}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    // The test provider's hosted page takes only its own references.
    expect((await digital.request('GET', `${PORTAL}/_dev/pay/%00`)).status).toBe(404);
    expect((await digital.request('POST', `${PORTAL}/_dev/pay/tp_%00`, { form: { action: 'approve' } })).status).toBe(400);
    // A well-formed id nobody has is still "not found".
    const unknown = await digital.request('GET', `${PORTAL}/api/payment/${randomUUID()}`);
    expect(unknown.status).toBe(404);
  });

  // --- finding 4 ------------------------------------------------------------------------------

  it('a renewal charge that errors after the provider took the money is settled from the provider, not failed', async () => {
    const no = await newInvoice(accounts.digital, 'demo-digital-adr', today());
    // The provider charges, then the answer is lost on the way back (a network timeout).
    wrap('chargeAgreement', (original) => async (input) => {
      await original(input);
      throw new Error('socket hang up');
    });
    await test.app.billingJobs.runRenewals();
    const [inDoubt] = await paymentsOf(no);
    expect(inDoubt).toMatchObject({ status: 'PENDING', purpose: 'RENEWAL' });
    expect((await invoiceRow(no))?.paid_at).toBeNull();
    // While the first charge is in doubt, a second run charges nothing more.
    await test.app.billingJobs.runRenewals();
    expect(await paymentsOf(no)).toHaveLength(1);

    offsetMs = 11 * MINUTE;
    try {
      await test.app.billingJobs.runReconciliation();
    } finally {
      offsetMs = 0;
    }
    const after = await paymentsOf(no);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'CAPTURED', error_code: null });
    expect(after[0]?.provider_reference).not.toBeNull();
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'SWEDBANK-PPG' });
  });

  it('retries a failed renewal charge on the dunning schedule with a new key, and mails the owner a pay-link', async () => {
    const no = await newInvoice(accounts.digital, 'demo-digital-adr', today());
    // The card stops working at the provider (expired, blocked): its charges fail.
    await test.database.rows(sql`update test_provider_transaction set status = 'CANCELLED' where id = 'tp_demo_digital'`);
    try {
      await test.app.billingJobs.runRenewals();
      await test.app.billingJobs.runRenewals();
      expect((await paymentsOf(no)).map((row) => row.status)).toEqual(['FAILED']);
      const mails = await test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = 'digital@minside.test' and subject like ${`%${no}%`}`);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toMatch(/\/betaling\?token=\S+/);
      const link = /(\/betaling\?token=\S+)/.exec(mails[0]?.text ?? '')?.[1] ?? '';
      const token = new URL(`http://x${link}`).searchParams.get('token') ?? '';
      expect((await test.app.inject({ method: 'GET', url: `/api/paylink/${encodeURIComponent(token)}` })).json()).toMatchObject({ ariaInvoiceNo: no, payable: true });
    } finally {
      await test.database.rows(sql`update test_provider_transaction set status = 'AUTHORIZED' where id = 'tp_demo_digital'`);
    }
    // The card works again (renewed at the provider); the next attempt is due a few days later.
    offsetMs = 1 * DAY;
    await test.app.billingJobs.runRenewals();
    expect(await paymentsOf(no)).toHaveLength(1);
    offsetMs = 3 * DAY;
    try {
      await test.app.billingJobs.runRenewals();
      await test.app.billingJobs.runRenewals();
    } finally {
      offsetMs = 0;
    }
    const attempts = await paymentsOf(no);
    expect(attempts.map((row) => row.status)).toEqual(['FAILED', 'CAPTURED']);
    expect(new Set(attempts.map((row) => row.idempotency_key)).size).toBe(2);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'SWEDBANK-PPG' });
  });

  // --- finding 10 -----------------------------------------------------------------------------

  it('the renewal job does not charge an invoice the owner is paying by hand at that moment', async () => {
    const digital = await signIn('digital@minside.test');
    const no = await newInvoice(accounts.digital, 'demo-digital-adr', today());
    const started = await startPayment(digital, no, 'VIPPS');
    expect(started.status, started.body).toBe(200);
    const flow = started.json<{ paymentId: string; redirectUrl: string }>();

    await test.app.billingJobs.runRenewals();
    expect((await paymentsOf(no)).map((row) => row.purpose)).toEqual(['INVOICE']);
    expect((await invoiceRow(no))?.paid_at).toBeNull();

    await press(digital, flow.redirectUrl, 'approve');
    expect(await paymentView(digital, flow.paymentId)).toMatchObject({ status: 'CAPTURED' });
    await test.app.billingJobs.runRenewals();
    expect((await paymentsOf(no)).map((row) => `${row.purpose}:${row.status}`)).toEqual(['INVOICE:CAPTURED']);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
  });

  it('marks a duplicate payment whose refund failed, so an operator can find it', async () => {
    const digital = await signIn('digital@minside.test');
    const no = await newInvoice(accounts.digital, 'demo-digital-adr', '2039-12-30');
    const first = (await startPayment(digital, no, 'VIPPS')).json<{ paymentId: string; redirectUrl: string }>();
    // The provider cannot be reached to cancel the first attempt when the second starts.
    wrap('cancel', () => async () => {
      throw new Error('provider unavailable');
    });
    const second = (await startPayment(digital, no, 'SWEDBANK-PPG')).json<{ paymentId: string; redirectUrl: string }>();
    wrap('refund', () => async () => {
      throw new Error('provider unavailable');
    });
    await press(digital, first.redirectUrl, 'approve');
    await press(digital, second.redirectUrl, 'approve');
    const rows = await paymentsOf(no);
    expect(rows.map((row) => `${row.status}:${row.error_code ?? ''}`).sort()).toEqual(['CAPTURED:', 'CAPTURED:DUPLICATE_PAYMENT_REFUND_FAILED']);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
  });

  // --- finding 5 ------------------------------------------------------------------------------

  it('a callback whose capture fails is answered with an error and processed when the provider sends it again', async () => {
    const digital = await signIn('digital@minside.test');
    const no = await newInvoice(accounts.digital, 'demo-digital-adr', '2039-12-30');
    const flow = (await startPayment(digital, no, 'VIPPS')).json<{ paymentId: string; redirectUrl: string }>();
    await press(digital, flow.redirectUrl, 'approve', { lostCallback: 'on' });
    let failures = 1;
    wrap('capture', (original) => async (reference, amount, key) => {
      if (failures-- > 0) throw new Error('provider answered 502');
      return original(reference, amount, key);
    });
    const eventId = randomUUID();
    const failed = await callback(eventId, flow.paymentId, flow.redirectUrl);
    expect(failed.statusCode, failed.body).toBeGreaterThanOrEqual(500);
    expect(failed.body).not.toContain('provider answered 502');
    expect((await paymentsOf(no))[0]?.status).toBe('PENDING');
    // The provider retries the same event: it must be processed, not dropped as a duplicate.
    const retried = await callback(eventId, flow.paymentId, flow.redirectUrl);
    expect(retried.json()).toEqual({ received: true, duplicate: false });
    expect((await paymentsOf(no))[0]?.status).toBe('CAPTURED');
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
    expect((await callback(eventId, flow.paymentId, flow.redirectUrl)).json()).toEqual({ received: true, duplicate: true });
  });

  it('callback, return page and reconciliation at the same moment capture once', async () => {
    const digital = await signIn('digital@minside.test');
    const no = await newInvoice(accounts.digital, 'demo-digital-adr', '2039-12-30');
    const flow = (await startPayment(digital, no, 'VIPPS')).json<{ paymentId: string; redirectUrl: string }>();
    await press(digital, flow.redirectUrl, 'approve', { lostCallback: 'on' });
    let captures = 0;
    // A real provider refuses a second capture; count them, and be slow so the settlers overlap.
    wrap('capture', (original) => async (reference, amount, key) => {
      captures += 1;
      await sleep(150);
      return original(reference, amount, key);
    });
    offsetMs = 11 * MINUTE;
    try {
      const results = await Promise.all([
        callback(randomUUID(), flow.paymentId, flow.redirectUrl),
        digital.request('GET', `${PORTAL}/api/payment/${flow.paymentId}`),
        digital.request('GET', `${PORTAL}/api/payment/${flow.paymentId}`),
        test.app.billingJobs.runReconciliation(),
      ]);
      expect(results[0].statusCode, results[0].body).toBe(200);
      expect(results[1].status).toBe(200);
      expect(results[2].status).toBe(200);
    } finally {
      offsetMs = 0;
    }
    expect(captures).toBe(1);
    expect((await paymentsOf(no)).map((row) => row.status)).toEqual(['CAPTURED']);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
  });

  // --- finding 9 ------------------------------------------------------------------------------

  it('choosing giro is not undone when an older card flow completes later', async () => {
    const ung = await signIn('ung@minside.test');
    const put = (body: Record<string, unknown>) => ung.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: accounts.ung, titleCode: 'ADR', idempotencyKey: randomUUID(), ...body } });
    const method = async () => (await ung.request('GET', `${PORTAL}/api/subscription/${accounts.ung}/ADR/paymentMethod`)).json<{ method: string }>().method;
    const card = (await put({ method: 'SWEDBANK-PPG' })).json<{ result: string; paymentId: string; redirectUrl: string }>();
    expect(card.result).toBe('REDIRECT');
    // The cancel of the open card page does not reach the provider: that tab can still approve.
    wrap('cancel', () => async () => {
      throw new Error('provider unavailable');
    });
    expect((await put({ method: 'BANKGIRO' })).json()).toMatchObject({ result: 'CHANGED', paymentMethod: { method: 'INVOICE' } });
    await press(ung, card.redirectUrl, 'approve');
    expect(await paymentView(ung, card.paymentId)).toMatchObject({ status: 'CANCELLED', purpose: 'PAYMENT_METHOD_CHANGE' });
    expect(await method()).toBe('INVOICE');
    const active = await test.database.rows<{ method: string }>(sql`select method from payment_agreement where subscription_id = 'demo-ung-adr' and status <> 'REPLACED'`);
    expect(active).toEqual([]);
  });

  // --- finding 14 -----------------------------------------------------------------------------

  it('concurrent AvtaleGiro choices leave one mandate with one customer KID, pending until the bank confirms it', async () => {
    const ung = await signIn('ung@minside.test');
    const put = () => ung.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: accounts.ung, titleCode: 'ADR', method: 'AVTALEGIRO', idempotencyKey: randomUUID() } });
    const live = () =>
      test.database.rows<{ provider_agreement_id: string; status: string }>(
        sql`select provider_agreement_id, status from payment_agreement where subscription_id = 'demo-ung-adr' and method = 'AVTALEGIRO' and status in ('PENDING', 'ACTIVE')`,
      );
    // Three tabs at once: one agreement, one KID, all three told the same.
    const answers = await Promise.all([put(), put(), put()]);
    const kids = new Set<string>();
    for (const response of answers) {
      expect(response.status, response.body).toBe(200);
      expect(response.json()).toMatchObject({ result: 'PENDING_BANK_CONFIRMATION', paymentMethod: { method: 'AVTALEGIRO', avtaleGiro: { status: 'PENDING' } } });
      kids.add(response.json<{ paymentMethod: { avtaleGiro: { kid: string } } }>().paymentMethod.avtaleGiro.kid);
    }
    expect(kids.size).toBe(1);
    expect(await live()).toEqual([{ provider_agreement_id: [...kids][0], status: 'PENDING' }]);
    // Nothing here confirms it: reconciliation asks no bank, only the bank's mandate file does (test/bank.test.ts).
    await test.app.billingJobs.runReconciliation();
    expect((await live()).map((row) => row.status)).toEqual(['PENDING']);
  });
});
