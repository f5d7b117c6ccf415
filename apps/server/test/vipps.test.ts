import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, manualClock, osloToday, paymentReference, systemClock, type Invoice, type Payment } from '@minside/domain';
import { createVippsClient, signWebhookRequest } from '@minside/vipps';
import { createVippsSimulator, type VippsSimulator } from '@minside/vipps/simulator';
import { createCatalogue, defaultCatalogue, defaultCatalogueDocument } from '@minside/titles';
import { createVippsProvider } from '../src/integrations/payment/vipps-provider.ts';
import { loadConfig } from '../src/config.ts';
import { insertInvoice } from '../src/modules/billing/issue-invoice.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { signIn } from './support.ts';

// Issue 22: the portal takes one-off payments through Vipps MobilePay's ePayment API — "Betal med
// Vipps" (WALLET) and card (CARD) — with the real adapter code talking HTTP to the simulator of
// the published contract; only the base URL differs from production. The payer approves on the
// provider's landing page; the signed webhook is only a hint, the payment's state is looked up and
// the invoice is paid by one capture, however the webhooks come (twice, never) or the provider fails.

const PORTAL = 'http://adresseavisen.localhost:3000';
const MSN = '123456';
const credentials = { clientId: 'minside-test-client', clientSecret: 'vipps-secret-'.padEnd(40, 'x'), subscriptionKey: 'vipps-key-'.padEnd(32, 'k') };

