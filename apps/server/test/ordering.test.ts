import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, orderOffersResponseSchema, orderResponseSchema, orderSchema, osloToday, paymentRedirectSchema, type Order, systemClock } from '@minside/domain';
import { signWebhookRequest } from '@minside/vipps';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import type { TestBrowser } from './browser.ts';
import { answerAtVipps, expectRefused, signIn as signInAs, vippsOf, type VippsAnswer } from './support.ts';

// Issue 7: offers and prices, the SPEC §5 age rules, orders paid through Vipps MobilePay (issue 22:
// the real adapter against the simulator embedded in the test app), idempotency (double submit,
// replayed webhook), every failure path and the repair job. Card ("SWEDBANK-PPG") is an ePayment
// CARD payment whose reference is our payment id; Vipps makes a Recurring agreement whose first
// charge is the order.

const PORTAL = 'http://adresseavisen.localhost:3000';
const MINUTE = 60 * 1000;

describe.each(testDatabases)('ordering ($name)', ({ name }) => {
  let test: TestApp;
  let offsetMs = 0;
  const now = () => new Date(systemClock().getTime() + offsetMs);
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now, config: { operatorToken: 'o'.repeat(40) } });
  });
  afterAll(() => test.close());

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  const setBirthdate = (userId: string, birthdate: string | null) => test.database.rows(sql`update app_user set birthdate = ${birthdate} where id = ${userId}`);
  const order = (browser: TestBrowser, body: Record<string, unknown>) => browser.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ...body } });
  const pay = (browser: TestBrowser, orderId: string, method = 'SWEDBANK-PPG') => browser.request('POST', `${PORTAL}/api/order/${orderId}/payment`, { json: { method } });
  const vipps = () => vippsOf(test);
  /** The payer answers on Vipps MobilePay's landing page; the portal path they are sent back to. */
  const answer = (redirectUrl: string, action: VippsAnswer, options: { lostWebhooks?: boolean } = {}) => answerAtVipps(test, redirectUrl, action, options);
  /** The payer presses a button on a landing page that is no longer open (answered already, or ended by us): Vipps MobilePay refuses it. */
  const refusedAtVipps = async (redirectUrl: string, action: VippsAnswer) => {
    const page = new URL(redirectUrl);
    const form = new URLSearchParams({ action });
    for (const name of ['reference', 'agreementId']) {
      const value = page.searchParams.get(name);
      if (value !== null) form.set(name, value);
    }
    const refused = await fetch(new URL('/simulator/landing', page), { method: 'POST', body: form, redirect: 'manual' });
    expect(refused.status, await refused.clone().text()).toBe(409);
    await vipps().flushWebhooks();
  };
  /** Vipps MobilePay's own view of a payment or charge, asked through the adapter as the return page asks it. */
  const atVipps = async (paymentId: string) => {
    const row = await test.app.paymentEngine.load(paymentId);
    return test.app.paymentProvider.lookup(row?.providerReference ?? paymentId);
  };
  /** The agreement id of a Vipps order's payment (its reference is `charge:<agreement>:<payment id>`). */
  const agreementOf = async (paymentId: string) => /^charge:(agr_[^:]+):/.exec((await test.app.paymentEngine.load(paymentId))?.providerReference ?? '')?.[1] ?? '';
  const captureRequests = (paymentId: string) => vipps().requests.filter((request) => request.method === 'POST' && request.path === `/epayment/v1/payments/${paymentId}/capture`);
  /** Every webhook Vipps MobilePay sent about `reference`, sent again with a valid signature (as its retries come): each must be answered 200. */
  const replayWebhooks = async (reference: string) => {
    const [stored] = await test.database.rows<{ value: string }>(sql`select value from billing_secret where name = 'vipps_webhook:123456'`);
    const { secret, url } = JSON.parse(stored?.value ?? '{}') as { secret: string; url: string };
    const registered = new URL(url);
    const sent = vipps().webhookDeliveries.filter((delivery) => (delivery.body as { reference?: string }).reference === reference);
    expect(sent.length).toBeGreaterThan(0);
    for (const delivery of sent) {
      const body = JSON.stringify(delivery.body);
      const headers = signWebhookRequest({ secret, method: 'POST', pathAndQuery: registered.pathname, host: registered.host, body, date: now() });
      const replayed = await test.app.inject({ method: 'POST', url: registered.pathname, headers: { ...headers, 'content-type': 'application/json' }, payload: body });
      expect(replayed.statusCode, replayed.body).toBe(200);
    }
  };
  const view = async (browser: TestBrowser, orderId: string) => {
    const response = await browser.request('GET', `${PORTAL}/api/order/${orderId}`);
    expect(response.status, response.body).toBe(200);
    return orderResponseSchema.parse(response.json());
  };
  const counts = async (userId: string) =>
    (
      await test.database.rows<{ subscriptions: number; invoices: number; captured: number }>(sql`
        select (select count(*)::int from subscription s join account a on a.aria_account_no = s.aria_account_no where a.user_id = ${userId} and s.title_code = 'ADR') as subscriptions,
               (select count(*)::int from invoice i join account a on a.aria_account_no = i.aria_account_no where a.user_id = ${userId}) as invoices,
               (select count(*)::int from payment where user_id = ${userId} and purpose = 'ORDER' and status = 'CAPTURED') as captured`)
    )[0];
  /** Ends ny@'s open orders, as the buyer's "Avbryt" would: one open purchase per offer at a time (issue 20). */
  const closeOpenOrders = () => test.database.rows(sql`update subscription_order set state = 'cancelled' where user_id = 'user-ny' and state in ('created', 'awaiting_payment')`);
  const resetNy = async () => {
    // Between cases ny@ goes back to "no subscription at ADR" (its orders stay: they are history).
    await closeOpenOrders();
    await test.database.rows(sql`update subscription_order set subscription_id = null where user_id = 'user-ny'`);
    await test.database.rows(sql`update payment set subscription_id = null, aria_invoice_no = null where user_id = 'user-ny'`);
    await test.database.rows(sql`delete from billing_document where aria_account_no in (select aria_account_no from account where user_id = 'user-ny')`);
    await test.database.rows(sql`delete from invoice where aria_account_no in (select aria_account_no from account where user_id = 'user-ny')`);
    await test.database.rows(
      sql`delete from subscription_change where subscription_id in (select s.id from subscription s join account a on a.aria_account_no = s.aria_account_no where a.user_id = 'user-ny')`,
    );
    await test.database.rows(
      sql`delete from payment_agreement where subscription_id in (select s.id from subscription s join account a on a.aria_account_no = s.aria_account_no where a.user_id = 'user-ny')`,
    );
    await test.database.rows(sql`delete from subscription where aria_account_no in (select aria_account_no from account where user_id = 'user-ny')`);
  };

  it('prices the offers: 1 kr the first month for Digital, the campaign from the link, the later price in whole kroner', async () => {
    const ny = await signIn('ny@minside.test');
    const plain = orderOffersResponseSchema.parse((await ny.request('GET', `${PORTAL}/api/order/offers?titleCode=ADR`)).json());
    const digital = plain.offers.find((offer) => offer.plan.ariaPlanID === 'ADR-DIGITAL-M');
    expect(digital?.quote).toMatchObject({ offerCode: 'INTRO_1KR', amountNowOre: 100, firstPeriodMonths: 1, priceLaterOre: 29_900 });
    expect(plain.offers.find((offer) => offer.plan.ariaPlanID === 'ADR-KOMPLETT-M')?.quote).toMatchObject({ offerCode: null, amountNowOre: 64_900 });
    expect(plain.campaign).toBeNull();
    expect(plain.hasAccess).toBe(false);
    expect(plain.paperStartsOn > osloToday(now())).toBe(true);
    const campaign = orderOffersResponseSchema.parse((await ny.request('GET', `${PORTAL}/api/order/offers?titleCode=ADR&campaign=camp-2020-03-003`)).json());
    expect(campaign.campaign?.code).toBe('CAMP-2020-03-003');
    // 50 % of 649 kr = 324.50 → 325 kr (whole kroner); Digital keeps the cheaper 1 kr month.
    expect(campaign.offers.find((offer) => offer.plan.ariaPlanID === 'ADR-KOMPLETT-M')?.quote).toMatchObject({ offerCode: 'CAMP-2020-03-003', amountNowOre: 32_500, priceLaterOre: 64_900 });
    expect(campaign.offers.find((offer) => offer.plan.ariaPlanID === 'ADR-DIGITAL-M')?.quote.offerCode).toBe('INTRO_1KR');
    expect(campaign.offers.find((offer) => offer.plan.ariaPlanID === 'ADR-DIGITAL-Y')?.quote).toMatchObject({ offerCode: 'CAMP-2020-03-003', amountNowOre: 149_500, firstPeriodMonths: 12 });
  });

  it('applies SPEC §5: 17 years 364 days is refused, the 34th birthday closes Ung, no birthdate asks for one', async () => {
    const ny = await signIn('ny@minside.test');
    const today = osloToday(now());
    const before = await test.database.rows(sql`select id from subscription_order`);
    await setBirthdate('user-ny', addDays(addMonths(today, -12 * 18), 1));
    expectRefused(await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' }), 409, 'UNDER_MINIMUM_AGE');
    await setBirthdate('user-ny', addMonths(today, -12 * 34));
    expectRefused(await order(ny, { ariaPlanID: 'ADR-UNG-DIGITAL-M' }), 409, 'UNG_AGE_LIMIT');
    const offers = orderOffersResponseSchema.parse((await ny.request('GET', `${PORTAL}/api/order/offers?titleCode=ADR`)).json());
    expect(offers.offers.find((offer) => offer.plan.ariaPlanID === 'ADR-UNG-DIGITAL-M')?.unavailable?.code).toBe('UNG_AGE_LIMIT');
    await setBirthdate('user-ny', null);
    expectRefused(await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' }), 400, 'BIRTHDATE_REQUIRED');
    // A birthdate given with the order is checked too, and the refusal stores nothing (not even the birthdate).
    expectRefused(await order(ny, { ariaPlanID: 'ADR-DIGITAL-M', birthdate: addDays(addMonths(today, -12 * 18), 1) }), 409, 'UNDER_MINIMUM_AGE');
    expect((await test.database.rows<{ birthdate: string | null }>(sql`select birthdate from app_user where id = 'user-ny'`))[0]?.birthdate).toBeNull();
    expect(await test.database.rows(sql`select id from subscription_order`)).toHaveLength(before.length);
    // The day before the 34th birthday Ung is open; the 18th birthday is old enough. The given birthdate is saved.
    const ung = await order(ny, { ariaPlanID: 'ADR-UNG-DIGITAL-M', birthdate: addDays(addMonths(today, -12 * 34), 1) });
    expect(ung.status, ung.body).toBe(201);
    expect((await test.database.rows<{ birthdate: string }>(sql`select birthdate::text from app_user where id = 'user-ny'`))[0]?.birthdate).toBe(addDays(addMonths(today, -12 * 34), 1));
    await setBirthdate('user-ny', addMonths(today, -12 * 18));
    expect((await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' })).status).toBe(201);
    await setBirthdate('user-ny', addMonths(today, -12 * 31));
    await closeOpenOrders();
  });

  it('buys Digital for 1 kr: one order per key, one payment per attempt, one capture and one subscription however often the webhook comes', async () => {
    const ny = await signIn('ny@minside.test');
    const key = randomUUID();
    const first = await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: key, ariaPlanID: 'ADR-DIGITAL-M' } });
    const second = await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: key, ariaPlanID: 'ADR-DIGITAL-M' } });
    expect([first.status, second.status]).toEqual([201, 200]);
    const created = orderSchema.parse(first.json());
    expect(orderSchema.parse(second.json()).orderId).toBe(created.orderId);
    expect(created).toMatchObject({ state: 'created', quote: { amountNowOre: 100, priceLaterOre: 29_900 } });

    const [a, b] = await Promise.all([pay(ny, created.orderId), pay(ny, created.orderId)]);
    const redirect = paymentRedirectSchema.parse(a.json());
    expect(paymentRedirectSchema.parse(b.json()).paymentId).toBe(redirect.paymentId);
    // One payment at Vipps MobilePay: every create for it (the double submit's too) carries the same Idempotency-Key.
    const creates = vipps().requests.filter(
      (request) => request.method === 'POST' && request.path === '/epayment/v1/payments' && (request.body as { reference?: string }).reference === redirect.paymentId,
    );
    expect(new Set(creates.map((request) => request.headers['idempotency-key'])).size).toBe(1);
    // The card form at Vipps MobilePay; its webhooks come twice.
    vipps().faults.webhooks.duplicate = true;
    try {
      expect(await answer(redirect.redirectUrl, 'approve')).toBe(`/completepurchase?paymentId=${redirect.paymentId}&orderId=${created.orderId}`);
    } finally {
      vipps().faults.webhooks.duplicate = false;
    }

    const done = await view(ny, created.orderId);
    expect(done.order).toMatchObject({ state: 'fulfilled', startedOn: osloToday(now()), lastPaymentStatus: 'CAPTURED' });
    // Vipps MobilePay keeps no card: a subscription bought by card goes on giro.
    expect(done.session?.subscription).toMatchObject({ ariaPlanID: 'ADR-DIGITAL-M', instStatusCode: 41, priceOre: 29_900, paymentMethod: 'INVOICE' });
    expect(await atVipps(redirect.paymentId)).toMatchObject({ status: 'CAPTURED' });
    expect(captureRequests(redirect.paymentId)).toHaveLength(1);
    expect(await counts('user-ny')).toEqual({ subscriptions: 1, invoices: 1, captured: 1 });
    const [invoiceRow] = await test.database.rows<{ amount_ore: number; paid_at: Date | null }>(
      sql`select amount_ore, paid_at from invoice i join account a on a.aria_account_no = i.aria_account_no where a.user_id = 'user-ny'`,
    );
    expect(invoiceRow).toMatchObject({ amount_ore: 100 });
    expect(invoiceRow?.paid_at).not.toBeNull();

    // A replayed settlement, replayed signed webhooks, a second submit and a second approval change nothing.
    const row = await test.app.paymentEngine.load(redirect.paymentId);
    if (row) await test.app.paymentEngine.apply(row.id, { providerReference: row.providerReference ?? '', status: 'CAPTURED', agreementId: null });
    await replayWebhooks(redirect.paymentId);
    expect(paymentRedirectSchema.parse((await pay(ny, created.orderId)).json()).redirectUrl).toBe(`/kvittering?orderId=${created.orderId}`);
    expect((await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: key, ariaPlanID: 'ADR-DIGITAL-M' } })).json()).toMatchObject({
      orderId: created.orderId,
      state: 'fulfilled',
    });
    await refusedAtVipps(redirect.redirectUrl, 'approve');
    expect(await counts('user-ny')).toEqual({ subscriptions: 1, invoices: 1, captured: 1 });
    expect(captureRequests(redirect.paymentId)).toHaveLength(1);
    const receipts = await test.database.rows(sql`select 1 from mail_outbox where idempotency_key = ${`order:${created.orderId}:receipt`}`);
    expect(receipts).toHaveLength(1);
    // Now a subscriber: a new order at ADR is refused.
    expectRefused(await order(ny, { ariaPlanID: 'ADR-KOMPLETT-M' }), 409, 'ALREADY_SUBSCRIBER');
    // Another user's order is not found.
    const digital = await signIn('digital@minside.test');
    expectRefused(await digital.request('GET', `${PORTAL}/api/order/${created.orderId}`), 404, 'NOT_FOUND');
    expectRefused(await pay(digital, created.orderId), 404, 'NOT_FOUND');
    await resetNy();
  });

  it('resumes the same order after "Avvis" at Vipps MobilePay; a failed first charge and "La utløpe" end it with nothing made', async () => {
    const ny = await signIn('ny@minside.test');
    const created = orderSchema.parse((await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' })).json());
    const firstTry = paymentRedirectSchema.parse((await pay(ny, created.orderId, 'VIPPS')).json());
    expect(await answer(firstTry.redirectUrl, 'reject')).toBe(`/completevippspurchase?paymentId=${firstTry.paymentId}&orderId=${created.orderId}`);
    expect((await view(ny, created.orderId)).order).toMatchObject({ state: 'created', lastPaymentStatus: 'CANCELLED' });
    expect(await counts('user-ny')).toEqual({ subscriptions: 0, invoices: 0, captured: 1 });
    expect(await atVipps(firstTry.paymentId)).toMatchObject({ status: 'CANCELLED' });
    const retry = paymentRedirectSchema.parse((await pay(ny, created.orderId, 'VIPPS')).json());
    expect(retry.paymentId).not.toBe(firstTry.paymentId);
    await answer(retry.redirectUrl, 'approve');
    const done = await view(ny, created.orderId);
    expect(done.order).toMatchObject({ state: 'fulfilled', lastPaymentStatus: 'CAPTURED' });
    // Bought with Vipps: the agreement the payer approved is the subscription's way to pay.
    expect(done.session?.subscription?.paymentMethod).toBe('VIPPS');
    expect(await counts('user-ny')).toEqual({ subscriptions: 1, invoices: 1, captured: 2 });
    // The declined first try charged nothing, the approved one its 1 kr once.
    expect(await atVipps(firstTry.paymentId)).toMatchObject({ status: 'CANCELLED' });
    expect(await atVipps(retry.paymentId)).toMatchObject({ status: 'CAPTURED' });
    await resetNy();

    const endings: Array<{ method: 'VIPPS' | 'SWEDBANK-PPG'; action: VippsAnswer; failCharges: boolean; state: string; payment: string }> = [
      // Approved, but the first charge of the agreement fails (no money behind the card in the app).
      { method: 'VIPPS', action: 'approve', failCharges: true, state: 'failed', payment: 'FAILED' },
      { method: 'VIPPS', action: 'expire', failCharges: false, state: 'timed_out', payment: 'TIMEOUT' },
      { method: 'SWEDBANK-PPG', action: 'expire', failCharges: false, state: 'timed_out', payment: 'TIMEOUT' },
    ];
    for (const { method, action, failCharges, state, payment } of endings) {
      const failing = orderSchema.parse((await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' })).json());
      const flow = paymentRedirectSchema.parse((await pay(ny, failing.orderId, method)).json());
      vipps().faults.failCharges = failCharges;
      try {
        await answer(flow.redirectUrl, action);
      } finally {
        vipps().faults.failCharges = false;
      }
      expect((await view(ny, failing.orderId)).order, `${method} ${action}`).toMatchObject({ state, lastPaymentStatus: payment });
      expect((await test.app.paymentEngine.load(flow.paymentId))?.status).toBe(payment);
      expect(await atVipps(flow.paymentId)).toMatchObject({ status: payment });
      expect((await counts('user-ny'))?.subscriptions).toBe(0);
      expectRefused(await pay(ny, failing.orderId), 409, 'ORDER_CLOSED');
    }
  });

  it('cancels an order in progress (/avbryt-bestilling): the open payment is ended at Vipps MobilePay, and a late approval gives nothing', async () => {
    const ny = await signIn('ny@minside.test');
    for (const method of ['SWEDBANK-PPG', 'VIPPS'] as const) {
      const created = orderSchema.parse((await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' })).json());
      const flow = paymentRedirectSchema.parse((await pay(ny, created.orderId, method)).json());
      const cancelled = await ny.request('POST', `${PORTAL}/api/order/${created.orderId}/cancel`, { json: {} });
      await vipps().flushWebhooks();
      expect(orderSchema.parse(cancelled.json()).state).toBe('cancelled');
      expect((await test.app.paymentEngine.load(flow.paymentId))?.status).toBe('CANCELLED');
      // Ended at Vipps MobilePay too (the payment terminated, the agreement stopped): the payer's late "Godkjenn" is refused there.
      expect(await atVipps(flow.paymentId), method).toMatchObject({ status: 'CANCELLED' });
      await refusedAtVipps(flow.redirectUrl, 'approve');
      expect((await view(ny, created.orderId)).order.state).toBe('cancelled');
      expect((await counts('user-ny'))?.subscriptions).toBe(0);
      expectRefused(await pay(ny, created.orderId), 409, 'ORDER_CLOSED');
    }

    // The payer approved at Vipps MobilePay a moment before "Avbryt", and the webhook was lost: the
    // cancel releases the reserved money instead of capturing it.
    const raced = orderSchema.parse((await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' })).json());
    const flow = paymentRedirectSchema.parse((await pay(ny, raced.orderId)).json());
    await answer(flow.redirectUrl, 'approve', { lostWebhooks: true });
    expect(orderSchema.parse((await ny.request('POST', `${PORTAL}/api/order/${raced.orderId}/cancel`, { json: {} })).json()).state).toBe('cancelled');
    await vipps().flushWebhooks();
    expect((await test.app.paymentEngine.load(flow.paymentId))?.status).toBe('CANCELLED');
    expect(await atVipps(flow.paymentId)).toMatchObject({ status: 'CANCELLED' });
    expect(captureRequests(flow.paymentId)).toEqual([]);
    expect((await view(ny, raced.orderId)).order.state).toBe('cancelled');
    expect((await counts('user-ny'))?.subscriptions).toBe(0);
  });

  it('orders paper with a delivery address and the first possible delivery day; a bad address changes nothing', async () => {
    const ny = await signIn('ny@minside.test');
    expectRefused(await order(ny, { ariaPlanID: 'ADR-KOMPLETT-M' }), 400, 'DELIVERY_ADDRESS_REQUIRED');
    const address = { name: 'Nina Nygård', street: 'Munkegata', streetNumber: '3', postalCode: '0000' };
    expectRefused(await order(ny, { ariaPlanID: 'ADR-KOMPLETT-M', deliveryAddress: address }), 400, 'UNKNOWN_POSTAL_CODE');
    expect((await order(ny, { ariaPlanID: 'ADR-KOMPLETT-M', deliveryAddress: { ...address, street: '' } })).status).toBe(400);
    const created = orderSchema.parse((await order(ny, { ariaPlanID: 'ADR-KOMPLETT-M', campaignCode: 'CAMP-2020-03-003', deliveryAddress: { ...address, postalCode: '7011' } })).json());
    expect(created).toMatchObject({ deliveryAddress: { town: 'Trondheim', postalCode: '7011' }, quote: { offerCode: 'CAMP-2020-03-003', amountNowOre: 32_500 } });
    const flow = paymentRedirectSchema.parse((await pay(ny, created.orderId)).json());
    await answer(flow.redirectUrl, 'approve');
    const done = await view(ny, created.orderId);
    expect(done.order.state).toBe('fulfilled');
    expect(done.order.paperStartsOn).not.toBeNull();
    expect((done.order.paperStartsOn ?? '') > osloToday(now())).toBe(true);
    const [stored] = await test.database.rows<{ street: string; town: string }>(sql`select street, town from delivery_address where subscription_id = ${done.session?.subscription?.id ?? ''}`);
    expect(stored).toEqual({ street: 'Munkegata', town: 'Trondheim' });
    await test.database.rows(sql`delete from delivery_address where subscription_id = ${done.session?.subscription?.id ?? ''}`);
    await resetNy();
  });

  it('repairs: a second paid order for the same title is refunded at Vipps MobilePay, a stale wait times out, a lost settlement is found', async () => {
    const ny = await signIn('ny@minside.test');
    const oneResponse = await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' });
    expect(oneResponse.status, oneResponse.body).toBe(201);
    const one = orderSchema.parse(oneResponse.json());
    const two = orderSchema.parse((await order(ny, { ariaPlanID: 'ADR-DIGITAL-Y' })).json());
    const payOne = paymentRedirectSchema.parse((await pay(ny, one.orderId)).json());
    const payTwo = paymentRedirectSchema.parse((await pay(ny, two.orderId)).json());
    await answer(payOne.redirectUrl, 'approve');
    await answer(payTwo.redirectUrl, 'approve');
    expect((await view(ny, two.orderId)).order.state).toBe('paid');
    expect(await counts('user-ny')).toMatchObject({ subscriptions: 1, invoices: 1 });
    expect(await atVipps(payTwo.paymentId)).toMatchObject({ status: 'CAPTURED' });

    // A third order is approved at Vipps MobilePay, but its settlement is lost; a fourth waits there unanswered.
    await resetNy();
    const three = orderSchema.parse((await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' })).json());
    const payThree = paymentRedirectSchema.parse((await pay(ny, three.orderId)).json());
    const stale = orderSchema.parse((await order(ny, { ariaPlanID: 'ADR-DIGITAL-Y' })).json());
    const payStale = paymentRedirectSchema.parse((await pay(ny, stale.orderId, 'VIPPS')).json());
    // The payer approved three at Vipps MobilePay, but every webhook was lost and the payer never came back.
    await answer(payThree.redirectUrl, 'approve', { lostWebhooks: true });
    expect((await test.app.paymentEngine.load(payThree.paymentId))?.status).toBe('PENDING');

    const repaired = await test.app.ordering.repair();
    // The webhooks of the capture and the refund come after, and change nothing.
    await vipps().flushWebhooks();
    expect(repaired).toMatchObject({ refunded: 1, resolved: 1 });
    expect((await test.database.rows<{ state: string }>(sql`select state from subscription_order where id = ${two.orderId}`))[0]?.state).toBe('failed');
    expect((await test.app.paymentEngine.load(payTwo.paymentId))?.status).toBe('REFUNDED');
    // The money went back at Vipps MobilePay, all of it.
    expect(await atVipps(payTwo.paymentId)).toMatchObject({ status: 'REFUNDED' });
    const refunds = vipps().requests.filter((request) => request.method === 'POST' && request.path === `/epayment/v1/payments/${payTwo.paymentId}/refund`);
    expect(refunds.map((request) => request.response?.status)).toEqual([200]);
    expect(refunds[0]?.body).toEqual({ modificationAmount: { currency: 'NOK', value: two.quote.amountNowOre } });
    // The buyer is told the money is on its way back, once (issue 23), in the title's name.
    const notices = await test.database.rows<{ text: string; from_name: string | null }>(
      sql`select text, from_name from mail_outbox where to_address = 'ny@minside.test' and idempotency_key = ${`payment-refunded:${payTwo.paymentId}`}`,
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('Vi har betalt tilbake');
    expect(notices[0]?.text).toContain('til kortet du betalte med');
    expect(notices[0]?.from_name).toBe('Adresseavisen');
    expect((await test.database.rows<{ state: string }>(sql`select state from subscription_order where id = ${three.orderId}`))[0]?.state).toBe('fulfilled');
    expect(await atVipps(payThree.paymentId)).toMatchObject({ status: 'CAPTURED' });
    expect(captureRequests(payThree.paymentId)).toHaveLength(1);
    expect(await counts('user-ny')).toMatchObject({ subscriptions: 1 });

    expect((await test.database.rows<{ state: string }>(sql`select state from subscription_order where id = ${stale.orderId}`))[0]?.state).toBe('awaiting_payment');
    const staleAgreement = await agreementOf(payStale.paymentId);
    expect(staleAgreement).toMatch(/^agr_/);
    offsetMs += 61 * MINUTE;
    // An hour on, nobody answered: Vipps MobilePay let the agreement expire (after ten minutes), so the
    // repair job's look-up settles the order as timed out; nothing was charged.
    const later = await test.app.ordering.repair();
    await vipps().flushWebhooks();
    expect(later).toEqual({ resolved: 1, fulfilled: 0, refunded: 0, timedOut: 0 });
    expect((await test.database.rows<{ state: string; last_payment_status: string }>(sql`select state, last_payment_status from subscription_order where id = ${stale.orderId}`))[0]).toEqual({
      state: 'timed_out',
      last_payment_status: 'TIMEOUT',
    });
    expect((await test.app.paymentEngine.load(payStale.paymentId))?.status).toBe('TIMEOUT');
    expect(await atVipps(payStale.paymentId)).toMatchObject({ status: 'TIMEOUT' });
    expect(await test.app.paymentProvider.agreement(staleAgreement)).toBeNull();
    // Running it again finds nothing to do.
    expect(await test.app.ordering.repair()).toEqual({ resolved: 0, fulfilled: 0, refunded: 0, timedOut: 0 });
    offsetMs = 0;
    await resetNy();
  });

  it('offers the winback (3 months for the price of 1) to a former subscriber by link or sign-in, never to an active one', async () => {
    const link = await test.app.inject({
      method: 'POST',
      url: '/api/operator/winback-link',
      headers: { authorization: `Bearer ${'o'.repeat(40)}`, 'content-type': 'application/json' },
      payload: { ariaAccountNo: 40_000_010, titleCode: 'ADR' },
    });
    expect(link.statusCode, link.body).toBe(200);
    const { token } = link.json<{ token: string }>();
    const anonymous = await test.app.inject({ method: 'GET', url: `/api/winback?titleCode=ADR&token=${encodeURIComponent(token)}` });
    expect(anonymous.json()).toMatchObject({ eligible: true, givenName: 'Eva', offer: { quote: { offerCode: 'WINBACK_3FOR1', amountNowOre: 29_900, firstPeriodMonths: 3 } } });
    const tampered = await test.app.inject({ method: 'GET', url: `/api/winback?titleCode=ADR&token=${encodeURIComponent(`${token}x`)}` });
    expect(tampered.json()).toMatchObject({ eligible: false, reason: 'Lenken til tilbudet er ikke gyldig.' });

    const utlopt = await signIn('utlopt@minside.test');
    const created = await order(utlopt, { ariaPlanID: 'ADR-DIGITAL-M', winback: token });
    expect(orderSchema.parse(created.json()).quote).toMatchObject({ offerCode: 'WINBACK_3FOR1', amountNowOre: 29_900, firstPeriodMonths: 3 });
    const flow = paymentRedirectSchema.parse((await pay(utlopt, orderSchema.parse(created.json()).orderId)).json());
    await answer(flow.redirectUrl, 'approve');
    const done = (await view(utlopt, orderSchema.parse(created.json()).orderId)) as { order: Order };
    expect(done.order.firstPeriodEnd).toBe(addDays(addMonths(osloToday(now()), 3), -1));

    const digital = await signIn('digital@minside.test');
    expect((await digital.request('GET', `${PORTAL}/api/winback?titleCode=ADR`)).json()).toMatchObject({ eligible: false, activeSubscriber: true });
    expectRefused(await order(digital, { ariaPlanID: 'ADR-DIGITAL-M', winback: 'signed-in' }), 409, 'ALREADY_SUBSCRIBER');
    const ny = await signIn('ny@minside.test');
    expectRefused(await order(ny, { ariaPlanID: 'ADR-DIGITAL-M', winback: token }), 403, 'NOT_ELIGIBLE_FOR_WINBACK');
  });

  // Issue 20 point 11: distinct idempotency keys made twenty orders for one purchase, and twenty captures.
  it('a burst of 20 orders for one offer with distinct keys: one order, one payment started and captured; the rest 409 with nothing started', async () => {
    const ny = await signIn('ny@minside.test');
    const ordersBefore = await test.database.rows(sql`select id from subscription_order where user_id = 'user-ny'`);
    const paymentsBefore = await test.database.rows(sql`select id from payment where user_id = 'user-ny'`);
    const capturedBefore = (await counts('user-ny'))?.captured ?? 0;
    const requestsBefore = vipps().requests.length;
    const attempts = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const placed = await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' });
        if (placed.status !== 201) return { placed, started: null };
        const started = await pay(ny, orderSchema.parse(placed.json()).orderId);
        return { placed, started };
      }),
    );
    const accepted = attempts.filter((attempt) => attempt.placed.status === 201);
    expect(accepted).toHaveLength(1);
    for (const refused of attempts.filter((attempt) => attempt.placed.status !== 201)) {
      expectRefused(refused.placed, 409, 'ORDER_ALREADY_OPEN', 'Du har allerede en påbegynt bestilling av dette abonnementet. Fullfør betalingen der du startet den, eller prøv igjen om en time.');
    }
    // Whoever presses "Godkjenn" on every page the burst opened, one payment is captured.
    const started = attempts.flatMap((attempt) => (attempt.started?.status === 200 ? [paymentRedirectSchema.parse(attempt.started.json())] : []));
    expect(started).toHaveLength(1);
    for (const flow of started) await answer(flow.redirectUrl, 'approve');
    expect(await test.database.rows(sql`select id from subscription_order where user_id = 'user-ny'`)).toHaveLength(ordersBefore.length + 1);
    expect(await test.database.rows(sql`select id from payment where user_id = 'user-ny'`)).toHaveLength(paymentsBefore.length + 1);
    expect(await counts('user-ny')).toEqual({ subscriptions: 1, invoices: 1, captured: capturedBefore + 1 });
    // One payment created at Vipps MobilePay for the whole burst, captured once.
    const creates = vipps()
      .requests.slice(requestsBefore)
      .filter((request) => request.method === 'POST' && request.path === '/epayment/v1/payments');
    expect(creates.map((request) => (request.body as { reference?: string }).reference)).toEqual(started.map((flow) => flow.paymentId));
    for (const flow of started) expect(captureRequests(flow.paymentId)).toHaveLength(1);
    await resetNy();
  });

  it('one open purchase per offer: a second order for the same plan is refused while the first is open, allowed once it has ended; another plan is its own offer', async () => {
    const ny = await signIn('ny@minside.test');
    const first = orderSchema.parse((await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' })).json());
    await pay(ny, first.orderId);
    const ordersBefore = await test.database.rows(sql`select id from subscription_order`);
    expectRefused(await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' }), 409, 'ORDER_ALREADY_OPEN');
    expect(await test.database.rows(sql`select id from subscription_order`)).toHaveLength(ordersBefore.length);
    // The database holds the rule whatever the code path (migration 0015's partial unique index).
    const copy = sql`insert into subscription_order (id, idempotency_key, user_id, title_code, aria_plan_id, plan_name, plan_product_type, billing_period, amount_now_ore, first_period_months, price_later_ore, later_period_months, state, created_at, updated_at)
      select ${randomUUID()}, ${randomUUID()}, user_id, title_code, aria_plan_id, plan_name, plan_product_type, billing_period, amount_now_ore, first_period_months, price_later_ore, later_period_months, 'created', created_at, updated_at
      from subscription_order where id = ${first.orderId}`;
    await expect(test.database.rows(copy)).rejects.toThrow();
    expect(await test.database.rows(sql`select id from subscription_order`)).toHaveLength(ordersBefore.length);
    // The same key still answers its own order (idempotency wins over the refusal).
    const other = await order(ny, { ariaPlanID: 'ADR-DIGITAL-Y' });
    expect(other.status, other.body).toBe(201);
    await ny.request('POST', `${PORTAL}/api/order/${first.orderId}/cancel`, { json: {} });
    expect((await order(ny, { ariaPlanID: 'ADR-DIGITAL-M' })).status).toBe(201);
    // An order never sent to payment does not hold its offer for ever: the repair job gives it up after an hour.
    offsetMs += 61 * MINUTE;
    expect((await test.app.ordering.repair()).timedOut).toBe(2);
    expect((await order(await signIn('ny@minside.test'), { ariaPlanID: 'ADR-DIGITAL-M' })).status).toBe(201);
    offsetMs = 0;
    await resetNy();
  });
});
