import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VippsApiError, VippsUnavailableError } from '../src/index.ts';
import type { CreatePaymentRequest, VippsClient } from '../src/index.ts';
import { closeRigsAfterAll, credentials, startReceiver, startRig, unique } from './support.ts';
import type { Receiver, Rig } from './support.ts';

closeRigsAfterAll();

let rig: Rig;
let client: VippsClient;
let shop: Receiver;

beforeAll(async () => {
  rig = await startRig();
  client = rig.client();
  shop = await startReceiver();
});
afterAll(() => shop.close());

function payment(overrides: Partial<CreatePaymentRequest> = {}): CreatePaymentRequest {
  const reference = unique('order');
  return {
    amount: { currency: 'NOK', value: 49_900 },
    paymentMethod: { type: 'WALLET' },
    reference,
    returnUrl: `${shop.url}/betaling/ferdig?reference=${reference}`,
    userFlow: 'WEB_REDIRECT',
    paymentDescription: 'Digitalt abonnement, 1 måned',
    ...overrides,
  };
}

function tokenFetches(): number {
  return rig.sim.requests.filter((request) => request.path === '/accesstoken/get').length;
}

/** What a person does on the landing page: open it, press a button, follow the 303. */
async function decideOnLandingPage(redirectUrl: string, action: 'approve' | 'reject' | 'expire') {
  const page = await fetch(redirectUrl);
  const html = await page.text();
  const reference = new URL(redirectUrl).searchParams.get('reference') ?? '';
  return { page, html, answer: await fetch(new URL('/simulator/landing', redirectUrl), { method: 'POST', body: new URLSearchParams({ reference, action }) }) };
}

describe('access token', () => {
  it('is fetched once per merchant and reused until it is about to expire by the clock', async () => {
    const fresh = rig.client();
    const before = tokenFetches();
    const created = await fresh.epayment.create(payment(), { idempotencyKey: unique('key') });
    await fresh.epayment.get(created.reference);
    await Promise.all([fresh.epayment.get(created.reference), fresh.epayment.events(created.reference)]);
    expect(tokenFetches() - before).toBe(1);

    rig.clock.advance(59 * 60_000 + 1); // one hour in the test environment, renewed a minute early
    await fresh.epayment.get(created.reference);
    expect(tokenFetches() - before).toBe(2);

    const tokenRequest = rig.sim.requests.filter((request) => request.path === '/accesstoken/get').at(-1);
    expect(tokenRequest?.method).toBe('POST');
    expect(tokenRequest?.body).toBeUndefined();
    expect(tokenRequest?.headers).toMatchObject({ client_id: credentials.clientId, 'merchant-serial-number': '123456', 'vipps-system-name': 'minside' });
  });

  it('is fetched again when the provider says it has expired, and the call is sent again', async () => {
    const created = await client.epayment.create(payment(), { idempotencyKey: unique('key') });
    const before = tokenFetches();
    const asked = rig.sim.requests.length;
    rig.sim.faults.next('expired-token', { pathPrefix: '/epayment/' });
    const read = await client.epayment.get(created.reference);
    expect(read.state).toBe('CREATED');
    expect(tokenFetches() - before).toBe(1);
    expect(rig.sim.requests.slice(asked).map((request) => `${request.method} ${request.path} ${request.response?.status ?? ''}`)).toEqual([
      `GET /epayment/v1/payments/${created.reference} 401`,
      'POST /accesstoken/get 200',
      `GET /epayment/v1/payments/${created.reference} 200`,
    ]);
  });

  it('is a VippsApiError when the credentials are wrong, without the secret in the message', async () => {
    const wrong = rig.client({ clientSecret: 'not-the-secret' });
    const error = await wrong.epayment.get('order-does-not-matter').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VippsApiError);
    expect(error).toMatchObject({ status: 401, operation: 'fetchAuthorizationTokenUsingPost' });
    expect(String(error)).not.toContain('not-the-secret');
  });
});