describe.each(testDatabases)('Vipps MobilePay against the simulator ($name)', ({ name }) => {
  let simulator: VippsSimulator;
  let test: TestApp;
  const clock = manualClock(systemClock());
  const today = osloToday(clock());

  beforeAll(async () => {
    simulator = createVippsSimulator({
      now: clock,
      credentials: { ...credentials, merchantSerialNumbers: [MSN] },
      // Webhooks reach the app in-process, with the headers and body the simulator signed.
      deliver: async (url, init) => {
        const target = new URL(String(url));
        const answer = await test.app.inject({
          method: (init?.method ?? 'POST') as 'POST',
          url: `${target.pathname}${target.search}`,
          headers: Object.fromEntries(new Headers(init?.headers).entries()),
          payload: String(init?.body ?? ''),
        });
        return new Response(answer.body, { status: answer.statusCode });
      },
    });
    const baseUrl = await simulator.listen();
    test = await buildTestApp(name, {
      seed: true,
      now: clock,
      config: { paymentProvider: 'vipps', vipps: { baseUrl, ...credentials, merchantSerialNumber: MSN }, publicUrl: PORTAL },
    });
  });
  afterAll(async () => {
    await test?.close();
    await simulator?.close();
  });

  /** A fresh open invoice of digital's subscription (paid by card in the seed, so nothing else draws it). */
  const openInvoice = async (amountOre = 29_900, dueOn = addDays(today, 20)) =>
    test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        { ariaAccountNo: 40_000_002, subscriptionId: 'demo-digital-adr', amountOre, description: 'Digital, Vipps-test', periodFrom: addDays(dueOn, 10), periodTo: addDays(dueOn, 39), dueOn },
        clock(),
      ),
    );
  const pay = async (ariaInvoiceNo: number, method: 'VIPPS' | 'SWEDBANK-PPG' = 'VIPPS') => {
    const browser = await signIn(test, PORTAL, 'digital@minside.test');
    const started = await browser.request('POST', `${PORTAL}/api/invoice/${ariaInvoiceNo}/payment`, { json: { method, idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBe(200);
    return { browser, ...started.json<{ paymentId: string; redirectUrl: string }>() };
  };
  const invoiceOf = async (ariaInvoiceNo: number) => {
    const browser = await signIn(test, PORTAL, 'digital@minside.test');
    return (await browser.request('GET', `${PORTAL}/api/invoice/40000002`)).json<{ invoices: Invoice[] }>().invoices.find((row) => row.ariaInvoiceNo === ariaInvoiceNo);
  };
  const paymentRow = async (paymentId: string) => (await test.database.rows<{ status: string; amount_ore: number }>(sql`select status, amount_ore from payment where id = ${paymentId}`))[0];
  /** The provider's own view, asked the way any client of the published API asks. */
  const atProvider = (reference: string) =>
    createVippsClient({ baseUrl: simulator.url, ...credentials, merchantSerialNumber: MSN, system: { name: 'minside-test', version: '1' }, now: clock }).epayment.get(reference);

  it('registers its webhook with the Webhooks API at start-up', () => {
    const registrations = simulator.requests.filter((request) => request.method === 'POST' && request.path === '/webhooks/v1/webhooks');
    expect(registrations).toHaveLength(1);
    expect(registrations[0]?.body).toMatchObject({ url: `${PORTAL}/api/payment/callback/vipps`, events: expect.arrayContaining(['epayments.payment.authorized.v1']) });
  });

  it('"Betal med Vipps": the landing page, approval, a signed webhook, one capture, the invoice paid', async () => {
    const created = await openInvoice();
    const { paymentId, redirectUrl } = await pay(created.ariaInvoiceNo);
    expect(redirectUrl.startsWith(simulator.url)).toBe(true);
    const landing = await fetch(redirectUrl);
    expect(landing.status).toBe(200);
    // Webhooks come twice: the second is recognised, nothing is captured twice.
    simulator.faults.webhooks.duplicate = true;
    simulator.approve(paymentId);
    await simulator.flushWebhooks();
    simulator.faults.webhooks.duplicate = false;
    expect(await paymentRow(paymentId)).toEqual({ status: 'CAPTURED', amount_ore: 29_900 });
    expect(await invoiceOf(created.ariaInvoiceNo)).toMatchObject({ status: 'PAID', settledBy: 'VIPPS' });
    const provider = await atProvider(paymentId);
    expect(provider.paymentMethod.type).toBe('WALLET');
    expect(provider.aggregate.capturedAmount.value).toBe(29_900);
    // Exactly one capture, however many webhooks and look-ups came.
    const captures = simulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith(`/payments/${paymentId}/capture`));
    expect(captures).toHaveLength(1);

    // A refund (a complaint credit, say) asked twice with the engine's key is made once.
    await test.app.paymentProvider.refund(paymentId, 10_000, `refund:${paymentId}:test`);
    await test.app.paymentProvider.refund(paymentId, 10_000, `refund:${paymentId}:test`);
    expect((await atProvider(paymentId)).aggregate.refundedAmount.value).toBe(10_000);
  });

  it('webhooks out of order (captured before authorized) and an access token that expired on the way: one capture, the invoice paid', async () => {
    const created = await openInvoice();
    // The token the adapter holds is refused once (expired early at the provider): it fetches a new one and goes on.
    const tokensFetched = () => simulator.requests.filter((request) => request.path.startsWith('/accesstoken/get')).length;
    const before = tokensFetched();
    simulator.faults.next('expired-token', { method: 'POST', pathPrefix: '/epayment/v1/payments' });
    const { paymentId } = await pay(created.ariaInvoiceNo);
    expect(tokensFetched()).toBe(before + 1);
    expect(
      simulator.requests
        .filter((request) => request.method === 'POST' && request.path === '/epayment/v1/payments' && (request.body as { reference?: string }).reference === paymentId)
        .map((request) => request.response?.status),
    ).toEqual([401, 201]);
    simulator.faults.webhooks.reorder = true;
    simulator.approve(paymentId);
    await simulator.flushWebhooks();
    simulator.faults.webhooks.reorder = false;
    await simulator.flushWebhooks();
    expect(await paymentRow(paymentId)).toEqual({ status: 'CAPTURED', amount_ore: 29_900 });
    expect(await invoiceOf(created.ariaInvoiceNo)).toMatchObject({ status: 'PAID' });
    expect(simulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith(`/payments/${paymentId}/capture`))).toHaveLength(1);
    expect((await atProvider(paymentId)).aggregate.capturedAmount.value).toBe(29_900);
  });

  it('a payment we no longer want is cancelled at the provider, again and again without harm', async () => {
    const created = await openInvoice();
    const { paymentId } = await pay(created.ariaInvoiceNo);
    expect((await test.app.paymentProvider.cancel(paymentId)).status).toBe('CANCELLED');
    expect((await test.app.paymentProvider.cancel(paymentId)).status).toBe('CANCELLED');
    expect((await atProvider(paymentId)).state).toBe('TERMINATED');
  });

  it('card: the card form at the provider, the same flow', async () => {
    const created = await openInvoice(19_900);
    const { paymentId } = await pay(created.ariaInvoiceNo, 'SWEDBANK-PPG');
    expect((await atProvider(paymentId)).paymentMethod.type).toBe('CARD');
    simulator.approve(paymentId);
    await simulator.flushWebhooks();
    expect(await invoiceOf(created.ariaInvoiceNo)).toMatchObject({ status: 'PAID', settledBy: 'SWEDBANK-PPG' });
  });

  it('a lost webhook: the return page asks the provider, and captures', async () => {
    const created = await openInvoice();
    // Every webhook of this payment is lost, from its creation on.
    simulator.faults.webhooks.drop = true;
    const { paymentId, browser } = await pay(created.ariaInvoiceNo);
    simulator.approve(paymentId);
    await simulator.flushWebhooks();
    simulator.faults.webhooks.drop = false;
    expect((await paymentRow(paymentId))?.status).toBe('PENDING');
    const view = await browser.request('GET', `${PORTAL}/api/payment/${paymentId}`);
    // The receipt's reference is short and human (issue 25.13), derived from the id, not the UUID itself.
    expect(view.json<Payment>()).toMatchObject({ status: 'CAPTURED', reference: paymentReference(paymentId) });
    expect(view.json<Payment>().reference).toMatch(/^BET-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect((await atProvider(paymentId)).aggregate.capturedAmount.value).toBe(29_900);
  });

  it('rejected in the app: nothing is charged and the invoice stays open', async () => {
    const created = await openInvoice();
    const { paymentId } = await pay(created.ariaInvoiceNo);
    simulator.reject(paymentId);
    await simulator.flushWebhooks();
    expect((await paymentRow(paymentId))?.status).toBe('CANCELLED');
    expect(await invoiceOf(created.ariaInvoiceNo)).toMatchObject({ status: 'UNPAID', payable: true });
  });

  it('the provider fails once when the payment is created: retried with the same key, one payment', async () => {
    const created = await openInvoice();
    simulator.faults.next('server-error', { method: 'POST', pathPrefix: '/epayment/v1/payments' });
    const { paymentId } = await pay(created.ariaInvoiceNo);
    const creates = simulator.requests.filter((request) => request.method === 'POST' && request.path === '/epayment/v1/payments' && (request.body as { reference?: string }).reference === paymentId);
    expect(creates.length).toBe(2);
    expect(new Set(creates.map((request) => request.headers['idempotency-key'])).size).toBe(1);
    simulator.approve(paymentId);
    await simulator.flushWebhooks();
    expect((await paymentRow(paymentId))?.status).toBe('CAPTURED');
  });

  /** A sign-in, an order for Digital (the 1 kr month) and its payment started with `method`. */
  const buy = async (email: string, method: 'VIPPS' | 'SWEDBANK-PPG') => {
    const buyer = await signIn(test, PORTAL, email);
    const created = await buyer.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-DIGITAL-M' } });
    expect(created.status, created.body).toBe(201);
    const { orderId } = created.json<{ orderId: string }>();
    const started = await buyer.request('POST', `${PORTAL}/api/order/${orderId}/payment`, { json: { method } });
    expect(started.status, started.body).toBe(200);
    return { buyer, orderId, ...started.json<{ paymentId: string; redirectUrl: string }>() };
  };
  const recurring = () => createVippsClient({ baseUrl: simulator.url, ...credentials, merchantSerialNumber: MSN, system: { name: 'minside-test', version: '1' }, now: clock }).recurring;
  /** The subscription an order made. */
  const subscriptionOf = async (orderId: string) =>
    (
      await test.database.rows<{ id: string; payment_method: string; aria_account_no: number }>(
        sql`select s.id, s.payment_method, s.aria_account_no from subscription s join subscription_order o on o.subscription_id = s.id where o.id = ${orderId}`,
      )
    )[0];
  const mailsTo = (email: string) => test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = ${email} order by created_at`);

  it('buying a subscription with Vipps: an agreement whose first charge is the order, fulfilled once, and the next period charged on it', async () => {
    const { buyer, orderId, paymentId, redirectUrl } = await buy('ny@minside.test', 'VIPPS');
    expect(redirectUrl.startsWith(simulator.url)).toBe(true);
    const [flow] = await test.database.rows<{ provider_reference: string }>(sql`select provider_reference from payment where id = ${paymentId}`);
    const [, agreementId = ''] = /^charge:(agr_[^:]+):/.exec(flow?.provider_reference ?? '') ?? [];
    // What the payer is asked to approve: the plan, monthly, and 1 kr now (the first charge is our payment id).
    const draft = await recurring().getAgreement(agreementId);
    expect(draft).toMatchObject({ status: 'PENDING', productName: 'Digital', interval: { unit: 'MONTH', count: 1 } });
    expect(await recurring().getCharge(agreementId, paymentId)).toMatchObject({ status: 'PENDING', amount: 100 });
    // Not approved yet: the return page waits, and reconciliation does not give up early.
    expect((await buyer.request('GET', `${PORTAL}/api/order/${orderId}`)).json()).toMatchObject({ order: { state: 'awaiting_payment' } });

    simulator.faults.webhooks.duplicate = true;
    simulator.approveAgreement(agreementId);
    await simulator.flushWebhooks();
    simulator.faults.webhooks.duplicate = false;
    expect((await buyer.request('GET', `${PORTAL}/api/order/${orderId}`)).json()).toMatchObject({ order: { state: 'fulfilled', lastPaymentStatus: 'CAPTURED' } });
    expect(await recurring().getCharge(agreementId, paymentId)).toMatchObject({ status: 'CHARGED', amount: 100 });
    // The agreement is the new subscription's way to pay, and the receipt says so.
    const bought = await subscriptionOf(orderId);
    expect(bought?.payment_method).toBe('VIPPS');
    expect(await test.database.rows(sql`select status, provider from payment_agreement where subscription_id = ${bought?.id ?? ''} and provider_agreement_id = ${agreementId}`)).toEqual([
      { status: 'ACTIVE', provider: 'vipps' },
    ]);
    const receipt = (await mailsTo('ny@minside.test')).find((mail) => mail.subject.startsWith('Kvittering'));
    expect(receipt?.text).toContain('trukket med Vipps-avtalen du godkjente');

    // The next period's invoice is charged on that agreement, without the payer.
    const next = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        {
          ariaAccountNo: bought?.aria_account_no ?? 0,
          subscriptionId: bought?.id ?? '',
          amountOre: 29_900,
          description: 'Digital, neste måned',
          periodFrom: addDays(today, 2),
          periodTo: addDays(today, 31),
          dueOn: today,
        },
        clock(),
      ),
    );
    // One due in the provider's lead time is charged now, to be drawn on its due date; one due later waits.
    const soon = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        {
          ariaAccountNo: bought?.aria_account_no ?? 0,
          subscriptionId: bought?.id ?? '',
          amountOre: 19_900,
          description: 'Digital, tillegg',
          periodFrom: addDays(today, 4),
          periodTo: addDays(today, 33),
          dueOn: addDays(today, 2),
        },
        clock(),
      ),
    );
    const notYet = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        {
          ariaAccountNo: bought?.aria_account_no ?? 0,
          subscriptionId: bought?.id ?? '',
          amountOre: 9_900,
          description: 'Digital, senere',
          periodFrom: addDays(today, 5),
          periodTo: addDays(today, 34),
          dueOn: addDays(today, 3),
        },
        clock(),
      ),
    );
    await test.app.billingJobs.runRenewals();
    const [charge] = await test.database.rows<{ id: string; provider_reference: string }>(
      sql`select id, provider_reference from payment where aria_invoice_no = ${next.ariaInvoiceNo} and purpose = 'RENEWAL'`,
    );
    expect(charge?.provider_reference).toBe(`charge:${agreementId}:${charge?.id}`);
    // Due today: drawn as soon as Vipps MobilePay takes it (its lead time on).
    expect(await recurring().getCharge(agreementId, charge?.id ?? '')).toMatchObject({ amount: 29_900, status: 'PENDING', due: expect.stringMatching(new RegExp(`^${addDays(today, 2)}`)) });
    const [early] = await test.database.rows<{ id: string }>(sql`select id from payment where aria_invoice_no = ${soon.ariaInvoiceNo} and purpose = 'RENEWAL'`);
    expect(await recurring().getCharge(agreementId, early?.id ?? '')).toMatchObject({ amount: 19_900, status: 'PENDING', due: expect.stringMatching(new RegExp(`^${addDays(today, 2)}`)) });
    expect(await test.database.rows(sql`select 1 from payment where aria_invoice_no = ${notYet.ariaInvoiceNo}`)).toEqual([]);

    // Stopped in the Vipps app, and every webhook about it lost: the renewal job asks before the
    // next charge, so the subscription goes to giro, nothing more is charged, and the owner is told
    // and gets each open invoice with KID and pay-link.
    simulator.faults.webhooks.drop = true;
    simulator.stopAgreement(agreementId);
    await simulator.flushWebhooks();
    const later = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        {
          ariaAccountNo: bought?.aria_account_no ?? 0,
          subscriptionId: bought?.id ?? '',
          amountOre: 29_900,
          description: 'Digital, måneden etter',
          periodFrom: addDays(today, 32),
          periodTo: addDays(today, 61),
          dueOn: today,
        },
        clock(),
      ),
    );
    await test.app.billingJobs.runRenewals();
    clock.set(new Date(clock().getTime() + 15 * 60 * 1000));
    await test.app.billingJobs.runReconciliation();
    simulator.faults.webhooks.drop = false;
    expect((await subscriptionOf(orderId))?.payment_method).toBe('INVOICE');
    // Nothing was sent to Vipps for it: its claim was let go when the agreement turned out stopped.
    const claims = await test.database.rows<{ id: string; status: string; error_code: string }>(sql`select id, status, error_code from payment where aria_invoice_no = ${later.ariaInvoiceNo}`);
    expect(claims.map(({ status, error_code }) => ({ status, error_code }))).toEqual([{ status: 'CANCELLED', error_code: 'AGREEMENT_ENDED' }]);
    expect(
      simulator.requests.filter(
        (request) => request.method === 'POST' && request.path.endsWith(`/agreements/${agreementId}/charges`) && (request.body as { orderId?: string }).orderId === claims[0]?.id,
      ),
    ).toEqual([]);
    expect((await paymentRow(charge?.id ?? ''))?.status).toBe('CANCELLED');
    const mails = (await mailsTo('ny@minside.test')).map((mail) => mail.subject);
    expect(mails.filter((subject) => subject.includes('Vipps-avtalen er stoppet'))).toHaveLength(1);
    for (const no of [next.ariaInvoiceNo, later.ariaInvoiceNo]) expect(mails.filter((subject) => subject.endsWith(`ny faktura ${no}`))).toHaveLength(1);
  });

  it('an order whose agreement the payer never answers is given up after an hour: nothing charged, the agreement ended at Vipps', async () => {
    const { orderId, paymentId } = await buy('utlopt@minside.test', 'VIPPS');
    const [flow] = await test.database.rows<{ provider_reference: string }>(sql`select provider_reference from payment where id = ${paymentId}`);
    const [, agreementId = ''] = /^charge:(agr_[^:]+):/.exec(flow?.provider_reference ?? '') ?? [];
    // Looked up while waiting: a charge of an agreement not yet approved is not "approved" (nothing to capture).
    clock.set(new Date(clock().getTime() + 15 * 60 * 1000));
    simulator.faults.webhooks.drop = true;
    await test.app.billingJobs.runReconciliation();
    clock.set(new Date(clock().getTime() + 50 * 60 * 1000));
    await test.app.billingJobs.runReconciliation();
    simulator.faults.webhooks.drop = false;
    expect((await paymentRow(paymentId))?.status).toBe('TIMEOUT');
    // An hour on, the buyer signs in again (the session has timed out too).
    const buyer = await signIn(test, PORTAL, 'utlopt@minside.test');
    expect((await buyer.request('GET', `${PORTAL}/api/order/${orderId}`)).json()).toMatchObject({ order: { state: 'timed_out' } });
    expect(['STOPPED', 'EXPIRED']).toContain((await recurring().getAgreement(agreementId)).status);
    expect(await recurring().getCharge(agreementId, paymentId)).toMatchObject({ status: 'CANCELLED' });
    expect(await subscriptionOf(orderId)).toBeUndefined();
  });

  it("buying with a card: paid at the provider's card form once; Vipps MobilePay keeps no card, so the next periods come as giro invoices by e-mail", async () => {
    const { buyer, orderId, paymentId } = await buy('utlopt@minside.test', 'SWEDBANK-PPG');
    expect((await atProvider(paymentId)).paymentMethod.type).toBe('CARD');
    simulator.approve(paymentId);
    await simulator.flushWebhooks();
    expect((await buyer.request('GET', `${PORTAL}/api/order/${orderId}`)).json()).toMatchObject({ order: { state: 'fulfilled' } });
    const bought = await subscriptionOf(orderId);
    expect(bought?.payment_method).toBe('INVOICE');
    expect((await mailsTo('utlopt@minside.test')).find((mail) => mail.subject.startsWith('Kvittering'))?.text).toContain('på faktura med KID');
  });

  it('offers no stored card for a subscription: Vipps MobilePay keeps none', async () => {
    const browser = await signIn(test, PORTAL, 'digital@minside.test');
    const details = await browser.request('GET', `${PORTAL}/api/subscription/40000002/ADR/paymentMethod`);
    expect(details.json<{ choices: string[] }>().choices).toEqual(['VIPPS', 'AVTALEGIRO', 'BANKGIRO']);
    for (const [path, json] of [
      ['/api/subscription/paymentMethod', { ariaAccountNo: 40_000_002, titleCode: 'ADR', method: 'SWEDBANK-PPG', idempotencyKey: randomUUID() }],
      ['/api/subscription/card', { ariaAccountNo: 40_000_002, titleCode: 'ADR', idempotencyKey: randomUUID() }],
    ] as const) {
      const refused = await browser.request('PUT', `${PORTAL}${path}`, { json });
      expect(refused.status, path).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'PAYMENT_METHOD_NOT_OFFERED', message: 'Betalingskort kan ikke lagres for abonnementet her. Velg Vipps, AvtaleGiro eller giro.' });
    }
    expect(await test.database.rows(sql`select 1 from payment where subscription_id = 'demo-digital-adr' and purpose in ('CARD_CHANGE', 'PAYMENT_METHOD_CHANGE')`)).toEqual([]);
  });

  // Last of the flows: it makes digital's subscription a Vipps one and moves the clock.
  it('Vipps for the subscription: an agreement the payer approves, then a renewal invoice charged on it when due', async () => {
    const browser = await signIn(test, PORTAL, 'digital@minside.test');
    const chosen = await browser.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: 40_000_002, titleCode: 'ADR', method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(chosen.status, chosen.body).toBe(200);
    const { redirectUrl, paymentId } = chosen.json<{ redirectUrl: string; paymentId: string }>();
    expect(redirectUrl.startsWith(simulator.url)).toBe(true);
    const [flow] = await test.database.rows<{ provider_reference: string }>(sql`select provider_reference from payment where id = ${paymentId}`);
    const agreementId = flow?.provider_reference ?? '';
    expect(agreementId).toMatch(/^agr_/);
    simulator.approveAgreement(agreementId);
    // Back on the portal, the return page asks the provider: the agreement is the subscription's way to pay.
    expect((await browser.request('GET', `${PORTAL}/api/payment/${paymentId}`)).json<Payment>()).toMatchObject({ status: 'CAPTURED' });
    expect((await browser.request('GET', `${PORTAL}/api/subscription/40000002/ADR/paymentMethod`)).json()).toMatchObject({ method: 'VIPPS' });

    // A renewal invoice due today: the renewal job makes a charge on the agreement, due the provider's lead time ahead.
    const renewal = await openInvoice(29_900, today);
    await test.app.billingJobs.runRenewals();
    const [charge] = await test.database.rows<{ id: string; status: string; provider_reference: string }>(
      sql`select id, status, provider_reference from payment where aria_invoice_no = ${renewal.ariaInvoiceNo} and purpose = 'RENEWAL'`,
    );
    expect(charge).toMatchObject({ status: 'PENDING', provider_reference: `charge:${agreementId}:${charge?.id}` });
    // While the provider has the charge, paying the invoice another way would pay it twice: refused.
    const meanwhile = await browser.request('POST', `${PORTAL}/api/invoice/${renewal.ariaInvoiceNo}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(meanwhile.status, meanwhile.body).toBe(409);
    expect(meanwhile.json()).toMatchObject({ code: 'INVOICE_BEING_CHARGED' });
    // Nothing is paid before the provider has drawn it, however often reconciliation asks…
    clock.set(new Date(clock().getTime() + 60 * 60 * 1000 * 2));
    await test.app.billingJobs.runReconciliation();
    expect((await invoiceOf(renewal.ariaInvoiceNo))?.status).not.toBe('PAID');
    expect((await paymentRow(charge?.id ?? ''))?.status).toBe('PENDING');
    // …and when it has, the invoice is paid by it, once.
    clock.set(new Date(clock().getTime() + 3 * 24 * 60 * 60 * 1000));
    await simulator.processCharges();
    await test.app.billingJobs.runReconciliation();
    expect((await paymentRow(charge?.id ?? ''))?.status).toBe('CAPTURED');
    expect(await invoiceOf(renewal.ariaInvoiceNo)).toMatchObject({ status: 'PAID', settledBy: 'VIPPS' });
    await test.app.billingJobs.runRenewals();
    expect(await test.database.rows(sql`select 1 from payment where aria_invoice_no = ${renewal.ariaInvoiceNo} and purpose = 'RENEWAL'`)).toHaveLength(1);
    // The renewal charge is receipted (issue 23), once.
    const receipts = await test.database.rows<{ text: string }>(sql`select text from mail_outbox where subject like ${`%kvittering for betaling av faktura ${renewal.ariaInvoiceNo}`}`);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain('med Vipps');

    // A charge the provider fails (no money behind the card in the app): the owner hears at once, with a pay-link.
    const refused = await openInvoice(29_900, osloToday(clock()));
    simulator.faults.failCharges = true;
    await test.app.billingJobs.runRenewals();
    // The provider tries on the due date and on each of the charge's retry days (5), then gives up.
    clock.set(new Date(clock().getTime() + 3 * 24 * 60 * 60 * 1000));
    await simulator.processCharges();
    clock.set(new Date(clock().getTime() + 6 * 24 * 60 * 60 * 1000));
    await simulator.processCharges();
    simulator.faults.failCharges = false;
    await test.app.billingJobs.runReconciliation();
    const [failed] = await test.database.rows<{ status: string }>(sql`select status from payment where aria_invoice_no = ${refused.ariaInvoiceNo} and purpose = 'RENEWAL'`);
    expect(failed?.status).toBe('FAILED');
    const mails = await test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = 'digital@minside.test'`);
    expect(mails.find((mail) => mail.subject.includes(`faktura ${refused.ariaInvoiceNo}`) && mail.subject.includes('gikk ikke gjennom'))?.text).toContain('fra Vipps-avtalen');

    // Stopped in the Vipps app: the subscription is back on giro, and its owner is told once.
    simulator.faults.webhooks.duplicate = true;
    simulator.stopAgreement(agreementId);
    await simulator.flushWebhooks();
    simulator.faults.webhooks.duplicate = false;
    expect((await (await signIn(test, PORTAL, 'digital@minside.test')).request('GET', `${PORTAL}/api/subscription/40000002/ADR/paymentMethod`)).json()).toMatchObject({ method: 'INVOICE' });
    const stopped = await test.database.rows<{ subject: string }>(sql`select subject from mail_outbox where to_address = 'digital@minside.test' and subject like '%Vipps-avtalen er stoppet%'`);
    expect(stopped).toHaveLength(1);
    // The invoice the agreement could not pay is the owner's now: its e-mail with KID and pay-link, once.
    expect((await mailsTo('digital@minside.test')).filter((mail) => mail.subject.endsWith(`ny faktura ${refused.ariaInvoiceNo}`))).toHaveLength(1);
  });

  it('choosing giro after Vipps stops the agreement at Vipps too: no charge can follow', async () => {
    const browser = await signIn(test, PORTAL, 'digital@minside.test');
    const chosen = await browser.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: 40_000_002, titleCode: 'ADR', method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(chosen.status, chosen.body).toBe(200);
    const { paymentId } = chosen.json<{ paymentId: string }>();
    const [flow] = await test.database.rows<{ provider_reference: string }>(sql`select provider_reference from payment where id = ${paymentId}`);
    const agreementId = flow?.provider_reference ?? '';
    simulator.approveAgreement(agreementId);
    // The payer closes the tab after approving: the agreement's webhook alone stores it.
    await simulator.flushWebhooks();
    expect(await test.database.rows(sql`select status from payment where id = ${paymentId}`)).toEqual([{ status: 'CAPTURED' }]);
    expect(await test.database.rows(sql`select status from payment_agreement where provider_agreement_id = ${agreementId}`)).toEqual([{ status: 'ACTIVE' }]);
    expect((await browser.request('GET', `${PORTAL}/api/payment/${paymentId}`)).json<Payment>()).toMatchObject({ status: 'CAPTURED' });
    const provider = createVippsClient({ baseUrl: simulator.url, ...credentials, merchantSerialNumber: MSN, system: { name: 'minside-test', version: '1' }, now: clock });
    expect((await provider.recurring.getAgreement(agreementId)).status).toBe('ACTIVE');

    const giro = await browser.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: 40_000_002, titleCode: 'ADR', method: 'BANKGIRO', idempotencyKey: randomUUID() } });
    expect(giro.json()).toMatchObject({ result: 'CHANGED', paymentMethod: { method: 'INVOICE' } });
    expect((await provider.recurring.getAgreement(agreementId)).status).toBe('STOPPED');
    const [stored] = await test.database.rows<{ status: string }>(sql`select status from payment_agreement where provider_agreement_id = ${agreementId}`);
    expect(stored?.status).toBe('STOPPED');
  });

  it('a payment the provider has never heard of (a simulator restarted) is not left pending: after an hour it is failed, nothing charged', async () => {
    const created = await openInvoice();
    const id = randomUUID();
    const startedAt = new Date(clock().getTime() - 2 * 60 * 60 * 1000);
    await test.database
      .rows(sql`insert into payment (id, idempotency_key, purpose, method, amount_ore, status, user_id, aria_account_no, subscription_id, aria_invoice_no, provider, provider_reference, return_url, details, created_at, updated_at)
      values (${id}, ${`test:${id}`}, 'INVOICE', 'VIPPS', 29900, 'PENDING', null, 40000002, 'demo-digital-adr', ${created.ariaInvoiceNo}, 'vipps', ${id}, '/fakturaoversikt', '{}'::jsonb, ${startedAt}, ${startedAt})`);
    await test.app.billingJobs.runReconciliation();
    expect(await test.database.rows(sql`select status, error_code from payment where id = ${id}`)).toEqual([{ status: 'FAILED', error_code: 'NOT_FOUND_AT_PROVIDER' }]);
    expect(await invoiceOf(created.ariaInvoiceNo)).toMatchObject({ status: 'UNPAID', payable: true });
  });

  it('acknowledges a signed webhook about a payment that is not ours (another shop on the merchant), and changes nothing', async () => {
    const [stored] = await test.database.rows<{ value: string }>(sql`select value from billing_secret where name = ${`vipps_webhook:${MSN}`}`);
    const { secret } = JSON.parse(stored?.value ?? '{}') as { secret: string };
    const body = JSON.stringify({
      msn: MSN,
      reference: 'nettbutikk-ordre-4711',
      pspReference: '9',
      name: 'AUTHORIZED',
      amount: { currency: 'NOK', value: 50_000 },
      timestamp: clock().toISOString(),
      success: true,
    });
    const registered = new URL(`${PORTAL}/api/payment/callback/vipps`);
    const headers = signWebhookRequest({ secret, method: 'POST', pathAndQuery: registered.pathname, host: registered.host, body, date: clock() });
    const before = await test.database.rows(sql`select id, status from payment order by id`);
    const answer = await test.app.inject({ method: 'POST', url: registered.pathname, headers: { ...headers, 'content-type': 'application/json' }, payload: body });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await test.database.rows(sql`select id, status from payment order by id`)).toEqual(before);
  });

  it('refuses a webhook not signed with our registration’s secret, and captures nothing on it', async () => {
    const created = await openInvoice();
    simulator.faults.webhooks.drop = true;
    const { paymentId } = await pay(created.ariaInvoiceNo);
    simulator.approve(paymentId);
    await simulator.flushWebhooks();
    simulator.faults.webhooks.drop = false;
    const body = JSON.stringify({ msn: MSN, reference: paymentId, pspReference: '1', name: 'AUTHORIZED', amount: { currency: 'NOK', value: 29_900 }, timestamp: clock().toISOString(), success: true });
    const registered = new URL(`${PORTAL}/api/payment/callback/vipps`);
    // Well formed, the right content hash, host and path — only the secret is not ours.
    const headers = signWebhookRequest({ secret: 'not-the-registration-secret', method: 'POST', pathAndQuery: registered.pathname, host: registered.host, body, date: clock() });
    const forged = await test.app.inject({ method: 'POST', url: registered.pathname, headers: { ...headers, 'content-type': 'application/json' }, payload: body });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
    expect((await paymentRow(paymentId))?.status).toBe('PENDING');
  });
});

describe.each(testDatabases)('a title with its own Vipps MobilePay sales unit ($name)', ({ name }) => {
  // Adresseavisen has its own merchant serial number; every other title uses the group's.
  const OWN_MSN = '654321';
  const document = structuredClone(defaultCatalogueDocument) as { titles: Array<Record<string, unknown>> };
  const entry = document.titles.find((title) => title['titleCode'] === 'ADR');
  if (entry) entry['vippsMerchantSerialNumber'] = OWN_MSN;
  const catalogue = createCatalogue(document);
  let simulator: VippsSimulator;
  let test: TestApp;
  const clock = manualClock(systemClock());

  beforeAll(async () => {
    simulator = createVippsSimulator({
      now: clock,
      credentials: { ...credentials, merchantSerialNumbers: [MSN, OWN_MSN] },
      deliver: async (url, init) => {
        const target = new URL(String(url));
        const answer = await test.app.inject({
          method: 'POST',
          url: `${target.pathname}${target.search}`,
          headers: Object.fromEntries(new Headers(init?.headers).entries()),
          payload: String(init?.body ?? ''),
        });
        return new Response(answer.body, { status: answer.statusCode });
      },
    });
    const baseUrl = await simulator.listen();
    test = await buildTestApp(name, { seed: true, now: clock, catalogue, config: { paymentProvider: 'vipps', vipps: { baseUrl, ...credentials, merchantSerialNumber: MSN }, publicUrl: PORTAL } });
  });
  afterAll(async () => {
    await test?.close();
    await simulator?.close();
  });

  const merchantOf = (request: { headers: Record<string, string | string[] | undefined> }) => request.headers['merchant-serial-number'];

  it("registers a webhook for each sales unit, and pays the title's invoice through its own, from create to capture", async () => {
    const registrations = simulator.requests.filter((request) => request.method === 'POST' && request.path === '/webhooks/v1/webhooks');
    expect(registrations.map(merchantOf).sort()).toEqual([MSN, OWN_MSN].sort());

    const created = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        {
          ariaAccountNo: 40_000_002,
          subscriptionId: 'demo-digital-adr',
          amountOre: 19_900,
          description: 'Digital, egen Vipps',
          periodFrom: addDays(osloToday(clock()), 30),
          periodTo: addDays(osloToday(clock()), 59),
          dueOn: addDays(osloToday(clock()), 20),
        },
        clock(),
      ),
    );
    const browser = await signIn(test, PORTAL, 'digital@minside.test');
    const started = await browser.request('POST', `${PORTAL}/api/invoice/${created.ariaInvoiceNo}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBe(200);
    const { paymentId } = started.json<{ paymentId: string }>();
    // Approved in the app; the webhook is signed with the secret of that sales unit's registration.
    simulator.approve(paymentId);
    await simulator.flushWebhooks();
    expect((await test.database.rows<{ status: string }>(sql`select status from payment where id = ${paymentId}`))[0]?.status).toBe('CAPTURED');
    const calls = simulator.requests.filter(
      (request) =>
        (request.path.startsWith('/epayment/') && request.path.includes(paymentId)) ||
        (request.method === 'POST' && request.path === '/epayment/v1/payments' && (request.body as { reference?: string }).reference === paymentId),
    );
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(calls.map(merchantOf))).toEqual(new Set([OWN_MSN]));

    // Another instance (or this one after a restart) asks at the same sales unit: it is remembered in the database.
    const fresh = createVippsProvider({
      client: createVippsClient({ baseUrl: simulator.url, ...credentials, merchantSerialNumber: MSN, system: { name: 'minside-test', version: '1' }, now: clock }),
      db: test.database.db,
      now: clock,
      merchantSerialNumber: MSN,
      titleMerchants: new Map([['ADR', OWN_MSN]]),
      callbackUrl: `${PORTAL}/api/payment/callback/vipps`,
      log: { info: () => {}, error: () => {} },
    });
    expect(await fresh.lookup(paymentId)).toMatchObject({ status: 'CAPTURED' });
  });
});

