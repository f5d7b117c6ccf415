import { beforeAll, describe, expect, it } from 'vitest';
import { VippsApiError } from '../src/index.ts';
import type { DraftAgreementRequest, VippsClient } from '../src/index.ts';
import { DAY, closeRigsAfterAll, startRig, unique } from './support.ts';
import type { Rig } from './support.ts';

closeRigsAfterAll();

let rig: Rig;
let client: VippsClient;

beforeAll(async () => {
  rig = await startRig();
  client = rig.client();
});

// The spec's "Minimal" example, pointed at a loopback shop.
function draft(overrides: Partial<DraftAgreementRequest> = {}): DraftAgreementRequest {
  return {
    pricing: { type: 'LEGACY', amount: 29_900, currency: 'NOK' },
    interval: { unit: 'MONTH', count: 1 },
    merchantRedirectUrl: 'https://minside.example/vipps/avtale-ferdig',
    merchantAgreementUrl: 'https://minside.example/abonnement',
    phoneNumber: '4791234567',
    productName: 'Adresseavisen Digital',
    ...overrides,
  };
}

/** YYYY-MM-DD of the simulated clock plus some days (the clock is 09:00 UTC, the same day in Oslo). */
function day(offset: number): string {
  return new Date(rig.clock().getTime() + offset * DAY).toISOString().slice(0, 10);
}

async function activeAgreement(overrides: Partial<DraftAgreementRequest> = {}): Promise<string> {
  const { agreementId } = await client.recurring.createAgreement(draft(overrides), { idempotencyKey: unique('k') });
  rig.sim.approveAgreement(agreementId);
  return agreementId;
}