describe('ePayment through the landing page', () => {
  it('create (WALLET) → approve on the landing page → capture → partial refund', async () => {
    const request = payment();
    const created = await client.epayment.create(request, { idempotencyKey: unique('key') });
    expect(created.reference).toBe(request.reference);
    expect(created.redirectUrl).toBe(`${rig.url}/simulator/landing?reference=${request.reference}`);

    const { page, html, answer } = await decideOnLandingPage(created.redirectUrl ?? '', 'approve');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('Vipps MobilePay (simulator)');
    expect(html).toContain('Godkjenn');
    expect(html).toContain('Avvis');
    expect(html).toContain('La utløpe');
    expect(html).toContain('Digitalt abonnement, 1 måned');
    expect(html).toContain('123456');
    expect(html).toMatch(/499,00\skr/);
    expect(html).not.toContain('<script');
    // fetch followed the 303 to the return URL, as a browser does.
    expect(answer.redirected).toBe(true);
    expect(answer.url).toBe(request.returnUrl);
    expect(shop.received.at(-1)).toMatchObject({ method: 'GET', path: `/betaling/ferdig?reference=${request.reference}` });

    const authorized = await client.epayment.get(request.reference);
    expect(authorized).toMatchObject({
      state: 'AUTHORIZED',
      amount: { currency: 'NOK', value: 49_900 },
      paymentMethod: { type: 'WALLET' },
      profile: {},
      aggregate: { authorizedAmount: { value: 49_900 }, capturedAmount: { value: 0 }, cancelledAmount: { value: 0 }, refundedAmount: { value: 0 } },
    });

    const captured = await client.epayment.capture(request.reference, { currency: 'NOK', value: 49_900 }, { idempotencyKey: unique('key') });
    expect(captured.state).toBe('AUTHORIZED');
    expect(captured.aggregate.capturedAmount.value).toBe(49_900);

    const refunded = await client.epayment.refund(request.reference, { currency: 'NOK', value: 10_000 }, { idempotencyKey: unique('key') });
    expect(refunded.aggregate).toEqual({
      authorizedAmount: { currency: 'NOK', value: 49_900 },
      cancelledAmount: { currency: 'NOK', value: 0 },
      capturedAmount: { currency: 'NOK', value: 49_900 },
      refundedAmount: { currency: 'NOK', value: 10_000 },
    });

    const events = await client.epayment.events(request.reference);
    expect(events.map((event) => [event.name, event.amount.value])).toEqual([
      ['CREATED', 49_900],
      ['AUTHORIZED', 49_900],
      ['CAPTURED', 49_900],
      ['REFUNDED', 10_000],
    ]);
    expect(new Set(events.map((event) => event.pspReference)).size).toBe(4);
    expect(events.every((event) => event.success && event.reference === request.reference)).toBe(true);

    // The landing page no longer offers the buttons once the payment is decided.
    const after = await (await fetch(created.redirectUrl ?? '')).text();
    expect(after).not.toContain('Godkjenn');
    expect(after).toContain('Godkjent');
  });

  it('create (CARD) → approve → AUTHORIZED with paymentMethod CARD', async () => {
    const request = payment({ paymentMethod: { type: 'CARD' } });
    const created = await client.epayment.create(request, { idempotencyKey: unique('key') });
    const { answer } = await decideOnLandingPage(created.redirectUrl ?? '', 'approve');
    expect(answer.url).toBe(request.returnUrl);
    expect(await client.epayment.get(request.reference)).toMatchObject({ state: 'AUTHORIZED', paymentMethod: { type: 'CARD' } });
  });

  it('refuses CARD without WEB_REDIRECT before sending', async () => {
    const asked = rig.sim.requests.length;
    await expect(client.epayment.create(payment({ paymentMethod: { type: 'CARD' }, userFlow: 'NATIVE_REDIRECT' }), { idempotencyKey: unique('key') })).rejects.toThrow(
      /createPayment: body\.userFlow: `CARD` has to be combined/,
    );
    expect(rig.sim.requests.length).toBe(asked);
  });

  it('reject on the landing page → ABORTED, and the user is sent back all the same', async () => {
    const request = payment();
    const created = await client.epayment.create(request, { idempotencyKey: unique('key') });
    const { answer } = await decideOnLandingPage(created.redirectUrl ?? '', 'reject');
    expect(answer.url).toBe(request.returnUrl);
    expect((await client.epayment.get(request.reference)).state).toBe('ABORTED');
    expect((await client.epayment.events(request.reference)).map((event) => event.name)).toEqual(['CREATED', 'ABORTED']);
    const late = await client.epayment.capture(request.reference, { currency: 'NOK', value: 100 }, { idempotencyKey: unique('key') }).catch((caught: unknown) => caught);
    expect(late).toMatchObject({ name: 'VippsApiError', status: 400 });
  });

  it('expires by the clock after five minutes without an answer', async () => {
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    rig.clock.advance(4 * 60_000);
    expect((await client.epayment.get(request.reference)).state).toBe('CREATED');
    const createdAt = new Date((await client.epayment.events(request.reference))[0]?.timestamp ?? '').getTime();
    rig.clock.advance(60_000);
    expect((await client.epayment.get(request.reference)).state).toBe('EXPIRED');
    const events = await client.epayment.events(request.reference);
    expect(events.map((event) => event.name)).toEqual(['CREATED', 'EXPIRED']);
    expect(new Date(events[1]?.timestamp ?? '').getTime() - createdAt).toBe(5 * 60_000);
    expect(() => rig.sim.approve(request.reference)).toThrow(/EXPIRED/);
  });

  it('expires on the landing page ("La utløpe")', async () => {
    const request = payment();
    const created = await client.epayment.create(request, { idempotencyKey: unique('key') });
    await decideOnLandingPage(created.redirectUrl ?? '', 'expire');
    expect((await client.epayment.get(request.reference)).state).toBe('EXPIRED');
  });

  it('cancel: releases what is not captured; terminates one the user has not answered', async () => {
    const authorized = payment();
    await client.epayment.create(authorized, { idempotencyKey: unique('key') });
    rig.sim.approve(authorized.reference);
    await client.epayment.capture(authorized.reference, { currency: 'NOK', value: 20_000 }, { idempotencyKey: unique('key') });
    const cancelled = await client.epayment.cancel(authorized.reference, { idempotencyKey: unique('key') });
    expect(cancelled.state).toBe('AUTHORIZED');
    expect(cancelled.aggregate.capturedAmount.value).toBe(20_000);
    expect(cancelled.aggregate.cancelledAmount.value).toBe(29_900);
    const again = await client.epayment.cancel(authorized.reference, { idempotencyKey: unique('key') }).catch((caught: unknown) => caught);
    expect(again).toMatchObject({ name: 'VippsApiError', status: 400, problem: { title: 'Cancel not allowed' } });

    const unanswered = payment();
    await client.epayment.create(unanswered, { idempotencyKey: unique('key') });
    expect((await client.epayment.cancel(unanswered.reference, { idempotencyKey: unique('key') })).state).toBe('TERMINATED');
    expect((await client.epayment.events(unanswered.reference)).map((event) => event.name)).toEqual(['CREATED', 'TERMINATED']);
  });

  it('refuses to capture more than is authorized, or to refund more than is captured', async () => {
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    await client.epayment.forceApprove(request.reference, { customer: { phoneNumber: '4791234567' } });
    const tooMuch = await client.epayment.capture(request.reference, { currency: 'NOK', value: 50_000 }, { idempotencyKey: unique('key') }).catch((caught: unknown) => caught);
    expect(tooMuch).toBeInstanceOf(VippsApiError);
    expect(tooMuch).toMatchObject({ status: 400, operation: 'capturePayment', problem: { title: 'Capture amount too high', status: 400 } });
    await client.epayment.capture(request.reference, { currency: 'NOK', value: 30_000 }, { idempotencyKey: unique('key') });
    await client.epayment.capture(request.reference, { currency: 'NOK', value: 19_900 }, { idempotencyKey: unique('key') });
    const refund = await client.epayment.refund(request.reference, { currency: 'NOK', value: 49_901 }, { idempotencyKey: unique('key') }).catch((caught: unknown) => caught);
    expect(refund).toMatchObject({ status: 400, problem: { title: 'Not enough refundable' } });
  });

  it('keeps merchants apart: a payment of one MSN is not found by another', async () => {
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key'), msn: '654321' });
    expect((await client.epayment.get(request.reference, { msn: '654321' })).state).toBe('CREATED');
    await expect(client.epayment.get(request.reference)).rejects.toMatchObject({ status: 404 });
  });
});

