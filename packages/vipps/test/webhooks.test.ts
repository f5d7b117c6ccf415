import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EpaymentWebhookEvent, RecurringAgreementWebhookEvent, RecurringChargeWebhookEvent, VippsApiError, verifyWebhookRequest } from '../src/index.ts';
import type { CreatePaymentRequest, VippsClient } from '../src/index.ts';
import { DAY, closeRigsAfterAll, startReceiver, startRig, unique } from './support.ts';
import type { Receiver, Rig } from './support.ts';

closeRigsAfterAll();

let rig: Rig;
let client: VippsClient;
let receiver: Receiver;
let secret: string;
let hookId: string;

const EPAYMENT_EVENTS = ['epayments.payment.created.v1', 'epayments.payment.authorized.v1', 'epayments.payment.captured.v1', 'epayments.payment.aborted.v1'];
const RECURRING_EVENTS = ['recurring.agreement-activated.v1', 'recurring.agreement-stopped.v1', 'recurring.charge-captured.v1', 'recurring.charge-failed.v1'];

beforeAll(async () => {
  rig = await startRig();
  client = rig.client();
  receiver = await startReceiver();
  const registered = await client.webhooks.register({ url: `${receiver.url}/vipps/webhook?kilde=test`, events: [...EPAYMENT_EVENTS, ...RECURRING_EVENTS] });
  secret = registered.secret;
  hookId = registered.id;
});
afterAll(() => receiver.close());
afterEach(() => {
  Object.assign(rig.sim.faults.webhooks, { duplicate: false, reorder: false, drop: false });
  receiver.answer(200);
});

function payment(): CreatePaymentRequest {
  return {
    amount: { currency: 'NOK', value: 19_900 },
    paymentMethod: { type: 'WALLET' },
    reference: unique('hook'),
    returnUrl: 'https://minside.example/betaling/ferdig',
    userFlow: 'WEB_REDIRECT',
    paymentDescription: 'Helgeabonnement',
  };
}

/** What arrived for one payment, in arrival order, each checked as a receiver would. */
function arrivedFor(reference: string) {
  return receiver.received
    .filter((hook) => hook.body['reference'] === reference)
    .map((hook) => ({
      name: hook.body['name'],
      verification: verifyWebhookRequest({ secret, method: 'POST', pathAndQuery: hook.path, headers: hook.headers, body: hook.raw, now: rig.clock }),
    }));
}

