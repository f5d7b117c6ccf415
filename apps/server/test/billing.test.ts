import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidKid, kidFor, paymentSchema, readKid, type Invoice, systemClock } from '@minside/domain';
import { signWebhookRequest } from '@minside/vipps';
import { defaultCatalogue } from '@minside/titles';
import { EMBEDDED_MERCHANT_SERIAL_NUMBER } from '../src/integrations/payment/embedded-vipps-simulator.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, TestBrowser, type BrowserResponse } from './browser.ts';
import { answerAtVipps, expectRefused, pdfText, signIn as signInAs, vippsClientOf, vippsOf, type VippsAnswer } from './support.ts';

// Issue 6: invoices, paying through Vipps MobilePay (issue 22: the real adapter against the
// simulator embedded in the test app — landing page → signed webhook → one capture → invoice
// Betalt), idempotency of double submissions and replayed webhooks, signatures, ownership, payment
// method changes, pay-links and discounts. Storing a card has its own describe at the end: Vipps
// MobilePay keeps no cards.

const PORTAL = 'http://adresseavisen.localhost:3000';
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const accounts = { papir: 40_000_001, digital: 40_000_002, ung: 40_000_003, familiemedlem: 40_000_005 } as const;

/** The payer presses a button on a landing page that is no longer open (answered, or ended by us): Vipps MobilePay refuses it. */
async function refusedAtVipps(test: TestApp, redirectUrl: string, action: VippsAnswer): Promise<void> {
  const page = new URL(redirectUrl);
  const form = new URLSearchParams({ action });
  for (const field of ['reference', 'agreementId']) {
    const value = page.searchParams.get(field);
    if (value !== null) form.set(field, value);
  }
  const refused = await fetch(new URL('/simulator/landing', page), { method: 'POST', body: form, redirect: 'manual' });
  expect(refused.status, await refused.clone().text()).toBe(409);
  await vippsOf(test).flushWebhooks();
}