describe('idempotency', () => {
  it('same key and body twice: the first answer again, one payment', async () => {
    const request = payment();
    const key = unique('key');
    const first = await client.epayment.create(request, { idempotencyKey: key });
    const second = await client.epayment.create({ ...request }, { idempotencyKey: key });
    expect(second).toEqual(first);
    expect((await client.epayment.events(request.reference)).map((event) => event.name)).toEqual(['CREATED']);

    rig.sim.approve(request.reference);
    const captureKey = unique('key');
    await client.epayment.capture(request.reference, { currency: 'NOK', value: 10_000 }, { idempotencyKey: captureKey });
    const repeated = await client.epayment.capture(request.reference, { currency: 'NOK', value: 10_000 }, { idempotencyKey: captureKey });
    expect(repeated.aggregate.capturedAmount.value).toBe(10_000);
  });

  it('same key with another body: 409 as a VippsApiError', async () => {
    const request = payment();
    const key = unique('key');
    await client.epayment.create(request, { idempotencyKey: key });
    const error = await client.epayment.create({ ...request, amount: { currency: 'NOK', value: 100_000 } }, { idempotencyKey: key }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VippsApiError);
    expect(error).toMatchObject({ status: 409, operation: 'createPayment', problem: { title: 'Idempotency error' } });

    rig.sim.approve(request.reference);
    const captureKey = unique('key');
    await client.epayment.capture(request.reference, { currency: 'NOK', value: 100 }, { idempotencyKey: captureKey });
    await expect(client.epayment.capture(request.reference, { currency: 'NOK', value: 200 }, { idempotencyKey: captureKey })).rejects.toMatchObject({
      status: 409,
      problem: { title: 'Capture idempotency conflict' },
    });
  });

  it('another key for the same reference: 409, the reference already exists', async () => {
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    await expect(client.epayment.create(request, { idempotencyKey: unique('key') })).rejects.toMatchObject({ status: 409, problem: { detail: `Reference \`${request.reference}\` already exists.` } });
  });

  it('a server error is retried with the same Idempotency-Key: one payment', async () => {
    const request = payment();
    const key = unique('key');
    const asked = rig.sim.requests.length;
    rig.sim.faults.next('server-error', { method: 'POST', pathPrefix: '/epayment/v1/payments' });
    const created = await client.epayment.create(request, { idempotencyKey: key });
    expect(created.reference).toBe(request.reference);
    const creates = rig.sim.requests.slice(asked).filter((entry) => entry.method === 'POST' && entry.path === '/epayment/v1/payments');
    expect(creates.map((entry) => [entry.headers['idempotency-key'], entry.response?.status])).toEqual([
      [key, 500],
      [key, 201],
    ]);
    expect((await client.epayment.events(request.reference)).map((event) => event.name)).toEqual(['CREATED']);
  });

  it('a rate limit (429) is waited out with the same Idempotency-Key: one payment; still limited after the retries, the outcome is unknown', async () => {
    const request = payment();
    const key = unique('key');
    const asked = rig.sim.requests.length;
    rig.sim.faults.next('rate-limited', { method: 'POST', pathPrefix: '/epayment/v1/payments' });
    await client.epayment.create(request, { idempotencyKey: key });
    const creates = rig.sim.requests.slice(asked).filter((entry) => entry.method === 'POST' && entry.path === '/epayment/v1/payments');
    expect(creates.map((entry) => [entry.headers['idempotency-key'], entry.response?.status])).toEqual([
      [key, 429],
      [key, 201],
    ]);
    rig.sim.faults.next('rate-limited', { count: 3, method: 'GET' });
    const error = await client.epayment.get(request.reference).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VippsUnavailableError);
    expect(error).toMatchObject({ operation: 'getPayment', status: 429 });
  });

  it('5xx after the retries is VippsUnavailableError; without a key (force approve) there is no retry', async () => {
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    rig.sim.faults.next('server-error', { count: 3, method: 'GET', status: 503 });
    const error = await client.epayment.get(request.reference).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VippsUnavailableError);
    expect(error).toMatchObject({ operation: 'getPayment', status: 503 });

    const asked = rig.sim.requests.length;
    rig.sim.faults.next('server-error', { pathPrefix: '/epayment/v1/test/' });
    await expect(client.epayment.forceApprove(request.reference, { customer: { phoneNumber: '4791234567' } })).rejects.toBeInstanceOf(VippsUnavailableError);
    expect(rig.sim.requests.slice(asked).filter((entry) => entry.path.includes('/approve'))).toHaveLength(1);
    // The fault came after the work: the payment was approved although the answer said 503.
    expect((await client.epayment.get(request.reference)).state).toBe('AUTHORIZED');
  });

  it('a timeout is VippsUnavailableError; the payment is there when read again', async () => {
    const impatient = rig.client({ timeoutMs: 250 });
    const request = payment();
    const key = unique('key');
    rig.sim.faults.next('timeout', { count: 3, method: 'POST', pathPrefix: '/epayment/v1/payments' });
    const error = await impatient.epayment.create(request, { idempotencyKey: key }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VippsUnavailableError);
    expect(error).toMatchObject({ operation: 'createPayment', status: undefined });
    expect((error as Error).message).toContain('no answer within 250 ms');
    const attempts = rig.sim.requests.filter((entry) => entry.method === 'POST' && entry.path === '/epayment/v1/payments' && entry.headers['idempotency-key'] === key);
    expect(attempts).toHaveLength(3);
    expect((await impatient.epayment.get(request.reference)).state).toBe('CREATED');
    // And the same key once more gives the answer the timeouts swallowed.
    expect(await impatient.epayment.create(request, { idempotencyKey: key })).toEqual({ reference: request.reference, redirectUrl: expect.stringContaining(request.reference) });
  });
});