describe('Webhooks API', () => {
  it('registers, lists and deletes; the list shows the registration', async () => {
    const list = await client.webhooks.list();
    expect(list.webhooks).toContainEqual({ id: hookId, url: `${receiver.url}/vipps/webhook?kilde=test`, events: [...EPAYMENT_EVENTS, ...RECURRING_EVENTS] });
    const extra = await client.webhooks.register({ url: `${receiver.url}/annen`, events: ['epayments.payment.refunded.v1'] });
    await client.webhooks.delete(extra.id);
    expect((await client.webhooks.list()).webhooks.map((hook) => hook.id)).not.toContain(extra.id);
    await expect(client.webhooks.delete(extra.id)).rejects.toMatchObject({ status: 404 });
    // Another merchant sees none of them.
    expect((await client.webhooks.list({ msn: '654321' })).webhooks).toEqual([]);
  });

  it('refuses what the docs refuse, naming the field', async () => {
    const error = await client.webhooks.register({ url: 'http://minside.example/hook', events: ['epayments.payment.created.v1'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VippsApiError);
    expect(error).toMatchObject({ status: 400, problem: { extraDetails: [{ name: 'url', reason: expect.stringContaining('https://') }], instance: '/v1/webhooks' } });
    await expect(client.webhooks.register({ url: `${receiver.url}/x`, events: ['epayments.payment.invented.v1'] })).rejects.toMatchObject({ problem: { extraDetails: [{ name: 'events[0]' }] } });
    await expect(client.webhooks.register({ url: `${receiver.url}/x`, events: ['epayments.payment.created.v1'], extra: true } as never)).rejects.toThrow(/body: Unrecognized key/);
  });
});

describe('delivery', () => {
  it('sends each state change, signed with the registration secret, in order', async () => {
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    rig.sim.approve(request.reference);
    await client.epayment.capture(request.reference, { currency: 'NOK', value: 19_900 }, { idempotencyKey: unique('key') });
    await rig.sim.flushWebhooks();
    expect(arrivedFor(request.reference)).toEqual([
      { name: 'CREATED', verification: { ok: true } },
      { name: 'AUTHORIZED', verification: { ok: true } },
      { name: 'CAPTURED', verification: { ok: true } },
    ]);
    const hook = receiver.received.find((item) => item.body['reference'] === request.reference && item.body['name'] === 'CAPTURED');
    expect(hook?.path).toBe('/vipps/webhook?kilde=test');
    expect(hook?.headers['content-type']).toBe('application/json');
    expect(EpaymentWebhookEvent.parse(hook?.body)).toMatchObject({ msn: '123456', reference: request.reference, amount: { currency: 'NOK', value: 19_900 }, success: true });
    // Events it was not registered for (refunded) are not sent.
    await client.epayment.refund(request.reference, { currency: 'NOK', value: 100 }, { idempotencyKey: unique('key') });
    await rig.sim.flushWebhooks();
    expect(arrivedFor(request.reference)).toHaveLength(3);
  });

  it('a stale or tampered callback is refused by the receiver', async () => {
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    await rig.sim.flushWebhooks();
    const hook = receiver.received.find((item) => item.body['reference'] === request.reference);
    if (hook === undefined) throw new Error('no callback');
    const later = new Date(rig.clock().getTime() + 10 * 60_000);
    expect(verifyWebhookRequest({ secret, method: 'POST', pathAndQuery: hook.path, headers: hook.headers, body: hook.raw, now: later })).toEqual({ ok: false, reason: 'STALE' });
    expect(verifyWebhookRequest({ secret, method: 'POST', pathAndQuery: hook.path, headers: hook.headers, body: hook.raw.replace('19900', '1'), now: rig.clock })).toEqual({
      ok: false,
      reason: 'BAD_CONTENT_HASH',
    });
  });

  it('duplicate: every callback twice', async () => {
    rig.sim.faults.webhooks.duplicate = true;
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    rig.sim.approve(request.reference);
    await rig.sim.flushWebhooks();
    expect(arrivedFor(request.reference).map((hook) => hook.name)).toEqual(['CREATED', 'CREATED', 'AUTHORIZED', 'AUTHORIZED']);
    expect(arrivedFor(request.reference).every((hook) => hook.verification.ok)).toBe(true);
  });

  it('reorder: held until flushed, then newest first', async () => {
    rig.sim.faults.webhooks.reorder = true;
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    rig.sim.approve(request.reference);
    await client.epayment.capture(request.reference, { currency: 'NOK', value: 100 }, { idempotencyKey: unique('key') });
    expect(arrivedFor(request.reference)).toEqual([]);
    await rig.sim.flushWebhooks();
    expect(arrivedFor(request.reference).map((hook) => hook.name)).toEqual(['CAPTURED', 'AUTHORIZED', 'CREATED']);
  });

  it('drop: never sent, and recorded as dropped', async () => {
    rig.sim.faults.webhooks.drop = true;
    const request = payment();
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    rig.sim.reject(request.reference);
    await rig.sim.flushWebhooks();
    expect(arrivedFor(request.reference)).toEqual([]);
    const dropped = rig.sim.webhookDeliveries.filter((delivery) => (delivery.body as { reference?: string }).reference === request.reference);
    expect(dropped.map((delivery) => [delivery.eventType, delivery.outcome])).toEqual([
      ['epayments.payment.created.v1', 'dropped'],
      ['epayments.payment.aborted.v1', 'dropped'],
    ]);
  });

  it('retries a callback the receiver refuses, and holds back the later ones until it gets through', async () => {
    const request = payment();
    receiver.answer((nth) => (nth <= 2 ? 500 : 200));
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    rig.sim.approve(request.reference);
    await rig.sim.flushWebhooks();
    const names = receiver.received.filter((hook) => hook.body['reference'] === request.reference).map((hook) => hook.body['name']);
    expect(names).toEqual(['CREATED', 'CREATED', 'CREATED', 'AUTHORIZED']);
    const deliveries = rig.sim.webhookDeliveries.filter((delivery) => (delivery.body as { reference?: string }).reference === request.reference);
    expect(deliveries.map((delivery) => delivery.outcome)).toEqual(['delivered', 'delivered']);
  });

  it('gives up after the last retry and records the failure', async () => {
    const request = payment();
    receiver.answer(503);
    await client.epayment.create(request, { idempotencyKey: unique('key') });
    await rig.sim.flushWebhooks();
    const delivery = rig.sim.webhookDeliveries.find((item) => (item.body as { reference?: string }).reference === request.reference);
    expect(delivery).toMatchObject({ outcome: 'failed', attempts: 3, lastStatus: 503 });
  });

  it('recurring events carry the inferred payload and are signed the same way', async () => {
    const { agreementId } = await client.recurring.createAgreement(
      {
        pricing: { amount: 9_900, currency: 'NOK' },
        interval: { unit: 'WEEK', count: 2 },
        merchantRedirectUrl: 'https://minside.example/ferdig',
        merchantAgreementUrl: 'https://minside.example/abonnement',
        productName: 'Papiravis lørdag',
      },
      { idempotencyKey: unique('k') },
    );
    // A receiver checks each callback when it arrives, by its own clock (here the same one).
    const verdicts: unknown[] = [];
    const receiveAll = async () => {
      await rig.sim.flushWebhooks();
      for (const hook of receiver.received.filter((item) => item.body['agreementId'] === agreementId).slice(verdicts.length)) {
        verdicts.push(verifyWebhookRequest({ secret, method: 'POST', pathAndQuery: hook.path, headers: hook.headers, body: hook.raw, now: rig.clock }));
      }
    };
    rig.sim.approveAgreement(agreementId);
    await receiveAll();
    const due = new Date(rig.clock().getTime() + DAY).toISOString().slice(0, 10);
    const { chargeId } = await client.recurring.createCharge(
      agreementId,
      { amount: 9_900, transactionType: 'DIRECT_CAPTURE', description: 'Uke 10 og 11', due, retryDays: 0 },
      { idempotencyKey: unique('k') },
    );
    rig.clock.advance(DAY);
    await rig.sim.processCharges();
    await receiveAll();
    rig.sim.stopAgreement(agreementId);
    await receiveAll();
    const hooks = receiver.received.filter((hook) => hook.body['agreementId'] === agreementId);
    expect(hooks.map((hook) => hook.body['eventType'])).toEqual(['recurring.agreement-activated.v1', 'recurring.charge-captured.v1', 'recurring.agreement-stopped.v1']);
    expect(verdicts).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(RecurringAgreementWebhookEvent.parse(hooks[0]?.body)).toMatchObject({ agreementId, msn: '123456' });
    expect(RecurringChargeWebhookEvent.parse(hooks[1]?.body)).toMatchObject({ agreementId, chargeId, amount: 9_900, chargeType: 'RECURRING' });
  });
});
