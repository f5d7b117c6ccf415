import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { osloToday, paymentSchema, systemClock } from '@minside/domain';
import { signWebhookRequest } from '@minside/vipps';
import { EMBEDDED_MERCHANT_SERIAL_NUMBER } from '../src/integrations/payment/embedded-vipps-simulator.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import type { TestBrowser } from './browser.ts';
import { answerAtVipps, signIn as signInAs, vippsClientOf, vippsOf } from './support.ts';

// Review findings 4, 5, 7, 9, 10 and 14 (docs/decisions/009-billing-and-payments.md): failed or
// unanswered renewal charges, concurrent captures and webhook retries, payment ids, method-change
// ordering, renewals racing a payment by hand, and concurrent AvtaleGiro changes. Payments go
// through Vipps MobilePay (the real adapter against the simulator embedded in the test app) and the
// real database; a provider that errors, is slow or fails a charge is the simulator's own faults
// (a 5xx after the work was done, a 429 before it, `failCharges`), never a wrapped adapter.
// Renewals are charged on ung@'s Vipps agreement, the seed's. The dunning schedule's waits show
// only with a charge that fails at once (a card's): the last describe, with a card-storing provider.

const PORTAL = 'http://adresseavisen.localhost:3000';
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const accounts = { papir: 40_000_001, digital: 40_000_002, ung: 40_000_003 } as const;
/** ung@'s Vipps agreement (seed-billing.ts), restored into the embedded simulator at start. */
const UNG_AGREEMENT = 'agr_DemoUng1';

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

  const vipps = () => vippsOf(test);
  /** Vipps MobilePay's own view, asked with the keys the app fetched its access token with. */
  const atVipps = () => vippsClientOf(test, now);
  /** Every webhook the simulator sends is lost for the rest of the test: only those a test posts itself reach the app. */
  const loseWebhooks = () => {
    vipps().faults.webhooks.drop = true;
    restore.push(() => {
      vipps().faults.webhooks.drop = false;
    });
  };
  const captureRequests = (paymentId: string) => vipps().requests.filter((request) => request.method === 'POST' && request.path === `/epayment/v1/payments/${paymentId}/capture`);
  /** A due Recurring charge is taken by Vipps MobilePay on its due day (the embedded simulator when told to); its webhooks are delivered. */
  const vippsTakesDueCharges = async () => {
    await vipps().processCharges();
    await vipps().flushWebhooks();
  };

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  const newInvoice = async (accountNo: number, subscriptionId: string, dueOn: string, amountOre = 29_900) =>
    Number(
      (
        await test.database.rows<{ no: number }>(sql`
          insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
          values (${accountNo}, ${subscriptionId}, '0', ${amountOre}, 'Testfaktura', '2040-01-01', '2040-01-31', ${dueOn}, '1503.12.34567') returning aria_invoice_no as no`)
      )[0]?.no,
    );
  /** ung@'s invoices: within what ung@'s Vipps agreement lets us charge (twice the plan's 99 kr). */
  const ungInvoice = (dueOn: string) => newInvoice(accounts.ung, 'demo-ung-adr', dueOn, 9_900);
  const paymentsOf = (invoiceNo: number) =>
    test.database.rows<{ id: string; status: string; purpose: string; method: string; error_code: string | null; idempotency_key: string; provider_reference: string | null }>(
      sql`select id, status, purpose, method, error_code, idempotency_key, provider_reference from payment where aria_invoice_no = ${invoiceNo} order by created_at, idempotency_key`,
    );
  const invoiceRow = async (invoiceNo: number) =>
    (await test.database.rows<{ paid_at: Date | null; settled_by: string | null }>(sql`select paid_at, settled_by from invoice where aria_invoice_no = ${invoiceNo}`))[0];
  const startPayment = (browser: TestBrowser, invoiceNo: number, method = 'VIPPS') =>
    browser.request('POST', `${PORTAL}/api/invoice/${invoiceNo}/payment`, { json: { method, idempotencyKey: randomUUID() } });
  const paymentView = async (browser: TestBrowser, paymentId: string) => {
    const response = await browser.request('GET', `${PORTAL}/api/payment/${paymentId}`);
    expect(response.status, response.body).toBe(200);
    return paymentSchema.parse(response.json());
  };
  /** An ePayment webhook as Vipps MobilePay sends it, signed with our registration's secret (billing_secret), dated now. */
  const webhook = async (reference: string, eventName: string, pspReference: string, value = 29_900) => {
    const [stored] = await test.database.rows<{ value: string }>(sql`select value from billing_secret where name = ${`vipps_webhook:${EMBEDDED_MERCHANT_SERIAL_NUMBER}`}`);
    const registration = JSON.parse(stored?.value ?? '{}') as { url: string; secret: string };
    const url = new URL(registration.url);
    const body = JSON.stringify({
      msn: EMBEDDED_MERCHANT_SERIAL_NUMBER,
      reference,
      pspReference,
      name: eventName,
      amount: { currency: 'NOK', value },
      timestamp: now().toISOString(),
      success: true,
      idempotencyKey: null,
    });
    const headers = signWebhookRequest({ secret: registration.secret, method: 'POST', pathAndQuery: url.pathname, host: url.host, body, date: now() });
    return test.app.inject({ method: 'POST', url: url.pathname, payload: body, headers: { ...headers, 'content-type': 'application/json' } });
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
    // Vipps MobilePay names the payment by our id in its webhooks. A signed one naming something
    // that is no payment id of ours is never a 500: free text is acknowledged (so it is not sent
    // again for days) and changes nothing; a NUL byte, which no Vipps MobilePay reference holds, is
    // refused as invalid input.
    const before = await test.database.rows(sql`select id, status from payment order by id`);
    for (const [reference, status] of [
      ['\u0000', 400],
      ['a\u0000b', 400],
      ['not-a-payment', 200],
      ['a'.repeat(64), 200],
    ] as const) {
      const answer = await webhook(reference, 'AUTHORIZED', randomUUID());
      expect(answer.statusCode, `${JSON.stringify(reference)}: ${answer.body}`).toBe(status);
      if (status === 400) expect(answer.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(await test.database.rows(sql`select id, status from payment order by id`)).toEqual(before);
    // The test provider's hosted page is not there when the portal pays through Vipps MobilePay.
    expect((await digital.request('GET', `${PORTAL}/_dev/pay/%00`)).status).toBe(404);
    expect((await digital.request('POST', `${PORTAL}/_dev/pay/tp_%00`, { form: { action: 'approve' } })).status).toBe(404);
    // A well-formed id nobody has is still "not found".
    const unknown = await digital.request('GET', `${PORTAL}/api/payment/${randomUUID()}`);
    expect(unknown.status).toBe(404);
  });

  // --- finding 4 ------------------------------------------------------------------------------

  it('a renewal charge whose answer is lost after Vipps MobilePay made it is settled from the provider, neither failed nor made twice', async () => {
    const no = await ungInvoice(today());
    // Vipps MobilePay makes the charge, then answers 502 — to the call and to both retries with its key.
    vipps().faults.next('server-error', { count: 3, method: 'POST', pathPrefix: `/recurring/v3/agreements/${UNG_AGREEMENT}/charges`, status: 502 });
    await test.app.billingJobs.runRenewals();
    const [inDoubt] = await paymentsOf(no);
    expect(inDoubt).toMatchObject({ status: 'PENDING', purpose: 'RENEWAL', method: 'VIPPS', provider_reference: null });
    expect((await invoiceRow(no))?.paid_at).toBeNull();
    // While the first charge is in doubt, a second run charges nothing more.
    await test.app.billingJobs.runRenewals();
    expect(await paymentsOf(no)).toHaveLength(1);
    const creates = vipps().requests.filter(
      (request) => request.method === 'POST' && request.path === `/recurring/v3/agreements/${UNG_AGREEMENT}/charges` && (request.body as { orderId?: string }).orderId === inDoubt?.id,
    );
    expect(creates).toHaveLength(3);
    expect(new Set(creates.map((request) => request.headers['idempotency-key'])).size).toBe(1);

    offsetMs = 11 * MINUTE;
    try {
      // Reconciliation finds the charge at Vipps MobilePay by our payment id: made, and due in two days.
      await test.app.billingJobs.runReconciliation();
      expect(await paymentsOf(no)).toMatchObject([{ status: 'PENDING', provider_reference: `charge:${UNG_AGREEMENT}:${inDoubt?.id}` }]);
      expect((await invoiceRow(no))?.paid_at).toBeNull();
      // Vipps MobilePay takes it on its due date.
      offsetMs = 2 * DAY;
      await vippsTakesDueCharges();
    } finally {
      offsetMs = 0;
    }
    const after = await paymentsOf(no);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'CAPTURED', error_code: null, provider_reference: `charge:${UNG_AGREEMENT}:${inDoubt?.id}` });
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
    expect((await invoiceRow(no))?.paid_at).not.toBeNull();
    expect(await atVipps().recurring.getCharge(UNG_AGREEMENT, inDoubt?.id ?? '')).toMatchObject({ status: 'CHARGED', amount: 9_900 });
  });

  it('retries a renewal charge Vipps MobilePay failed with a new key, and mails the owner a pay-link at once', async () => {
    const no = await ungInvoice(today());
    // No money behind the agreement in the Vipps app: Vipps MobilePay cannot take its charges.
    vipps().faults.failCharges = true;
    try {
      await test.app.billingJobs.runRenewals();
      await test.app.billingJobs.runRenewals();
      const [first] = await paymentsOf(no);
      expect(first).toMatchObject({ status: 'PENDING', purpose: 'RENEWAL', method: 'VIPPS' });
      expect(await atVipps().recurring.getCharge(UNG_AGREEMENT, first?.id ?? '')).toMatchObject({ status: 'PENDING', amount: 9_900, retryDays: 5 });
      // On its due date Vipps MobilePay cannot take it, and tries again on each of its retry days; we wait meanwhile.
      offsetMs = 2 * DAY;
      await vippsTakesDueCharges();
      await test.app.billingJobs.runRenewals();
      expect((await paymentsOf(no)).map((row) => row.status)).toEqual(['PENDING']);
      expect((await atVipps().recurring.getCharge(UNG_AGREEMENT, first?.id ?? '')).status).toBe('DUE');
      // After its last retry day it gives up: FAILED, and the owner hears at once, with a pay-link.
      offsetMs = 7 * DAY;
      await vippsTakesDueCharges();
      expect((await paymentsOf(no)).map((row) => row.status)).toEqual(['FAILED']);
      const mails = await test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = 'ung@minside.test' and subject like ${`%${no}%`}`);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toContain('gikk ikke gjennom');
      expect(mails[0]?.text).toContain('fra Vipps-avtalen');
      expect(mails[0]?.text).toMatch(/\/betaling\?token=\S+/);
      const link = /(\/betaling\?token=\S+)/.exec(mails[0]?.text ?? '')?.[1] ?? '';
      const token = new URL(`http://x${link}`).searchParams.get('token') ?? '';
      expect((await test.app.inject({ method: 'GET', url: `/api/paylink/${encodeURIComponent(token)}` })).json()).toMatchObject({ ariaInvoiceNo: no, payable: true });
      // A failed charge is no stopped agreement: the subscription stays on Vipps.
      expect((await test.database.rows(sql`select payment_method from subscription where id = 'demo-ung-adr'`))[0]).toEqual({ payment_method: 'VIPPS' });
    } finally {
      vipps().faults.failCharges = false;
    }
    // Vipps MobilePay itself tried for five days, longer than our first wait (3 days after attempt
    // 1): the next attempt is made at once, with a new key, and once however often the job runs.
    try {
      await test.app.billingJobs.runRenewals();
      await test.app.billingJobs.runRenewals();
      expect((await paymentsOf(no)).map((row) => row.status)).toEqual(['FAILED', 'PENDING']);
      // Money behind the agreement again: Vipps MobilePay takes it on its due date.
      offsetMs = 9 * DAY;
      await vippsTakesDueCharges();
    } finally {
      offsetMs = 0;
    }
    const attempts = await paymentsOf(no);
    expect(attempts.map((row) => row.status)).toEqual(['FAILED', 'CAPTURED']);
    expect(new Set(attempts.map((row) => row.idempotency_key)).size).toBe(2);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
    // The money: one charge taken, the failed one not.
    expect(await atVipps().recurring.getCharge(UNG_AGREEMENT, attempts[0]?.id ?? '')).toMatchObject({ status: 'FAILED' });
    expect(await atVipps().recurring.getCharge(UNG_AGREEMENT, attempts[1]?.id ?? '')).toMatchObject({ status: 'CHARGED', amount: 9_900 });
  });

  // --- finding 10 -----------------------------------------------------------------------------

  it('the renewal job does not charge an invoice the owner is paying by hand at that moment', async () => {
    const ung = await signIn('ung@minside.test');
    const no = await ungInvoice(today());
    // Another invoice due today that nobody is paying: the job does charge the agreement for it.
    const other = await ungInvoice(today());
    const started = await startPayment(ung, no, 'VIPPS');
    expect(started.status, started.body).toBe(200);
    const flow = started.json<{ paymentId: string; redirectUrl: string }>();

    await test.app.billingJobs.runRenewals();
    expect((await paymentsOf(no)).map((row) => row.purpose)).toEqual(['INVOICE']);
    expect((await invoiceRow(no))?.paid_at).toBeNull();
    expect((await paymentsOf(other)).map((row) => `${row.purpose}:${row.status}`)).toEqual(['RENEWAL:PENDING']);

    expect(await answerAtVipps(test, flow.redirectUrl, 'approve')).toBe(`/betal-faktura/${no}?paymentId=${flow.paymentId}`);
    expect(await paymentView(ung, flow.paymentId)).toMatchObject({ status: 'CAPTURED' });
    await test.app.billingJobs.runRenewals();
    expect((await paymentsOf(no)).map((row) => `${row.purpose}:${row.status}`)).toEqual(['INVOICE:CAPTURED']);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
    // Paid once: by the payer in the app, never by a charge on the agreement.
    expect((await atVipps().epayment.get(flow.paymentId)).aggregate.capturedAmount.value).toBe(9_900);
    const [charge] = await paymentsOf(other);
    offsetMs = 2 * DAY;
    try {
      await vippsTakesDueCharges();
    } finally {
      offsetMs = 0;
    }
    expect((await paymentsOf(other)).map((row) => `${row.purpose}:${row.status}`)).toEqual(['RENEWAL:CAPTURED']);
    expect(await atVipps().recurring.getCharge(UNG_AGREEMENT, charge?.id ?? '')).toMatchObject({ status: 'CHARGED', amount: 9_900 });
  });

  it('marks a duplicate payment whose refund failed, so an operator can find it', async () => {
    const digital = await signIn('digital@minside.test');
    const no = await newInvoice(accounts.digital, 'demo-digital-adr', '2039-12-30');
    const first = (await startPayment(digital, no, 'VIPPS')).json<{ paymentId: string; redirectUrl: string }>();
    // Vipps MobilePay cannot be reached to cancel the first attempt when the second starts (429, and so to both retries)…
    vipps().faults.next('rate-limited', { count: 3, method: 'POST', pathPrefix: `/epayment/v1/payments/${first.paymentId}/cancel` });
    const second = (await startPayment(digital, no, 'SWEDBANK-PPG')).json<{ paymentId: string; redirectUrl: string }>();
    expect((await atVipps().epayment.get(first.paymentId)).state).toBe('CREATED');
    // …nor to refund the second capture.
    vipps().faults.next('rate-limited', { count: 3, method: 'POST', pathPrefix: `/epayment/v1/payments/${second.paymentId}/refund` });
    await answerAtVipps(test, first.redirectUrl, 'approve');
    await answerAtVipps(test, second.redirectUrl, 'approve');
    const rows = await paymentsOf(no);
    expect(rows.map((row) => `${row.status}:${row.error_code ?? ''}`).sort()).toEqual(['CAPTURED:', 'CAPTURED:DUPLICATE_PAYMENT_REFUND_FAILED']);
    expect(rows.find((row) => row.error_code === 'DUPLICATE_PAYMENT_REFUND_FAILED')?.id).toBe(second.paymentId);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
    // The money: both taken, nothing given back yet — the operator's to refund.
    expect((await atVipps().epayment.get(first.paymentId)).aggregate).toMatchObject({ capturedAmount: { value: 29_900 }, refundedAmount: { value: 0 } });
    expect((await atVipps().epayment.get(second.paymentId)).aggregate).toMatchObject({ capturedAmount: { value: 29_900 }, refundedAmount: { value: 0 } });
  });

  // --- finding 5 ------------------------------------------------------------------------------

  it('a webhook whose capture fails is answered with an error and processed when the provider sends it again', async () => {
    const digital = await signIn('digital@minside.test');
    const no = await newInvoice(accounts.digital, 'demo-digital-adr', '2039-12-30');
    // Every webhook Vipps MobilePay sends in this test is lost (from the payment's creation on, so
    // no late one makes the app look): only those posted here, as its retries come, reach the app.
    loseWebhooks();
    const flow = (await startPayment(digital, no, 'VIPPS')).json<{ paymentId: string; redirectUrl: string }>();
    await answerAtVipps(test, flow.redirectUrl, 'approve', { lostWebhooks: true });
    loseWebhooks(); // answerAtVipps hands the knob back when the payer is done
    expect((await paymentsOf(no))[0]?.status).toBe('PENDING');
    // Vipps MobilePay captures, then answers 502 — to the call and to both retries with its key.
    vipps().faults.next('server-error', { count: 3, method: 'POST', pathPrefix: `/epayment/v1/payments/${flow.paymentId}/capture`, status: 502 });
    const pspReference = randomUUID();
    const failed = await webhook(flow.paymentId, 'AUTHORIZED', pspReference);
    expect(failed.statusCode, failed.body).toBeGreaterThanOrEqual(500);
    expect(failed.body).not.toContain('answered 502');
    expect((await paymentsOf(no))[0]?.status).toBe('PENDING');
    // The provider retries the same event: it must be processed, not dropped as a duplicate.
    const retried = await webhook(flow.paymentId, 'AUTHORIZED', pspReference);
    expect(retried.json()).toEqual({ received: true, duplicate: false });
    expect((await paymentsOf(no))[0]?.status).toBe('CAPTURED');
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
    expect((await webhook(flow.paymentId, 'AUTHORIZED', pspReference)).json()).toEqual({ received: true, duplicate: true });
    // The money: one capture (its three requests carried one key), all of it.
    expect(new Set(captureRequests(flow.paymentId).map((request) => request.headers['idempotency-key'])).size).toBe(1);
    expect((await atVipps().epayment.get(flow.paymentId)).aggregate.capturedAmount.value).toBe(29_900);
  });

  it('webhook, return page and reconciliation at the same moment capture once', async () => {
    const digital = await signIn('digital@minside.test');
    const no = await newInvoice(accounts.digital, 'demo-digital-adr', '2039-12-30');
    // Every webhook of the payment until the payer's approval is lost: nothing has settled it when the settlers meet.
    loseWebhooks();
    const flow = (await startPayment(digital, no, 'VIPPS')).json<{ paymentId: string; redirectUrl: string }>();
    await answerAtVipps(test, flow.redirectUrl, 'approve', { lostWebhooks: true });
    expect((await paymentsOf(no)).map((row) => row.status)).toEqual(['PENDING']);
    // Vipps MobilePay is slow with the capture (a 500 first, the adapter tries again with the same
    // key after a pause), so the settlers overlap.
    vipps().faults.next('server-error', { method: 'POST', pathPrefix: `/epayment/v1/payments/${flow.paymentId}/capture` });
    offsetMs = 11 * MINUTE;
    try {
      const results = await Promise.all([
        webhook(flow.paymentId, 'AUTHORIZED', randomUUID()),
        digital.request('GET', `${PORTAL}/api/payment/${flow.paymentId}`),
        digital.request('GET', `${PORTAL}/api/payment/${flow.paymentId}`),
        test.app.billingJobs.runReconciliation(),
      ]);
      expect(results[0].statusCode, results[0].body).toBe(200);
      expect(results[1].status).toBe(200);
      expect(results[2].status).toBe(200);
      await vipps().flushWebhooks();
    } finally {
      offsetMs = 0;
    }
    // One settler captured: the request answered 500 and its retry; no other capture was asked for.
    expect(captureRequests(flow.paymentId)).toHaveLength(2);
    expect((await atVipps().epayment.get(flow.paymentId)).aggregate.capturedAmount.value).toBe(29_900);
    expect((await paymentsOf(no)).map((row) => row.status)).toEqual(['CAPTURED']);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'VIPPS' });
  });

  // --- finding 9 ------------------------------------------------------------------------------

  it('choosing giro is not undone when an older Vipps agreement flow is approved later', async () => {
    const ung = await signIn('ung@minside.test');
    const put = (body: Record<string, unknown>) =>
      ung.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: accounts.ung, titleCode: 'ADR', idempotencyKey: randomUUID(), ...body } });
    const method = async () => (await ung.request('GET', `${PORTAL}/api/subscription/${accounts.ung}/ADR/paymentMethod`)).json<{ method: string }>().method;
    // A new Vipps agreement (another phone, say): the payer is sent to Vipps MobilePay to approve it.
    const flow = (await put({ method: 'VIPPS' })).json<{ result: string; paymentId: string; redirectUrl: string }>();
    expect(flow.result).toBe('REDIRECT');
    const agreementId = new URL(flow.redirectUrl).searchParams.get('agreementId') ?? '';
    expect(agreementId).toMatch(/^agr_/);
    // Stopping that open agreement does not reach Vipps MobilePay (429, and so to both retries): its page can still approve.
    vipps().faults.next('rate-limited', { count: 3, method: 'PATCH', pathPrefix: `/recurring/v3/agreements/${agreementId}` });
    expect((await put({ method: 'BANKGIRO' })).json()).toMatchObject({ result: 'CHANGED', paymentMethod: { method: 'INVOICE' } });
    expect((await atVipps().recurring.getAgreement(agreementId)).status).toBe('PENDING');
    expect(await answerAtVipps(test, flow.redirectUrl, 'approve')).toBe(`/endre-betalingsmetode/verify?paymentId=${flow.paymentId}`);
    expect(await paymentView(ung, flow.paymentId)).toMatchObject({ status: 'CANCELLED', purpose: 'PAYMENT_METHOD_CHANGE' });
    expect(await method()).toBe('INVOICE');
    const live = await test.database.rows<{ method: string }>(sql`select method from payment_agreement where subscription_id = 'demo-ung-adr' and status in ('ACTIVE', 'PENDING')`);
    expect(live).toEqual([]);
    // The agreement giro replaced is stopped at Vipps MobilePay too: nothing more is charged on it.
    expect((await atVipps().recurring.getAgreement(UNG_AGREEMENT)).status).toBe('STOPPED');
    // And the one approved after it was given up is stopped there as soon as its webhook says it is active:
    // the payer's app shows no agreement the portal will never use.
    expect((await atVipps().recurring.getAgreement(agreementId)).status).toBe('STOPPED');
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

