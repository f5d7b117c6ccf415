/**
 * The provider's official SDK (`@vippsmobilepay/sdk` 2.4.2) against the simulator: if the SDK,
 * written against the real API, works unchanged, the simulator speaks the same contract.
 *
 * The SDK talks only to https://apitest.vipps.no or https://api.vipps.no (no base URL option), so
 * globalThis.fetch is replaced for this file by one that sends apitest.vipps.no to the simulator
 * over real HTTP, and restored afterwards.
 *
 * No fault knobs here: the SDK retries a 5xx by calling fetch again with the same Request, whose
 * body is already used, so every retried request with a body (create, capture, refund, register,
 * agreement, charge) rejects with "Cannot construct a Request with a Request object that has
 * already been used" (sdk.md §5). That is the SDK's bug, not something the simulator should hide.
 */
import { Client } from '@vippsmobilepay/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookRequest } from '../src/index.ts';
import { DAY, answerViolations, closeRigsAfterAll, credentials, requestViolations, shopUrl, startReceiver, startRig, unique } from './support.ts';
import type { Receiver, Rig } from './support.ts';

closeRigsAfterAll();

const TEST_ENVIRONMENT = 'https://apitest.vipps.no';

let rig: Rig;
let receiver: Receiver;
const original = globalThis.fetch;

function toSimulator(simulatorUrl: string): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== TEST_ENVIRONMENT) return original(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return original(new URL(`${url.pathname}${url.search}`, simulatorUrl), { method: request.method, headers: request.headers, body, signal: request.signal, redirect: 'manual' });
  };
}

beforeAll(async () => {
  rig = await startRig();
  receiver = await startReceiver();
  globalThis.fetch = toSimulator(rig.url);
});
afterAll(async () => {
  globalThis.fetch = original;
  await receiver.close();
});

function sdk() {
  return Client({
    merchantSerialNumber: '123456',
    subscriptionKey: credentials.subscriptionKey,
    useTestMode: true,
    systemName: 'minside',
    systemVersion: '1.0.0',
  });
}

async function token(client: ReturnType<typeof sdk>): Promise<string> {
  const answer = await client.auth.getToken(credentials.clientId, credentials.clientSecret);
  if (!answer.ok) throw new Error(`no token: ${JSON.stringify(answer.error)}`);
  return answer.data.access_token;
}

/** The SDK answers `{ ok, data }` or `{ ok: false, error }`; a test wants the data or the reason. */
function data<T>(answer: { ok: true; data: T } | { ok: false; error: unknown }): T {
  if (!answer.ok) throw new Error(`SDK call failed: ${answer.error instanceof Error ? answer.error.message : JSON.stringify(answer.error)}`);
  return answer.data;
}