describe('agreements', () => {
  it('draft → PENDING with a confirmation URL on the landing page → approve there → ACTIVE', async () => {
    const created = await client.recurring.createAgreement(draft({ productDescription: 'Alt innhold, hver dag' }), { idempotencyKey: unique('k') });
    expect(created.agreementId).toMatch(/^agr_/);
    expect(created.chargeId).toBeNull();
    expect(created.vippsConfirmationUrl).toBe(`${rig.url}/simulator/landing?agreementId=${created.agreementId}`);
    const pending = await client.recurring.getAgreement(created.agreementId);
    expect(pending).toMatchObject({
      status: 'PENDING',
      pricing: { type: 'LEGACY', amount: 29_900, currency: 'NOK' },
      interval: { unit: 'MONTH', count: 1, text: 'every month' },
      start: null,
      countryCode: 'NO',
    });

    const html = await (await fetch(created.vippsConfirmationUrl)).text();
    expect(html).toContain('Adresseavisen Digital');
    expect(html).toMatch(/299,00\skr hver måned/);
    expect(html).toContain('Godkjenn');
    const answer = await fetch(`${rig.url}/simulator/landing`, { method: 'POST', body: new URLSearchParams({ agreementId: created.agreementId, action: 'approve' }), redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('https://minside.example/vipps/avtale-ferdig');

    const active = await client.recurring.getAgreement(created.agreementId);
    expect(active.status).toBe('ACTIVE');
    expect(active.start).toBe(rig.clock().toISOString());
  });

  it('the user declines → STOPPED (the guide: PENDING → STOPPED when the user declines)', async () => {
    const { agreementId, vippsConfirmationUrl } = await client.recurring.createAgreement(draft(), { idempotencyKey: unique('k') });
    const answer = await fetch(new URL('/simulator/landing', vippsConfirmationUrl), { method: 'POST', body: new URLSearchParams({ agreementId, action: 'reject' }), redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect((await client.recurring.getAgreement(agreementId)).status).toBe('STOPPED');
  });

  it('no answer within ten minutes → EXPIRED by the clock', async () => {
    const { agreementId } = await client.recurring.createAgreement(draft(), { idempotencyKey: unique('k') });
    rig.clock.advance(10 * 60_000);
    expect((await client.recurring.getAgreement(agreementId)).status).toBe('EXPIRED');
    expect(() => rig.sim.approveAgreement(agreementId)).toThrow(/EXPIRED/);
  });

  it('the merchant stops it with PATCH status STOPPED; no other change is allowed with it', async () => {
    const agreementId = await activeAgreement();
    await expect(client.recurring.updateAgreement(agreementId, { status: 'STOPPED', productName: 'Nytt navn' }, { idempotencyKey: unique('k') })).rejects.toThrow(/productName: no other changes/);
    await client.recurring.updateAgreement(agreementId, { productName: 'Adresseavisen Digital+' }, { idempotencyKey: unique('k') });
    await client.recurring.updateAgreement(agreementId, { status: 'STOPPED' }, { idempotencyKey: unique('k') });
    const stopped = await client.recurring.getAgreement(agreementId);
    expect(stopped).toMatchObject({ status: 'STOPPED', productName: 'Adresseavisen Digital+', stop: rig.clock().toISOString() });
    await expect(client.recurring.updateAgreement(agreementId, { productName: 'Igjen' }, { idempotencyKey: unique('k') })).rejects.toMatchObject({
      status: 400,
      problem: { type: 'https://developer.vippsmobilepay.com/docs/APIs/recurring-api/recurring-api-problems#illegal-agreement-update' },
    });
  });

  it('the user stops it in the app → STOPPED, and its pending charges are cancelled', async () => {
    const agreementId = await activeAgreement();
    const { chargeId } = await client.recurring.createCharge(
      agreementId,
      { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'April', due: day(5), retryDays: 2 },
      { idempotencyKey: unique('k') },
    );
    rig.sim.stopAgreement(agreementId);
    expect((await client.recurring.getAgreement(agreementId)).status).toBe('STOPPED');
    expect((await client.recurring.getCharge(agreementId, chargeId)).status).toBe('CANCELLED');
    await expect(
      client.recurring.createCharge(agreementId, { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'Mai', due: day(5), retryDays: 2 }, { idempotencyKey: unique('k') }),
    ).rejects.toMatchObject({ status: 400, problem: { type: expect.stringMatching(/#charge-creation-failed$/) } });
  });

  it('an initial charge is taken when the user approves, and its id is given at once', async () => {
    const { agreementId, chargeId } = await client.recurring.createAgreement(draft({ initialCharge: { amount: 100, description: 'Første måned', transactionType: 'DIRECT_CAPTURE' } }), {
      idempotencyKey: unique('k'),
    });
    expect(chargeId).toMatch(/^chr-/);
    rig.sim.approveAgreement(agreementId);
    expect(await client.recurring.getCharge(agreementId, chargeId ?? '')).toMatchObject({
      type: 'INITIAL',
      status: 'CHARGED',
      amount: 100,
      summary: { captured: 100 },
      transactionId: expect.stringMatching(/^\d{10}$/),
    });
  });
});

describe('charges', () => {
  it('due tomorrow → processCharges with the clock moved → CHARGED', async () => {
    const agreementId = await activeAgreement();
    const key = unique('k');
    const { chargeId } = await client.recurring.createCharge(
      agreementId,
      { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'Mars', due: day(1), retryDays: 5, externalId: 'faktura-1001' },
      { idempotencyKey: key },
    );
    const pending = await client.recurring.getCharge(agreementId, chargeId);
    expect(pending).toMatchObject({ status: 'PENDING', due: `${day(1)}T00:00:00Z`, transactionId: null, externalId: 'faktura-1001', type: 'RECURRING', currency: 'NOK' });
    expect(pending.history).toEqual([{ occurred: rig.clock().toISOString(), event: 'CREATE', amount: 29_900, idempotencyKey: key, success: true }]);

    await rig.sim.processCharges(); // not due yet
    expect((await client.recurring.getCharge(agreementId, chargeId)).status).toBe('PENDING');

    rig.clock.advance(DAY);
    await rig.sim.processCharges();
    const charged = await client.recurring.getCharge(agreementId, chargeId);
    expect(charged).toMatchObject({ status: 'CHARGED', summary: { captured: 29_900, refunded: 0, cancelled: 0 }, transactionId: expect.stringMatching(/^\d{10}$/) });
    expect(charged.history.map((event) => event.event)).toEqual(['CREATE', 'CAPTURE']);

    await client.recurring.refundCharge(agreementId, chargeId, { amount: 10_000, description: 'Kompensasjon' }, { idempotencyKey: unique('k') });
    expect((await client.recurring.getCharge(agreementId, chargeId)).status).toBe('PARTIALLY_REFUNDED');
    await client.recurring.refundCharge(agreementId, chargeId, { amount: 19_900, description: 'Resten' }, { idempotencyKey: unique('k') });
    expect((await client.recurring.getCharge(agreementId, chargeId)).summary).toEqual({ captured: 29_900, refunded: 29_900, cancelled: 0 });
    expect((await client.recurring.getCharge(agreementId, chargeId)).status).toBe('REFUNDED');
  });

  it('failCharges → DUE while retry days last, then FAILED', async () => {
    const agreementId = await activeAgreement();
    const { chargeId } = await client.recurring.createCharge(
      agreementId,
      { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'Mars', due: day(1), retryDays: 2 },
      { idempotencyKey: unique('k') },
    );
    rig.sim.faults.failCharges = true;
    try {
      rig.clock.advance(DAY);
      await rig.sim.processCharges();
      expect((await client.recurring.getCharge(agreementId, chargeId)).status).toBe('DUE');
      rig.clock.advance(2 * DAY);
      await rig.sim.processCharges();
      expect(await client.recurring.getCharge(agreementId, chargeId)).toMatchObject({ status: 'FAILED', failureReason: 'user_action_required', transactionId: null });
    } finally {
      rig.sim.faults.failCharges = false;
    }
  });

  it('refuses a due date closer than the lead time (400 charge-due-too-soon)', async () => {
    const agreementId = await activeAgreement();
    const error = await client.recurring
      .createCharge(agreementId, { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'I dag', due: day(0), retryDays: 0 }, { idempotencyKey: unique('k') })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VippsApiError);
    expect(error).toMatchObject({
      status: 400,
      operation: 'CreateChargeV3',
      problem: { type: 'https://developer.vippsmobilepay.com/docs/APIs/recurring-api/recurring-api-problems#charge-due-too-soon', extraDetails: [{ field: 'due' }] },
    });
    await expect(
      client.recurring.createCharge(agreementId, { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'Langt fram', due: day(800), retryDays: 0 }, { idempotencyKey: unique('k') }),
    ).rejects.toMatchObject({ problem: { type: expect.stringMatching(/#charge-due-in-too-long$/) } });
  });

  it('honours the production lead time of two days when told', async () => {
    const production = await startRig({ chargeLeadDays: 2 });
    const prodClient = production.client();
    const { agreementId } = await prodClient.recurring.createAgreement(draft(), { idempotencyKey: unique('k') });
    production.sim.approveAgreement(agreementId);
    const tomorrow = new Date(production.clock().getTime() + DAY).toISOString().slice(0, 10);
    await expect(
      prodClient.recurring.createCharge(agreementId, { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'Mars', due: tomorrow, retryDays: 0 }, { idempotencyKey: unique('k') }),
    ).rejects.toMatchObject({ status: 400, problem: { detail: expect.stringContaining('minimum of 2 days') } });
  });

  it('refuses more than five times the price of a LEGACY agreement', async () => {
    const agreementId = await activeAgreement();
    await expect(
      client.recurring.createCharge(agreementId, { amount: 29_900 * 5 + 1, transactionType: 'DIRECT_CAPTURE', description: 'For mye', due: day(2), retryDays: 0 }, { idempotencyKey: unique('k') }),
    ).rejects.toMatchObject({ status: 400, problem: { type: expect.stringMatching(/#charge-amount-too-high$/) } });
  });

  it('orderId becomes the chargeId; cancel → CANCELLED', async () => {
    const agreementId = await activeAgreement();
    const orderId = unique('ordre');
    const { chargeId } = await client.recurring.createCharge(
      agreementId,
      { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'April', due: day(3), retryDays: 0, orderId },
      { idempotencyKey: unique('k') },
    );
    expect(chargeId).toBe(orderId);
    await client.recurring.cancelCharge(agreementId, chargeId, { idempotencyKey: unique('k') });
    expect(await client.recurring.getCharge(agreementId, chargeId)).toMatchObject({ status: 'CANCELLED', summary: { cancelled: 29_900 } });
    await expect(client.recurring.cancelCharge(agreementId, chargeId, { idempotencyKey: unique('k') })).rejects.toMatchObject({
      status: 400,
      problem: { type: expect.stringMatching(/#cancel-charge-failed$/) },
    });
  });

  it('same Idempotency-Key: the first answer again (one charge); with another body 409', async () => {
    const agreementId = await activeAgreement();
    const key = unique('k');
    const body = { amount: 29_900, transactionType: 'DIRECT_CAPTURE' as const, description: 'April', due: day(3), retryDays: 0 };
    const first = await client.recurring.createCharge(agreementId, body, { idempotencyKey: key });
    expect(await client.recurring.createCharge(agreementId, { ...body }, { idempotencyKey: key })).toEqual(first);
    await expect(client.recurring.createCharge(agreementId, { ...body, amount: 100 }, { idempotencyKey: key })).rejects.toMatchObject({
      status: 409,
      problem: { type: expect.stringMatching(/#idempotency-conflict$/) },
    });
    await expect(client.recurring.createCharge(agreementId, body, { idempotencyKey: 'has/slash' })).rejects.toThrow(/must not contain "\/"/);
  });
});