describe('requests the contract refuses', () => {
  it('are programming errors thrown before anything is sent', async () => {
    const asked = rig.sim.requests.length;
    await expect(client.epayment.get('short')).rejects.toThrow(TypeError);
    await expect(client.epayment.create(payment({ reference: 'has spaces in it' }), { idempotencyKey: unique('key') })).rejects.toThrow(/body\.reference/);
    await expect(client.epayment.create(payment(), { idempotencyKey: 'k'.repeat(51) })).rejects.toThrow(/idempotencyKey must be at most 50/);
    await expect(client.epayment.get('order-12345678', { msn: '12' })).rejects.toThrow(/msn/);
    expect(rig.sim.requests.length).toBe(asked);
  });

  it('are refused by the simulator in the documented Problem shape, naming the field', async () => {
    const tokenAnswer = await fetch(`${rig.url}/accesstoken/get`, {
      method: 'POST',
      headers: { client_id: credentials.clientId, client_secret: credentials.clientSecret, 'Ocp-Apim-Subscription-Key': credentials.subscriptionKey },
    });
    const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
    const headers = { Authorization: `Bearer ${token}`, 'Ocp-Apim-Subscription-Key': credentials.subscriptionKey, 'Merchant-Serial-Number': '123456', 'Content-Type': 'application/json' };
    const send = (extra: Record<string, string>, body: unknown) => fetch(`${rig.url}/epayment/v1/payments`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });

    const noKey = await send({}, payment());
    expect(noKey.status).toBe(400);
    expect(noKey.headers.get('content-type')).toBe('application/problem+json');
    expect(await noKey.json()).toMatchObject({ title: 'Bad Request', status: 400, detail: 'Idempotency-Key: the header is required', traceId: expect.any(String) });

    const badBody = await send({ 'Idempotency-Key': unique('key') }, { ...payment(), amount: { currency: 'SEK', value: 1.5 } });
    const problem = (await badBody.json()) as { detail: string };
    expect(badBody.status).toBe(400);
    expect(problem.detail).toContain('amount.currency');
    expect(problem.detail).toContain('amount.value');

    const tooSmall = await send({ 'Idempotency-Key': unique('key') }, payment({ amount: { currency: 'NOK', value: 99 } }));
    expect(await tooSmall.json()).toMatchObject({ status: 400, title: 'Amount too small' });

    const noMsn = await send({ 'Idempotency-Key': unique('key'), 'Merchant-Serial-Number': '' }, payment());
    expect(noMsn.status).toBe(400);
    expect(((await noMsn.json()) as { detail: string }).detail).toContain('Merchant-Serial-Number');

    const otherMerchant = await send({ 'Idempotency-Key': unique('key'), 'Merchant-Serial-Number': '999999' }, payment());
    expect(otherMerchant.status).toBe(403);

    const wrongKey = await send({ 'Idempotency-Key': unique('key'), 'Ocp-Apim-Subscription-Key': 'wrong' }, payment());
    expect(wrongKey.status).toBe(401);
    const noBearer = await send({ 'Idempotency-Key': unique('key'), Authorization: token }, payment());
    expect(noBearer.status).toBe(401);
    const longSystemName = await send({ 'Idempotency-Key': unique('key'), 'Vipps-System-Name': 'x'.repeat(31) }, payment());
    expect(((await longSystemName.json()) as { detail: string }).detail).toContain('Vipps-System-Name');
  });
});