describe.each(testDatabases)('billing ($name)', ({ name }) => {
  let test: TestApp;
  let offsetMs = 0;
  const now = () => new Date(systemClock().getTime() + offsetMs);
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now, config: { operatorToken: 'o'.repeat(40) } });
  });
  afterAll(() => test.close());

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  const invoices = async (browser: TestBrowser, accountNo: number) => {
    const response = await browser.request('GET', `${PORTAL}/api/invoice/${accountNo}`);
    expect(response.status, response.body).toBe(200);
    return response.json<{ invoices: Invoice[]; nextBefore: number | null }>().invoices;
  };
  const unpaidOf = async (browser: TestBrowser, accountNo: number) => {
    const unpaid = (await invoices(browser, accountNo)).find((row) => row.status !== 'PAID');
    if (!unpaid) throw new Error('no unpaid invoice');
    return unpaid;
  };
  const paymentsOf = (invoiceNo: number) =>
    test.database.rows<{ id: string; status: string; purpose: string }>(sql`select id, status, purpose from payment where aria_invoice_no = ${invoiceNo} order by created_at`);
  const invoiceRow = async (invoiceNo: number) =>
    (await test.database.rows<{ paid_at: Date | null; settled_by: string | null }>(sql`select paid_at, settled_by from invoice where aria_invoice_no = ${invoiceNo}`))[0];
  const startPayment = (browser: TestBrowser, invoiceNo: number, key = randomUUID(), method = 'VIPPS') =>
    browser.request('POST', `${PORTAL}/api/invoice/${invoiceNo}/payment`, { json: { method, idempotencyKey: key } });
  const paymentView = async (browser: TestBrowser, paymentId: string, query = '') => {
    const response = await browser.request('GET', `${PORTAL}/api/payment/${paymentId}${query}`);
    expect(response.status, response.body).toBe(200);
    return paymentSchema.parse(response.json());
  };
  const vipps = () => vippsOf(test);
  const atVipps = () => vippsClientOf(test, now);
  const captureRequests = (paymentId: string) => vipps().requests.filter((request) => request.method === 'POST' && request.path === `/epayment/v1/payments/${paymentId}/capture`);
  /** Our webhook registration at Vipps MobilePay (its URL and secret), as the adapter stored it. */
  const registration = async () => {
    const [stored] = await test.database.rows<{ value: string }>(sql`select value from billing_secret where name = ${`vipps_webhook:${EMBEDDED_MERCHANT_SERIAL_NUMBER}`}`);
    return JSON.parse(stored?.value ?? '{}') as { url: string; secret: string };
  };
  /** An ePayment webhook body as Vipps MobilePay sends one. */
  const epaymentEvent = (reference: string, eventName: string, pspReference: string, value: number) =>
    JSON.stringify({
      msn: EMBEDDED_MERCHANT_SERIAL_NUMBER,
      reference,
      pspReference,
      name: eventName,
      amount: { currency: 'NOK', value },
      timestamp: now().toISOString(),
      success: true,
      idempotencyKey: null,
    });
  /** POSTs `body` to our webhook as Vipps MobilePay does: signed over `signedBody` (default the body) with `secret` (default ours) at `date`, or not signed at all. */
  const webhook = async (body: string, signing: { secret?: string; date?: Date; signedBody?: string } | 'unsigned' = {}) => {
    const registered = await registration();
    const url = new URL(registered.url);
    const headers =
      signing === 'unsigned'
        ? {}
        : signWebhookRequest({
            secret: signing.secret ?? registered.secret,
            method: 'POST',
            pathAndQuery: url.pathname,
            host: url.host,
            body: signing.signedBody ?? body,
            date: signing.date ?? now(),
          });
    return test.app.inject({ method: 'POST', url: url.pathname, payload: body, headers: { ...headers, 'content-type': 'application/json' } });
  };

  it('lists papir’s invoices newest first with valid KIDs, and refuses another account', async () => {
    const papir = await signIn('papir@minside.test');
    const list = await invoices(papir, accounts.papir);
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ status: 'UNPAID', payable: true, amountOre: 64_900, titleCode: 'ADR', bankAccountNumber: '1503.12.40007', paidAt: null });
    expect(list.slice(1).every((row) => row.status === 'PAID')).toBe(true);
    expect(list.map((row) => row.periodFrom)).toEqual([...list.map((row) => row.periodFrom)].sort().reverse());
    // Each KID is the title's length and check digit, and names its own invoice (issue 21).
    const adr = defaultCatalogue.byTitleCode('ADR').bank;
    for (const row of list) {
      expect(isValidKid(row.kid, adr), row.kid).toBe(true);
      expect(readKid(row.kid, adr)).toEqual({ kind: 'invoice', serial: row.ariaInvoiceNo });
    }
    expectRefused(await papir.request('GET', `${PORTAL}/api/invoice/${accounts.digital}`), 404, 'NOT_FOUND');
    expectRefused(await papir.request('GET', `${PORTAL}/api/invoice/${accounts.digital}?before=80000001`), 404, 'NOT_FOUND');
    // An own account without invoices is an empty list, not "not found".
    const member = await signIn('familiemedlem@minside.test');
    expect((await member.request('GET', `${PORTAL}/api/invoice/${accounts.familiemedlem}`)).json()).toEqual({ invoices: [], nextBefore: null });
    expectRefused(await new TestBrowser(() => injectTransport(test.app)).request('GET', `${PORTAL}/api/invoice/${accounts.papir}`), 401, 'NOT_AUTHENTICATED');
  });

  it('pages the list with limit and before', async () => {
    const papir = await signIn('papir@minside.test');
    const all = await invoices(papir, accounts.papir);
    const first = (await papir.request('GET', `${PORTAL}/api/invoice/${accounts.papir}?limit=2`)).json<{ invoices: Invoice[]; nextBefore: number }>();
    expect(first.invoices.map((row) => row.ariaInvoiceNo)).toEqual(all.slice(0, 2).map((row) => row.ariaInvoiceNo));
    const second = (await papir.request('GET', `${PORTAL}/api/invoice/${accounts.papir}?limit=2&before=${first.nextBefore}`)).json<{ invoices: Invoice[]; nextBefore: number | null }>();
    expect(second.invoices.map((row) => row.ariaInvoiceNo)).toEqual(all.slice(2).map((row) => row.ariaInvoiceNo));
    expect(second.nextBefore).toBeNull();
    expectRefused(await papir.request('GET', `${PORTAL}/api/invoice/${accounts.papir}?limit=500`), 400, 'VALIDATION_FAILED');
  });

  it('renders a real PDF with KID, amount in kroner, account number, due date and title name', async () => {
    const papir = await signIn('papir@minside.test');
    const unpaid = await unpaidOf(papir, accounts.papir);
    const raw = await papir.request('GET', `${PORTAL}/api/invoice/${accounts.papir}/${unpaid.ariaInvoiceNo}/pdf`);
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toBe('application/pdf');
    expect(raw.raw.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // Read back as a reader's tools read it (every field of the document: billing-documents.test.ts).
    const text = await pdfText(raw.raw);
    const [day, month, year] = [unpaid.dueOn.slice(8, 10), unpaid.dueOn.slice(5, 7), unpaid.dueOn.slice(0, 4)];
    for (const expected of [`KID ${unpaid.kid}`, '649,00 kr', 'Kontonummer 1503.12.40007', `Forfallsdato ${day}.${month}.${year}`, 'Adresseavisen']) expect(text).toContain(expected);
    expectRefused(await papir.request('GET', `${PORTAL}/api/invoice/${accounts.digital}/${unpaid.ariaInvoiceNo}/pdf`), 404, 'NOT_FOUND');
  });

  it('Avvis at Vipps MobilePay returns with the invoice still unpaid; La utløpe likewise', async () => {
    const papir = await signIn('papir@minside.test');
    const unpaid = await unpaidOf(papir, accounts.papir);
    // No "Feil" here: an ePayment has no failed outcome (its states are CREATED, AUTHORIZED, ABORTED,
    // EXPIRED and TERMINATED). FAILED is a Recurring charge's (billing-hardening.test.ts, dunning).
    for (const [action, status, state] of [
      ['reject', 'CANCELLED', 'ABORTED'],
      ['expire', 'TIMEOUT', 'EXPIRED'],
    ] as const) {
      const started = (await startPayment(papir, unpaid.ariaInvoiceNo)).json<{ paymentId: string; redirectUrl: string }>();
      const back = await answerAtVipps(test, started.redirectUrl, action);
      expect(back).toBe(`/betal-faktura/${unpaid.ariaInvoiceNo}?paymentId=${started.paymentId}`);
      const view = await paymentView(papir, started.paymentId);
      expect(view).toMatchObject({ status, purpose: 'INVOICE', ariaInvoiceNo: unpaid.ariaInvoiceNo, amountOre: 64_900, method: 'VIPPS' });
      expect(view.message.length).toBeGreaterThan(10);
      // Vipps MobilePay was asked for the invoice's amount, and took nothing.
      expect(await atVipps().epayment.get(started.paymentId)).toMatchObject({ state, amount: { value: 64_900 }, aggregate: { capturedAmount: { value: 0 } } });
    }
    expect((await paymentView(papir, (await paymentsOf(unpaid.ariaInvoiceNo))[0]?.id ?? '')).message).toBe('Betalingen ble avbrutt. Fakturaen er ikke betalt.');
    expect((await invoiceRow(unpaid.ariaInvoiceNo))?.paid_at).toBeNull();
    expect((await unpaidOf(papir, accounts.papir)).status).toBe('UNPAID');
  });

  it('a double submission is one payment; a replayed webhook settles once; a bad signature is refused', async () => {
    const papir = await signIn('papir@minside.test');
    const unpaid = await unpaidOf(papir, accounts.papir);
    const before = (await paymentsOf(unpaid.ariaInvoiceNo)).length;
    const key = randomUUID();
    const [first, second] = await Promise.all([startPayment(papir, unpaid.ariaInvoiceNo, key), startPayment(papir, unpaid.ariaInvoiceNo, key)]);
    expect(first.status, first.body).toBe(200);
    expect(second.json()).toEqual(first.json());
    const third = await startPayment(papir, unpaid.ariaInvoiceNo, key);
    expect(third.json()).toEqual(first.json());
    expect((await paymentsOf(unpaid.ariaInvoiceNo)).length).toBe(before + 1);
    // The same key for something else is refused, not reused.
    expectRefused(await startPayment(papir, unpaid.ariaInvoiceNo, key, 'SWEDBANK-PPG'), 409, 'IDEMPOTENCY_KEY_REUSED');
    const { paymentId, redirectUrl } = first.json<{ paymentId: string; redirectUrl: string }>();
    // One payment at Vipps MobilePay too: every create carried the same Idempotency-Key.
    const creates = vipps().requests.filter((request) => request.method === 'POST' && request.path === '/epayment/v1/payments' && (request.body as { reference?: string }).reference === paymentId);
    expect(new Set(creates.map((request) => request.headers['idempotency-key'])).size).toBe(1);

    // Not signed with our registration's secret, not signed, signed long ago, or a body other than the one signed: refused.
    const forged = epaymentEvent(paymentId, 'CAPTURED', 'forged-1', 64_900);
    expectRefused(await callbackAsBrowser(webhook(forged, { secret: 'not-the-secret' })), 401, 'INVALID_SIGNATURE');
    expectRefused(await callbackAsBrowser(webhook(forged, 'unsigned')), 401, 'INVALID_SIGNATURE');
    expectRefused(await callbackAsBrowser(webhook(forged, { date: new Date(now().getTime() - 9 * DAY) })), 401, 'INVALID_SIGNATURE');
    expectRefused(await callbackAsBrowser(webhook(forged, { signedBody: epaymentEvent(paymentId, 'CREATED', 'forged-1', 64_900) })), 401, 'INVALID_SIGNATURE');
    expect((await invoiceRow(unpaid.ariaInvoiceNo))?.paid_at).toBeNull();
    // A well-signed webhook does not make a payment the provider has not approved: it is only a hint to look.
    const early = await webhook(epaymentEvent(paymentId, 'CAPTURED', 'early-1', 64_900));
    expect(early.statusCode, early.body).toBe(200);
    expect((await paymentView(papir, paymentId)).status).toBe('PENDING');
    expect(captureRequests(paymentId)).toHaveLength(0);

    // Approved; Vipps MobilePay sends each webhook twice.
    vipps().faults.webhooks.duplicate = true;
    let back: string;
    try {
      back = await answerAtVipps(test, redirectUrl, 'approve');
    } finally {
      vipps().faults.webhooks.duplicate = false;
    }
    expect(back).toBe(`/betal-faktura/${unpaid.ariaInvoiceNo}?paymentId=${paymentId}`);
    const view = await paymentView(papir, paymentId);
    expect(view).toMatchObject({ status: 'CAPTURED', message: 'Betalingen er gjennomført. Takk!' });
    const paidAt = (await invoiceRow(unpaid.ariaInvoiceNo))?.paid_at;
    expect(paidAt).not.toBeNull();

    const replay = epaymentEvent(paymentId, 'AUTHORIZED', 'replay-1', 64_900);
    expect((await webhook(replay)).json()).toEqual({ received: true, duplicate: false });
    expect((await webhook(replay)).json()).toEqual({ received: true, duplicate: true });
    const rows = await paymentsOf(unpaid.ariaInvoiceNo);
    expect(rows.filter((row) => row.status === 'CAPTURED')).toHaveLength(1);
    expect(rows.filter((row) => row.status === 'PENDING')).toHaveLength(0);
    expect(await invoiceRow(unpaid.ariaInvoiceNo)).toEqual({ paid_at: paidAt, settled_by: 'VIPPS' });
    // The money: captured once, all of it.
    expect(captureRequests(paymentId)).toHaveLength(1);
    expect((await atVipps().epayment.get(paymentId)).aggregate).toMatchObject({ capturedAmount: { value: 64_900 }, refundedAmount: { value: 0 } });

    const list = await invoices(papir, accounts.papir);
    expect(list.find((row) => row.ariaInvoiceNo === unpaid.ariaInvoiceNo)).toMatchObject({ status: 'PAID', payable: false, settledBy: 'VIPPS' });
    // Paying it again, and the provider's page again, change nothing.
    expectRefused(await startPayment(papir, unpaid.ariaInvoiceNo), 409, 'INVOICE_ALREADY_PAID');
    await refusedAtVipps(test, redirectUrl, 'approve');
    expect((await paymentsOf(unpaid.ariaInvoiceNo)).length).toBe(rows.length);
    expect(captureRequests(paymentId)).toHaveLength(1);
  });

  async function callbackAsBrowser(response: Promise<{ statusCode: number; body: string; headers: Record<string, unknown>; json: () => unknown }>): Promise<BrowserResponse> {
    const done = await response;
    return { status: done.statusCode, headers: done.headers as BrowserResponse['headers'], body: done.body, raw: Buffer.from(done.body), json: <T>() => done.json() as T };
  }

  it('refuses another user’s invoice and payment with 404 and changes nothing', async () => {
    const digital = await signIn('digital@minside.test');
    const papir = await signIn('papir@minside.test');
    const theirs = (await invoices(papir, accounts.papir))[0] as Invoice;
    const before = (await paymentsOf(theirs.ariaInvoiceNo)).length;
    expectRefused(await startPayment(digital, theirs.ariaInvoiceNo), 404, 'NOT_FOUND');
    expect((await paymentsOf(theirs.ariaInvoiceNo)).length).toBe(before);
    const someone = (await paymentsOf(theirs.ariaInvoiceNo))[0];
    expectRefused(await digital.request('GET', `${PORTAL}/api/payment/${someone?.id}`), 404, 'NOT_FOUND');
  });

  it('a new attempt supersedes an open one, so two approvals cannot both pay', async () => {
    const digital = await signIn('digital@minside.test');
    const [invoiceNo] = await test.database.rows<{ no: number }>(sql`
      insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
      values (${accounts.digital}, 'demo-digital-adr', '0', 29900, 'Testfaktura', '2031-01-01', '2031-01-31', '2030-12-30', '1503.12.34567') returning aria_invoice_no as no`);
    const no = Number(invoiceNo?.no);
    const first = (await startPayment(digital, no)).json<{ paymentId: string; redirectUrl: string }>();
    const second = (await startPayment(digital, no, randomUUID(), 'SWEDBANK-PPG')).json<{ paymentId: string; redirectUrl: string }>();
    expect(second.paymentId).not.toBe(first.paymentId);
    expect((await paymentView(digital, first.paymentId)).status).toBe('CANCELLED');
    // The first was cancelled at Vipps MobilePay: pressing Godkjenn on its page now is refused there, and changes nothing here.
    expect((await atVipps().epayment.get(first.paymentId)).state).toBe('TERMINATED');
    await refusedAtVipps(test, first.redirectUrl, 'approve');
    expect((await paymentView(digital, first.paymentId)).status).toBe('CANCELLED');
    expect(await answerAtVipps(test, second.redirectUrl, 'approve')).toBe(`/betal-faktura/${no}?paymentId=${second.paymentId}`);
    expect((await paymentsOf(no)).map((row) => row.status).sort()).toEqual(['CANCELLED', 'CAPTURED']);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'SWEDBANK-PPG' });
    // The card form at Vipps MobilePay took the money once; the first took none.
    expect(await atVipps().epayment.get(second.paymentId)).toMatchObject({ paymentMethod: { type: 'CARD' }, aggregate: { capturedAmount: { value: 29_900 } } });
    expect((await atVipps().epayment.get(first.paymentId)).aggregate.capturedAmount.value).toBe(0);
  });

  it('reconciliation settles a payment whose webhook was lost, and times out one the payer abandoned', async () => {
    const digital = await signIn('digital@minside.test');
    const make = async () =>
      Number(
        (
          await test.database.rows<{ no: number }>(sql`
        insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
        values (${accounts.digital}, 'demo-digital-adr', '0', 29900, 'Testfaktura', '2032-01-01', '2032-01-31', '2031-12-30', '1503.12.34567') returning aria_invoice_no as no`)
        )[0]?.no,
      );
    const lost = await make();
    const abandoned = await make();
    // Every webhook of the first is lost, from its creation on (a late one would make the app look).
    vipps().faults.webhooks.drop = true;
    let started: { paymentId: string; redirectUrl: string };
    try {
      started = (await startPayment(digital, lost)).json<{ paymentId: string; redirectUrl: string }>();
      await answerAtVipps(test, started.redirectUrl, 'approve', { lostWebhooks: true });
    } finally {
      vipps().faults.webhooks.drop = false;
    }
    const left = (await startPayment(digital, abandoned)).json<{ paymentId: string }>();
    expect((await paymentsOf(lost))[0]?.status).toBe('PENDING');

    // Too fresh: left alone.
    expect((await test.app.billingJobs.runReconciliation()).settled).toBe(0);
    offsetMs = 11 * MINUTE;
    try {
      await test.app.billingJobs.runReconciliation();
      expect((await paymentsOf(lost))[0]?.status).toBe('CAPTURED');
      expect((await invoiceRow(lost))?.settled_by).toBe('VIPPS');
      // Vipps MobilePay lets a payment nobody answers expire after five minutes (its landing page's
      // validity), long before our hour: the first look-up finds it EXPIRED, and it is TIMEOUT here.
      expect((await atVipps().epayment.get(left.paymentId)).state).toBe('EXPIRED');
      expect((await paymentsOf(abandoned))[0]?.status).toBe('TIMEOUT');
      expect((await invoiceRow(abandoned))?.paid_at).toBeNull();
      offsetMs = 61 * MINUTE;
      await test.app.billingJobs.runReconciliation();
      await vipps().flushWebhooks();
      expect((await paymentsOf(lost)).map((row) => row.status)).toEqual(['CAPTURED']);
      expect((await paymentsOf(abandoned)).map((row) => row.status)).toEqual(['TIMEOUT']);
      expect((await invoiceRow(abandoned))?.paid_at).toBeNull();
    } finally {
      offsetMs = 0;
    }
    expect(captureRequests(started.paymentId)).toHaveLength(1);
    expect((await atVipps().epayment.get(started.paymentId)).aggregate.capturedAmount.value).toBe(29_900);
    expect((await atVipps().epayment.get(left.paymentId)).aggregate.capturedAmount.value).toBe(0);
  });

  it('changes papir to a Vipps agreement approved at Vipps MobilePay, so / shows VIPPS; no card is offered; AvtaleGiro waits for the bank, giro is recorded at once', async () => {
    const papir = await signIn('papir@minside.test');
    const put = (body: Record<string, unknown>) =>
      papir.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: accounts.papir, titleCode: 'ADR', idempotencyKey: randomUUID(), ...body } });
    const subscriptionMethod = async () => (await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR`)).json<{ paymentMethod: string }>().paymentMethod;
    const mandateKid = kidFor('mandate', 1, defaultCatalogue.byTitleCode('ADR').bank);
    expect((await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR/paymentMethod`)).json()).toMatchObject({
      method: 'AVTALEGIRO',
      avtaleGiro: { kid: mandateKid, payeeName: 'Adresseavisen', payeeAccountNumber: '1503.12.40007', status: 'ACTIVE' },
      choices: ['VIPPS', 'AVTALEGIRO', 'BANKGIRO'],
    });
    // Vipps MobilePay keeps no card: a stored card is not offered, and nothing is started.
    const paymentsBefore = await test.database.rows(sql`select id from payment where subscription_id = 'demo-papir-adr'`);
    expectRefused(await put({ method: 'SWEDBANK-PPG' }), 409, 'PAYMENT_METHOD_NOT_OFFERED');
    expect(await test.database.rows(sql`select id from payment where subscription_id = 'demo-papir-adr'`)).toEqual(paymentsBefore);

    const declined = (await put({ method: 'VIPPS' })).json<{ result: string; paymentId: string; redirectUrl: string }>();
    expect(await answerAtVipps(test, declined.redirectUrl, 'reject')).toBe(`/endre-betalingsmetode/verify?paymentId=${declined.paymentId}`);
    expect((await paymentView(papir, declined.paymentId)).status).toBe('CANCELLED');
    expect(await subscriptionMethod()).toBe('AVTALEGIRO');

    const redirect = await put({ method: 'VIPPS' });
    expect(redirect.json()).toMatchObject({ result: 'REDIRECT', paymentMethod: { method: 'AVTALEGIRO' } });
    const flow = redirect.json<{ paymentId: string; redirectUrl: string }>();
    const agreementId = new URL(flow.redirectUrl).searchParams.get('agreementId') ?? '';
    // What the payer is asked to approve in the Vipps app: papir's plan, monthly.
    expect(await atVipps().recurring.getAgreement(agreementId)).toMatchObject({ status: 'PENDING', interval: { unit: 'MONTH', count: 1 } });
    expect(await answerAtVipps(test, flow.redirectUrl, 'approve')).toBe(`/endre-betalingsmetode/verify?paymentId=${flow.paymentId}`);
    expect(await paymentView(papir, flow.paymentId)).toMatchObject({ status: 'CAPTURED', purpose: 'PAYMENT_METHOD_CHANGE', message: 'Betalingsmetoden er endret.' });
    expect(await subscriptionMethod()).toBe('VIPPS');
    expect((await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR/paymentMethod`)).json()).toMatchObject({ method: 'VIPPS', vippsAgreement: { agreementId } });

    // An account number is no longer asked for (the payer picks it in the netbank): the old field is refused, nothing changes.
    const before = await subscriptionMethod();
    expectRefused(await put({ method: 'AVTALEGIRO', bankAccountNumber: '8601 11 17947' }), 400, 'VALIDATION_FAILED');
    expect(await subscriptionMethod()).toBe(before);
    // Back to AvtaleGiro: the subscription keeps its customer KID, and the bank had confirmed that mandate, so it stands at once.
    const giro = await put({ method: 'AVTALEGIRO' });
    expect(giro.json()).toMatchObject({ result: 'CHANGED', paymentMethod: { method: 'AVTALEGIRO', label: 'AvtaleGiro', avtaleGiro: { kid: mandateKid, status: 'ACTIVE' } } });
    expect((await put({ method: 'AVTALEGIRO' })).json()).toMatchObject({ result: 'CHANGED', paymentMethod: { avtaleGiro: { kid: mandateKid } } });
    const live = await test.database.rows<{ status: string }>(sql`select status from payment_agreement where subscription_id = 'demo-papir-adr' and status in ('PENDING', 'ACTIVE')`);
    expect(live).toEqual([{ status: 'ACTIVE' }]);
    // The Vipps agreement it replaced is stopped at Vipps MobilePay: no charge can follow.
    expect((await atVipps().recurring.getAgreement(agreementId)).status).toBe('STOPPED');

    expect((await put({ method: 'BANKGIRO' })).json()).toMatchObject({ result: 'CHANGED', paymentMethod: { method: 'INVOICE', label: 'Giro / eFaktura', card: null, vippsAgreement: null } });
    expect(await subscriptionMethod()).toBe('INVOICE');
    const log = (await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR/changes`)).json<{ description: string }[] | { changes: { description: string }[] }>();
    expect(JSON.stringify(log)).toContain('Vipps');
  });

  it('refuses payment method changes on a shared subscription', async () => {
    const member = await signIn('familiemedlem@minside.test');
    expect((await member.request('GET', `${PORTAL}/api/subscription/${accounts.familiemedlem}/ADR/paymentMethod`)).json()).toMatchObject({ method: 'NONE', changeable: false });
    expectRefused(
      await member.request('PUT', `${PORTAL}/api/subscription/card`, { json: { ariaAccountNo: accounts.familiemedlem, titleCode: 'ADR', idempotencyKey: randomUUID() } }),
      409,
      'PAYMENT_METHOD_NOT_CHANGEABLE',
    );
    expectRefused(
      await member.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: accounts.papir, titleCode: 'ADR', method: 'BANKGIRO', idempotencyKey: randomUUID() } }),
      404,
      'NOT_FOUND',
    );
  });

  it('pays by pay-link without a session; expired and tampered links are refused', async () => {
    const [created] = await test.database.rows<{ no: number }>(sql`
      insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
      values (${accounts.ung}, 'demo-ung-adr', '0', 9900, 'Ung digital', '2033-01-01', '2033-01-31', '2032-12-30', '1503.12.34567') returning aria_invoice_no as no`);
    const no = Number(created?.no);
    const operator = await test.app.inject({
      method: 'POST',
      url: '/api/operator/paylink',
      headers: { authorization: `Bearer ${'o'.repeat(40)}`, 'content-type': 'application/json' },
      payload: { ariaInvoiceNo: no, validDays: 2 },
    });
    expect(operator.statusCode, operator.body).toBe(200);
    const { token, path } = operator.json<{ token: string; path: string }>();
    expect(path).toBe(`/betaling?token=${encodeURIComponent(token)}`);
    expect((await test.app.inject({ method: 'POST', url: '/api/operator/paylink', headers: { 'content-type': 'application/json' }, payload: { ariaInvoiceNo: no } })).statusCode).toBe(401);

    const stranger = new TestBrowser(() => injectTransport(test.app));
    const details = await stranger.request('GET', `${PORTAL}/api/paylink/${encodeURIComponent(token)}`);
    expect(details.json()).toMatchObject({ ariaInvoiceNo: no, amountOre: 9900, status: 'UNPAID', payable: true, titleCode: 'ADR' });
    const tampered = token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA');
    expectRefused(await stranger.request('GET', `${PORTAL}/api/paylink/${encodeURIComponent(tampered)}`), 404, 'PAYLINK_INVALID');
    const otherInvoice = token.replace(/^[^.]+/, Buffer.from(JSON.stringify({ v: 1, i: no - 1, e: 4_000_000_000 })).toString('base64url'));
    expectRefused(await stranger.request('GET', `${PORTAL}/api/paylink/${encodeURIComponent(otherInvoice)}`), 404, 'PAYLINK_INVALID');

    const started = await stranger.request('POST', `${PORTAL}/api/paylink/${encodeURIComponent(token)}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBe(200);
    const flow = started.json<{ paymentId: string; redirectUrl: string }>();
    expect(await answerAtVipps(test, flow.redirectUrl, 'approve')).toBe(`/betaling?token=${encodeURIComponent(token)}&paymentId=${flow.paymentId}`);
    expectRefused(await stranger.request('GET', `${PORTAL}/api/payment/${flow.paymentId}`), 404, 'NOT_FOUND');
    expect(await paymentView(stranger, flow.paymentId, `?token=${encodeURIComponent(token)}`)).toMatchObject({ status: 'CAPTURED', ariaInvoiceNo: no });
    expect((await stranger.request('GET', `${PORTAL}/api/paylink/${encodeURIComponent(token)}`)).json()).toMatchObject({ status: 'PAID', payable: false });
    expectRefused(
      await stranger.request('POST', `${PORTAL}/api/paylink/${encodeURIComponent(token)}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } }),
      409,
      'INVOICE_ALREADY_PAID',
    );

    offsetMs = 3 * 24 * 60 * MINUTE;
    try {
      expectRefused(await stranger.request('GET', `${PORTAL}/api/paylink/${encodeURIComponent(token)}`), 410, 'PAYLINK_EXPIRED');
    } finally {
      offsetMs = 0;
    }
  });

  it('adds a discount code once, shows it, and refuses invalid, expired and second codes', async () => {
    const ung = await signIn('ung@minside.test');
    const details = () => ung.request('POST', `${PORTAL}/api/getDiscountDetails`, { json: { ariaAccountNo: accounts.ung, titleCode: 'ADR' } });
    const add = (discountCode: string) => ung.request('POST', `${PORTAL}/api/addDiscount`, { json: { ariaAccountNo: accounts.ung, titleCode: 'ADR', discountCode } });
    expect((await details()).json()).toEqual({ discount: null });
    expectRefused(await add('FINNESIKKE'), 400, 'DISCOUNT_CODE_INVALID');
    expectRefused(await add('SOMMER2020'), 400, 'DISCOUNT_CODE_INVALID');
    const added = await add('velkommen20');
    expect(added.status, added.body).toBe(200);
    expect(added.json()).toMatchObject({ discount: { discountCode: 'VELKOMMEN20', percentOff: 20, amountOffOre: null, remainingPeriods: 3 } });
    expect((await details()).json()).toMatchObject({ discount: { discountCode: 'VELKOMMEN20' } });
    expectRefused(await add('HALVPRIS'), 409, 'DISCOUNT_ALREADY_ACTIVE');
    expectRefused(await add('VELKOMMEN20'), 409, 'DISCOUNT_CODE_USED');
  });

  it('lets another area run its own flow with its own return URL and hear the outcome (issue 7 orders)', async () => {
    const settled: string[] = [];
    test.app.paymentEngine.onSettled('ORDER', async (_tx, row) => {
      settled.push(`${row.id}:${row.status}`);
    });
    const flow = await test.app.paymentEngine.start({
      idempotencyKey: `order:${randomUUID()}`,
      purpose: 'ORDER',
      method: 'VIPPS',
      amountOre: 100,
      userId: null,
      ariaAccountNo: null,
      subscriptionId: null,
      ariaInvoiceNo: null,
      description: 'Digital – første måned for 1 kr',
      returnPath: '/completevippspurchase?paymentId={paymentId}',
      titleCode: 'ADR',
    });
    expect(await answerAtVipps(test, flow.redirectUrl, 'approve')).toBe(`/completevippspurchase?paymentId=${flow.paymentId}`);
    expect(settled).toEqual([`${flow.paymentId}:CAPTURED`]);
    expect((await atVipps().epayment.get(flow.paymentId)).aggregate.capturedAmount.value).toBe(100);
  });

  it('documents the billing calls in OpenAPI', async () => {
    const doc = (await test.app.inject({ method: 'GET', url: '/api/docs' })).json<{ paths: Record<string, unknown> }>();
    for (const path of [
      '/api/invoice/{accountNo}',
      '/api/invoice/{ariaInvoiceNo}/payment',
      '/api/payment/{paymentId}',
      '/api/subscription/paymentMethod',
      '/api/subscription/card',
      '/api/addDiscount',
      '/api/getDiscountDetails',
      '/api/paylink/{token}',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});

describe.each(testDatabases)('billing, storing a card ($name)', ({ name }) => {
  // The test provider stands in for a card-storing provider (Vipps MobilePay keeps none).
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, config: { paymentProvider: 'test', vipps: undefined } });
  });
  afterAll(() => test.close());

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  const paymentView = async (browser: TestBrowser, paymentId: string) => {
    const response = await browser.request('GET', `${PORTAL}/api/payment/${paymentId}`);
    expect(response.status, response.body).toBe(200);
    return paymentSchema.parse(response.json());
  };
  /** Presses a button on the test provider's hosted page, as the payer does; returns where the browser is sent. */
  const press = async (browser: TestBrowser, redirectUrl: string, action: 'approve' | 'cancel', extra: Record<string, string> = {}) => {
    const page = await browser.request('GET', `${PORTAL}${redirectUrl}`);
    expect(page.status).toBe(200);
    for (const label of ['Godkjenn', 'Avbryt']) expect(page.body).toContain(`>${label}</button>`);
    const response = await browser.request('POST', `${PORTAL}${redirectUrl}`, { form: { action, ...extra } });
    expect(response.status).toBe(303);
    return String(response.headers['location']);
  };

  it('shows and changes the card; CARD_NOT_FOUND when the provider has no card', async () => {
    const digital = await signIn('digital@minside.test');
    const method = async () => (await digital.request('GET', `${PORTAL}/api/subscription/${accounts.digital}/ADR/paymentMethod`)).json();
    expect(await method()).toMatchObject({
      method: 'CARD',
      providerCode: 'SWEDBANK-PPG',
      label: 'Betalingskort',
      card: { last4: '4242', maskedNumber: '**** **** **** 4242', brand: 'Visa' },
      changeable: true,
    });

    const missing = await digital.request('PUT', `${PORTAL}/api/subscription/card`, { json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', idempotencyKey: randomUUID() } });
    expect(missing.status, missing.body).toBe(200);
    const missingFlow = missing.json<{ paymentId: string; redirectUrl: string }>();
    expect(await press(digital, missingFlow.redirectUrl, 'approve', { card: 'missing' })).toBe(`/legg-til-betalingskort/verify?paymentId=${missingFlow.paymentId}`);
    expect(await paymentView(digital, missingFlow.paymentId)).toMatchObject({ status: 'FAILED', errorCode: 'CARD_NOT_FOUND', message: 'Finner ikke kortdetaljer', purpose: 'CARD_CHANGE' });
    expect(await method()).toMatchObject({ card: { last4: '4242' } });

    const flow = (await digital.request('PUT', `${PORTAL}/api/subscription/card`, { json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', idempotencyKey: randomUUID() } })).json<{
      paymentId: string;
      redirectUrl: string;
    }>();
    await press(digital, flow.redirectUrl, 'approve', { card: '5555' });
    expect(await paymentView(digital, flow.paymentId)).toMatchObject({ status: 'CAPTURED', message: 'Betalingskortet er lagret.' });
    expect(await method()).toMatchObject({ method: 'CARD', card: { last4: '4444', brand: 'Mastercard', expiryMonth: 6, expiryYear: 2029 } });
  });

  it('changes papir to a stored card through the provider, so / shows CARD; Avbryt changes nothing', async () => {
    const papir = await signIn('papir@minside.test');
    const put = (body: Record<string, unknown>) =>
      papir.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: accounts.papir, titleCode: 'ADR', idempotencyKey: randomUUID(), ...body } });
    const subscriptionMethod = async () => (await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR`)).json<{ paymentMethod: string }>().paymentMethod;
    expect((await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR/paymentMethod`)).json()).toMatchObject({
      method: 'AVTALEGIRO',
      choices: expect.arrayContaining(['SWEDBANK-PPG']),
    });

    const cancelled = (await put({ method: 'SWEDBANK-PPG' })).json<{ result: string; paymentId: string; redirectUrl: string }>();
    await press(papir, cancelled.redirectUrl, 'cancel');
    expect((await paymentView(papir, cancelled.paymentId)).status).toBe('CANCELLED');
    expect(await subscriptionMethod()).toBe('AVTALEGIRO');

    const redirect = await put({ method: 'SWEDBANK-PPG' });
    expect(redirect.json()).toMatchObject({ result: 'REDIRECT', paymentMethod: { method: 'AVTALEGIRO' } });
    const flow = redirect.json<{ paymentId: string; redirectUrl: string }>();
    expect(await press(papir, flow.redirectUrl, 'approve')).toBe(`/endre-betalingsmetode/verify?paymentId=${flow.paymentId}`);
    expect(await paymentView(papir, flow.paymentId)).toMatchObject({ status: 'CAPTURED', purpose: 'PAYMENT_METHOD_CHANGE', message: 'Betalingsmetoden er endret.' });
    expect(await subscriptionMethod()).toBe('CARD');
    const log = (await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR/changes`)).json<{ description: string }[] | { changes: { description: string }[] }>();
    expect(JSON.stringify(log)).toContain('Betalingskort');
  });
});