describe('@vippsmobilepay/sdk against the simulator', () => {
  it('token, ePayment create / info / history / capture / refund, and cancel of a second payment', async () => {
    const client = sdk();
    const accessToken = await token(client);
    expect(accessToken.split('.')).toHaveLength(3);

    const reference = unique('sdk');
    const created = data(
      await client.payment.create(accessToken, {
        amount: { currency: 'NOK', value: 39_900 },
        paymentMethod: { type: 'WALLET' },
        reference,
        returnUrl: shopUrl,
        userFlow: 'WEB_REDIRECT',
        paymentDescription: 'Digitalt abonnement',
      }),
    );
    expect(created).toEqual({ reference, redirectUrl: `${rig.url}/simulator/landing?reference=${reference}` });

    data(await client.payment.forceApprove(accessToken, reference, { customer: { phoneNumber: '4791234567' } }));
    expect(data(await client.payment.info(accessToken, reference))).toMatchObject({ state: 'AUTHORIZED', aggregate: { authorizedAmount: { value: 39_900 } } });

    const captured = data(await client.payment.capture(accessToken, reference, { modificationAmount: { currency: 'NOK', value: 39_900 } }));
    expect(captured.aggregate.capturedAmount.value).toBe(39_900);
    const refunded = data(await client.payment.refund(accessToken, reference, { modificationAmount: { currency: 'NOK', value: 9_900 } }));
    expect(refunded.aggregate.refundedAmount.value).toBe(9_900);
    const history = data(await client.payment.history(accessToken, reference));
    expect(history.map((event) => event.name)).toEqual(['CREATED', 'AUTHORIZED', 'CAPTURED', 'REFUNDED']);

    const second = unique('sdk');
    data(await client.payment.create(accessToken, { amount: { currency: 'NOK', value: 10_000 }, paymentMethod: { type: 'WALLET' }, reference: second, returnUrl: shopUrl, userFlow: 'WEB_REDIRECT' }));
    rig.sim.approve(second);
    const cancelled = data(await client.payment.cancel(accessToken, second));
    expect(cancelled).toMatchObject({ state: 'AUTHORIZED', aggregate: { cancelledAmount: { value: 10_000 }, capturedAmount: { value: 0 } } });

    // A refusal comes back as the SDK's `{ ok: false, error: <problem> }`: nothing is left to capture.
    const refused = await client.payment.capture(accessToken, second, { modificationAmount: { currency: 'NOK', value: 100 } });
    expect(refused).toMatchObject({ ok: false, error: { status: 400, title: 'Capture amount too high' } });
  });

  it('webhook register / list / delete, and the callbacks verify', async () => {
    const client = sdk();
    const accessToken = await token(client);
    const registered = data(await client.webhook.register(accessToken, { url: `${receiver.url}/sdk-hook`, events: ['epayments.payment.created.v1'] }));
    expect(data(await client.webhook.list(accessToken)).webhooks).toContainEqual({ id: registered.id, url: `${receiver.url}/sdk-hook`, events: ['epayments.payment.created.v1'] });

    const reference = unique('sdk');
    data(await client.payment.create(accessToken, { amount: { currency: 'NOK', value: 10_000 }, paymentMethod: { type: 'WALLET' }, reference, returnUrl: shopUrl, userFlow: 'WEB_REDIRECT' }));
    await rig.sim.flushWebhooks();
    const callback = receiver.received.find((item) => item.body['reference'] === reference);
    expect(callback?.body['name']).toBe('CREATED');
    expect(
      verifyWebhookRequest({ secret: registered.secret, method: 'POST', pathAndQuery: callback?.path ?? '', headers: callback?.headers ?? {}, body: callback?.raw ?? '', now: rig.clock }),
    ).toEqual({ ok: true });

    data(await client.webhook.delete(accessToken, registered.id));
    expect(data(await client.webhook.list(accessToken)).webhooks.map((hook) => hook.id)).not.toContain(registered.id);
  });

  it('Recurring: draft agreement → force accept → ACTIVE → charge → CHARGED', async () => {
    const client = sdk();
    const accessToken = await token(client);
    const drafted = data(
      await client.recurring.agreement.create(accessToken, {
        pricing: { type: 'LEGACY', amount: 29_900, currency: 'NOK' },
        interval: { unit: 'MONTH', count: 1 },
        merchantRedirectUrl: shopUrl,
        merchantAgreementUrl: 'https://minside.example/abonnement',
        phoneNumber: '4791234567',
        productName: 'Adresseavisen Digital',
      }),
    );
    expect(drafted.vippsConfirmationUrl).toBe(`${rig.url}/simulator/landing?agreementId=${drafted.agreementId}`);
    data(await client.recurring.agreement.forceAccept(accessToken, drafted.agreementId, { phoneNumber: '4791234567' }));
    expect(data(await client.recurring.agreement.info(accessToken, drafted.agreementId)).status).toBe('ACTIVE');

    const due = new Date(rig.clock().getTime() + DAY).toISOString().slice(0, 10);
    const { chargeId } = data(await client.recurring.charge.create(accessToken, drafted.agreementId, { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'Mars', due, retryDays: 3 }));
    expect(chargeId).toMatch(/^chr-/);
    rig.clock.advance(DAY);
    await rig.sim.processCharges();
    // A day later the one-hour token has expired, and the SDK keeps no tokens: it is refused…
    expect(await client.recurring.charge.info(accessToken, drafted.agreementId, chargeId ?? '')).toMatchObject({ ok: false, error: { status: 401 } });
    // …until the caller fetches a new one.
    const renewed = await token(client);
    expect(data(await client.recurring.charge.info(renewed, drafted.agreementId, chargeId ?? ''))).toMatchObject({ status: 'CHARGED', amount: 29_900 });
    expect(data(await client.recurring.charge.list(renewed, drafted.agreementId))).toHaveLength(1);
    expect(data(await client.recurring.agreement.list(renewed)).map((agreement) => agreement.id)).toContain(drafted.agreementId);

    data(await client.recurring.agreement.update(renewed, drafted.agreementId, { status: 'STOPPED' }));
    expect(data(await client.recurring.agreement.info(renewed, drafted.agreementId)).status).toBe('STOPPED');
  });

  it('sent only requests the contract allows, all to the simulator, and got only answers it allows', () => {
    const fromSdk = rig.sim.requests.filter((request) => request.headers['user-agent']?.startsWith('Vipps/Deno-SDK/'));
    expect(fromSdk.length).toBe(rig.sim.requests.length);
    expect(requestViolations(fromSdk)).toEqual([]);
    expect(answerViolations(fromSdk)).toEqual([]);
  });
});