describe('Vipps MobilePay configuration', () => {
  const env = {
    PAYMENT_PROVIDER: 'vipps',
    VIPPS_BASE_URL: 'https://api.vipps.no',
    VIPPS_CLIENT_ID: 'id',
    VIPPS_CLIENT_SECRET: 'secret',
    VIPPS_SUBSCRIPTION_KEY: 'key',
    VIPPS_MERCHANT_SERIAL_NUMBER: '123456',
  };

  it('needs every key, and says where they are', () => {
    expect(() => loadConfig({ ...env, VIPPS_CLIENT_SECRET: '' })).toThrow(/VIPPS_CLIENT_SECRET: required when PAYMENT_PROVIDER=vipps/);
  });

  it('production refuses a simulator, the test environment and plain http', () => {
    for (const url of [
      'http://127.0.0.1:4010',
      'https://apitest.vipps.no',
      'http://api.vipps.no',
      'https://vipps.localhost',
      'https://apitest.vipps.no.',
      'https://api.vipps.no@evil.example',
      'https://10.0.0.5',
      'https://api.vipps.no/proxy',
    ]) {
      expect(() => loadConfig({ ...env, NODE_ENV: 'production', PUBLIC_URL: 'https://minside.adressa.no', VIPPS_BASE_URL: url }), url).toThrow(
        /VIPPS_BASE_URL: production pays through https:\/\/api\.vipps\.no/,
      );
    }
  });

  it('production takes exactly https://api.vipps.no, and never prints the user info of a bad URL', () => {
    expect(() => loadConfig({ ...env, NODE_ENV: 'production', PUBLIC_URL: 'https://minside.adressa.no', VIPPS_BASE_URL: 'https://user:hunter2@api.vipps.no' })).toThrow(/^(?!.*hunter2)/s);
    expect(() => loadConfig({ ...env, VIPPS_MERCHANT_SERIAL_NUMBER: '1234567' })).toThrow(/VIPPS_MERCHANT_SERIAL_NUMBER/);
  });

  it("production runs on Vipps MobilePay with the merchant's keys, and is refused without them", () => {
    const production = { ...env, NODE_ENV: 'production', PUBLIC_URL: 'https://minside.adressa.no' };
    expect(loadConfig(production)).toMatchObject({ production: true, paymentProvider: 'vipps', vipps: { baseUrl: 'https://api.vipps.no', merchantSerialNumber: '123456' } });
    for (const key of ['VIPPS_CLIENT_ID', 'VIPPS_CLIENT_SECRET', 'VIPPS_SUBSCRIPTION_KEY', 'VIPPS_MERCHANT_SERIAL_NUMBER'] as const) {
      expect(() => loadConfig({ ...production, [key]: '' }), key).toThrow(new RegExp(`${key}: required when PAYMENT_PROVIDER=vipps`));
    }
    // The migration Job moves no money: it reads the same configuration.
    expect(loadConfig(production, { purpose: 'migrate' })).toMatchObject({ production: true, paymentProvider: 'vipps', vipps: { baseUrl: 'https://api.vipps.no' } });
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://minside.adressa.no' })).toThrow(/set PAYMENT_PROVIDER=vipps/);
  });
});
