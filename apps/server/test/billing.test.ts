import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidKid, kidFor, paymentSchema, readKid, type Invoice, systemClock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, TestBrowser, type BrowserResponse } from './browser.ts';
import { expectRefused, signIn as signInAs } from './support.ts';
import { signTestCallback, TEST_SIGNATURE_HEADER } from '../src/integrations/payment/test-provider.ts';

// Issue 6: invoices, paying through the embedded test provider (hosted page → signed callback
// → invoice Betalt), idempotency of double submissions and replayed callbacks, signatures,
// ownership, payment method and card changes, pay-links and discounts.

const PORTAL = 'http://adresseavisen.localhost:3000';
const MINUTE = 60 * 1000;
const accounts = { papir: 40_000_001, digital: 40_000_002, ung: 40_000_003, familiemedlem: 40_000_005 } as const;

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
  /** Presses a button on the test provider's hosted page, as the payer does; returns where the browser is sent. */
  const press = async (browser: TestBrowser, redirectUrl: string, action: 'approve' | 'cancel' | 'fail' | 'timeout', extra: Record<string, string> = {}) => {
    const page = await browser.request('GET', `${PORTAL}${redirectUrl}`);
    expect(page.status).toBe(200);
    for (const label of ['Godkjenn', 'Avbryt', 'Feil', 'Tidsavbrudd']) expect(page.body).toContain(`>${label}</button>`);
    const response = await browser.request('POST', `${PORTAL}${redirectUrl}`, { form: { action, ...extra } });
    expect(response.status).toBe(303);
    return String(response.headers['location']);
  };
  const startPayment = (browser: TestBrowser, invoiceNo: number, key = randomUUID(), method = 'VIPPS') =>
    browser.request('POST', `${PORTAL}/api/invoice/${invoiceNo}/payment`, { json: { method, idempotencyKey: key } });
  const paymentView = async (browser: TestBrowser, paymentId: string, query = '') => {
    const response = await browser.request('GET', `${PORTAL}/api/payment/${paymentId}${query}`);
    expect(response.status, response.body).toBe(200);
    return paymentSchema.parse(response.json());
  };
  const webhookSecret = async () => (await test.database.rows<{ value: string }>(sql`select value from billing_secret where name = 'test_provider_webhook'`))[0]?.value ?? '';
  const callback = (body: string, signature: string) =>
    test.app.inject({ method: 'POST', url: '/api/payment/callback/test', payload: body, headers: { 'content-type': 'application/json', [TEST_SIGNATURE_HEADER]: signature } });

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
    const cookie = [...papir.cookies('adresseavisen.localhost:3000')].map(([key, value]) => `${key}=${value}`).join('; ');
    // Raw bytes: the file is Latin-1 (WinAnsi) and its cross-reference offsets count bytes.
    const raw = await test.app.inject({ method: 'GET', url: `/api/invoice/${accounts.papir}/${unpaid.ariaInvoiceNo}/pdf`, headers: { host: 'adresseavisen.localhost:3000', cookie } });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('application/pdf');
    const pdf = raw.rawPayload.toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const [day, month, year] = [unpaid.dueOn.slice(8, 10), unpaid.dueOn.slice(5, 7), unpaid.dueOn.slice(0, 4)];
    for (const text of [`KID: ${unpaid.kid}`, 'kr 649,00', 'Kontonummer: 1503.12.40007', `Forfallsdato: ${day}.${month}.${year}`, 'Adresseavisen']) expect(pdf).toContain(text);
    // Every object the cross-reference table points at starts exactly there.
    const startxref = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(offsets.length).toBeGreaterThan(5);
    offsets.forEach((offset, index) => expect(pdf.startsWith(`${index + 1} 0 obj\n`, offset), `object ${index + 1}`).toBe(true));
    expectRefused(await papir.request('GET', `${PORTAL}/api/invoice/${accounts.digital}/${unpaid.ariaInvoiceNo}/pdf`), 404, 'NOT_FOUND');
  });

  it('Avbryt returns with the invoice still unpaid; Feil and Tidsavbrudd likewise', async () => {
    const papir = await signIn('papir@minside.test');
    const unpaid = await unpaidOf(papir, accounts.papir);
    for (const [action, status] of [['cancel', 'CANCELLED'], ['fail', 'FAILED'], ['timeout', 'TIMEOUT']] as const) {
      const started = (await startPayment(papir, unpaid.ariaInvoiceNo)).json<{ paymentId: string; redirectUrl: string }>();
      const back = await press(papir, started.redirectUrl, action);
      expect(back).toBe(`/betal-faktura/${unpaid.ariaInvoiceNo}?paymentId=${started.paymentId}`);
      const view = await paymentView(papir, started.paymentId);
      expect(view).toMatchObject({ status, purpose: 'INVOICE', ariaInvoiceNo: unpaid.ariaInvoiceNo, amountOre: 64_900, method: 'VIPPS' });
      expect(view.message.length).toBeGreaterThan(10);
    }
    expect((await paymentView(papir, (await paymentsOf(unpaid.ariaInvoiceNo))[0]?.id ?? '')).message).toBe('Betalingen ble avbrutt. Fakturaen er ikke betalt.');
    expect((await invoiceRow(unpaid.ariaInvoiceNo))?.paid_at).toBeNull();
    expect((await unpaidOf(papir, accounts.papir)).status).toBe('UNPAID');
  });

  it('a double submission is one payment; a replayed callback settles once; a bad signature is refused', async () => {
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
    const providerId = decodeURIComponent(redirectUrl.split('/').at(-1) ?? '');
    const secret = await webhookSecret();
    const forged = JSON.stringify({ eventId: 'forged-1', transactionId: providerId, merchantReference: paymentId, status: 'CAPTURED' });
    expectRefused(await callbackAsBrowser(callback(forged, signTestCallback('not-the-secret', forged, now()))), 401, 'INVALID_SIGNATURE');
    expectRefused(await callbackAsBrowser(callback(forged, '')), 401, 'INVALID_SIGNATURE');
    expectRefused(await callbackAsBrowser(callback(forged, signTestCallback(secret, forged, new Date(now().getTime() - 10 * MINUTE)))), 401, 'INVALID_SIGNATURE');
    expect((await invoiceRow(unpaid.ariaInvoiceNo))?.paid_at).toBeNull();
    // A well-signed callback does not make a payment the provider has not approved.
    const early = JSON.stringify({ eventId: 'early-1', transactionId: providerId, merchantReference: paymentId, status: 'CAPTURED' });
    expect((await callback(early, signTestCallback(secret, early, now()))).statusCode).toBe(200);
    expect((await paymentView(papir, paymentId)).status).toBe('PENDING');

    const back = await press(papir, redirectUrl, 'approve');
    expect(back).toBe(`/betal-faktura/${unpaid.ariaInvoiceNo}?paymentId=${paymentId}`);
    const view = await paymentView(papir, paymentId);
    expect(view).toMatchObject({ status: 'CAPTURED', message: 'Betalingen er gjennomført. Takk!' });
    const paidAt = (await invoiceRow(unpaid.ariaInvoiceNo))?.paid_at;
    expect(paidAt).not.toBeNull();

    const replay = JSON.stringify({ eventId: 'replay-1', transactionId: providerId, merchantReference: paymentId, status: 'AUTHORIZED' });
    const signature = signTestCallback(secret, replay, now());
    const firstReplay = await callback(replay, signature);
    expect(firstReplay.json()).toEqual({ received: true, duplicate: false });
    expect((await callback(replay, signature)).json()).toEqual({ received: true, duplicate: true });
    const rows = await paymentsOf(unpaid.ariaInvoiceNo);
    expect(rows.filter((row) => row.status === 'CAPTURED')).toHaveLength(1);
    expect(rows.filter((row) => row.status === 'PENDING')).toHaveLength(0);
    expect((await invoiceRow(unpaid.ariaInvoiceNo))).toEqual({ paid_at: paidAt, settled_by: 'VIPPS' });

    const list = await invoices(papir, accounts.papir);
    expect(list.find((row) => row.ariaInvoiceNo === unpaid.ariaInvoiceNo)).toMatchObject({ status: 'PAID', payable: false, settledBy: 'VIPPS' });
    // Paying it again, and the provider's page again, change nothing.
    expectRefused(await startPayment(papir, unpaid.ariaInvoiceNo), 409, 'INVOICE_ALREADY_PAID');
    expect((await paymentsOf(unpaid.ariaInvoiceNo)).length).toBe(rows.length);
  });

  async function callbackAsBrowser(response: Promise<{ statusCode: number; body: string; headers: Record<string, unknown>; json: () => unknown }>): Promise<BrowserResponse> {
    const done = await response;
    return { status: done.statusCode, headers: done.headers as BrowserResponse['headers'], body: done.body, json: <T>() => done.json() as T };
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
    // The first page was cancelled at the provider: pressing Godkjenn there now changes nothing.
    expect((await digital.request('POST', `${PORTAL}${first.redirectUrl}`, { form: { action: 'approve' } })).status).toBe(303);
    await press(digital, second.redirectUrl, 'approve');
    expect((await paymentsOf(no)).map((row) => row.status).sort()).toEqual(['CANCELLED', 'CAPTURED']);
    expect(await invoiceRow(no)).toMatchObject({ settled_by: 'SWEDBANK-PPG' });
  });

  it('reconciliation settles a payment whose callback was lost, and times out an abandoned one', async () => {
    const digital = await signIn('digital@minside.test');
    const make = async () =>
      Number((await test.database.rows<{ no: number }>(sql`
        insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
        values (${accounts.digital}, 'demo-digital-adr', '0', 29900, 'Testfaktura', '2032-01-01', '2032-01-31', '2031-12-30', '1503.12.34567') returning aria_invoice_no as no`))[0]?.no);
    const lost = await make();
    const abandoned = await make();
    const started = (await startPayment(digital, lost)).json<{ paymentId: string; redirectUrl: string }>();
    await press(digital, started.redirectUrl, 'approve', { lostCallback: 'on' });
    await startPayment(digital, abandoned);
    expect((await paymentsOf(lost))[0]?.status).toBe('PENDING');

    // Too fresh: left alone.
    expect((await test.app.billingJobs.runReconciliation()).settled).toBe(0);
    offsetMs = 11 * MINUTE;
    try {
      await test.app.billingJobs.runReconciliation();
      expect((await paymentsOf(lost))[0]?.status).toBe('CAPTURED');
      expect((await invoiceRow(lost))?.settled_by).toBe('VIPPS');
      expect((await paymentsOf(abandoned))[0]?.status).toBe('PENDING');
      offsetMs = 61 * MINUTE;
      await test.app.billingJobs.runReconciliation();
      expect((await paymentsOf(abandoned))[0]?.status).toBe('TIMEOUT');
      expect((await invoiceRow(abandoned))?.paid_at).toBeNull();
    } finally {
      offsetMs = 0;
    }
  });

  it('shows and changes the card; CARD_NOT_FOUND when the provider has no card', async () => {
    const digital = await signIn('digital@minside.test');
    const method = async () => (await digital.request('GET', `${PORTAL}/api/subscription/${accounts.digital}/ADR/paymentMethod`)).json();
    expect(await method()).toMatchObject({ method: 'CARD', providerCode: 'SWEDBANK-PPG', label: 'Betalingskort', card: { last4: '4242', maskedNumber: '**** **** **** 4242', brand: 'Visa' }, changeable: true });

    const missing = await digital.request('PUT', `${PORTAL}/api/subscription/card`, { json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', idempotencyKey: randomUUID() } });
    expect(missing.status, missing.body).toBe(200);
    const missingFlow = missing.json<{ paymentId: string; redirectUrl: string }>();
    expect(await press(digital, missingFlow.redirectUrl, 'approve', { card: 'missing' })).toBe(`/legg-til-betalingskort/verify?paymentId=${missingFlow.paymentId}`);
    expect(await paymentView(digital, missingFlow.paymentId)).toMatchObject({ status: 'FAILED', errorCode: 'CARD_NOT_FOUND', message: 'Finner ikke kortdetaljer', purpose: 'CARD_CHANGE' });
    expect(await method()).toMatchObject({ card: { last4: '4242' } });

    const flow = (await digital.request('PUT', `${PORTAL}/api/subscription/card`, { json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', idempotencyKey: randomUUID() } })).json<{ paymentId: string; redirectUrl: string }>();
    await press(digital, flow.redirectUrl, 'approve', { card: '5555' });
    expect(await paymentView(digital, flow.paymentId)).toMatchObject({ status: 'CAPTURED', message: 'Betalingskortet er lagret.' });
    expect(await method()).toMatchObject({ method: 'CARD', card: { last4: '4444', brand: 'Mastercard', expiryMonth: 6, expiryYear: 2029 } });
  });

  it('changes papir to card through the provider, so / shows CARD; AvtaleGiro waits for the bank, giro is recorded at once', async () => {
    const papir = await signIn('papir@minside.test');
    const put = (body: Record<string, unknown>) => papir.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: accounts.papir, titleCode: 'ADR', idempotencyKey: randomUUID(), ...body } });
    const subscriptionMethod = async () => (await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR`)).json<{ paymentMethod: string }>().paymentMethod;
    const mandateKid = kidFor('mandate', 1, defaultCatalogue.byTitleCode('ADR').bank);
    expect((await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR/paymentMethod`)).json()).toMatchObject({ method: 'AVTALEGIRO', avtaleGiro: { kid: mandateKid, payeeName: 'Adresseavisen', payeeAccountNumber: '1503.12.40007', status: 'ACTIVE' } });

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

    expect((await put({ method: 'BANKGIRO' })).json()).toMatchObject({ result: 'CHANGED', paymentMethod: { method: 'INVOICE', label: 'Giro / eFaktura', card: null } });
    expect(await subscriptionMethod()).toBe('INVOICE');
    const log = (await papir.request('GET', `${PORTAL}/api/subscription/${accounts.papir}/ADR/changes`)).json<{ description: string }[] | { changes: { description: string }[] }>();
    expect(JSON.stringify(log)).toContain('Betalingskort');
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
    const operator = await test.app.inject({ method: 'POST', url: '/api/operator/paylink', headers: { authorization: `Bearer ${'o'.repeat(40)}`, 'content-type': 'application/json' }, payload: { ariaInvoiceNo: no, validDays: 2 } });
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
    expect(await press(stranger, flow.redirectUrl, 'approve')).toBe(`/betaling?token=${encodeURIComponent(token)}&paymentId=${flow.paymentId}`);
    expectRefused(await stranger.request('GET', `${PORTAL}/api/payment/${flow.paymentId}`), 404, 'NOT_FOUND');
    expect(await paymentView(stranger, flow.paymentId, `?token=${encodeURIComponent(token)}`)).toMatchObject({ status: 'CAPTURED', ariaInvoiceNo: no });
    expect((await stranger.request('GET', `${PORTAL}/api/paylink/${encodeURIComponent(token)}`)).json()).toMatchObject({ status: 'PAID', payable: false });
    expectRefused(await stranger.request('POST', `${PORTAL}/api/paylink/${encodeURIComponent(token)}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } }), 409, 'INVOICE_ALREADY_PAID');

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
    const browser = await signIn('ny@minside.test');
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
    expect(await press(browser, flow.redirectUrl, 'approve')).toBe(`/completevippspurchase?paymentId=${flow.paymentId}`);
    expect(settled).toEqual([`${flow.paymentId}:CAPTURED`]);
  });

  it('documents the billing calls in OpenAPI', async () => {
    const doc = (await test.app.inject({ method: 'GET', url: '/api/docs' })).json<{ paths: Record<string, unknown> }>();
    for (const path of ['/api/invoice/{accountNo}', '/api/invoice/{ariaInvoiceNo}/payment', '/api/payment/{paymentId}', '/api/subscription/paymentMethod', '/api/subscription/card', '/api/addDiscount', '/api/getDiscountDetails', '/api/paylink/{token}']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});