describe.each(testDatabases)('billing hardening, charging a stored card ($name)', ({ name }) => {
  // The test provider stands in for a card-storing provider (Vipps MobilePay keeps none).
  let test: TestApp;
  let offsetMs = 0;
  const now = () => new Date(systemClock().getTime() + offsetMs);
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now, config: { paymentProvider: 'test', vipps: undefined } });
  });
  afterAll(() => test.close());

  const paymentsOf = (invoiceNo: number) =>
    test.database.rows<{ status: string; idempotency_key: string }>(sql`select status, idempotency_key from payment where aria_invoice_no = ${invoiceNo} order by created_at, idempotency_key`);

  // A card's charge fails at once, so the waits of the dunning schedule (RENEWAL_RETRY_DAYS) show
  // here; a Vipps charge is retried by Vipps MobilePay itself for longer (the test above).
  it('retries a failed renewal charge on the dunning schedule with a new key, and mails the owner a pay-link', async () => {
    const [created] = await test.database.rows<{ no: number }>(sql`
      insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
      values (${accounts.digital}, 'demo-digital-adr', '0', 29900, 'Testfaktura', '2040-01-01', '2040-01-31', ${osloToday(now())}, '1503.12.34567') returning aria_invoice_no as no`);
    const no = Number(created?.no);
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
    try {
      offsetMs = 1 * DAY;
      await test.app.billingJobs.runRenewals();
      expect(await paymentsOf(no)).toHaveLength(1);
      offsetMs = 3 * DAY;
      await test.app.billingJobs.runRenewals();
      await test.app.billingJobs.runRenewals();
    } finally {
      offsetMs = 0;
    }
    const attempts = await paymentsOf(no);
    expect(attempts.map((row) => row.status)).toEqual(['FAILED', 'CAPTURED']);
    expect(new Set(attempts.map((row) => row.idempotency_key)).size).toBe(2);
    expect((await test.database.rows(sql`select settled_by from invoice where aria_invoice_no = ${no}`))[0]).toEqual({ settled_by: 'SWEDBANK-PPG' });
  });
});
