import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VippsClient } from '../src/index.ts';
import type { RestoredAgreement } from '../src/simulator/index.ts';
import { DAY, closeRigsAfterAll, startReceiver, startRig, unique } from './support.ts';
import type { Receiver, Rig } from './support.ts';

// The simulator keeps its state in memory: a merchant that runs it across restarts (the portal's
// `npm start`) seeds the agreements its payers approved before, so they can still be charged.

closeRigsAfterAll();

let rig: Rig;
let client: VippsClient;
let receiver: Receiver;

beforeAll(async () => {
  rig = await startRig();
  client = rig.client();
  receiver = await startReceiver();
  await client.webhooks.register({ url: `${receiver.url}/vipps`, events: ['recurring.agreement-activated.v1', 'recurring.charge-captured.v1', 'recurring.agreement-stopped.v1'] });
});
afterAll(() => receiver.close());

function restored(overrides: Partial<RestoredAgreement> = {}): RestoredAgreement {
  return {
    agreementId: unique('agr_restored').replace(/[^A-Za-z0-9_]/g, ''),
    pricing: { type: 'VARIABLE', suggestedMaxAmount: 59_800, currency: 'NOK' },
    interval: { unit: 'MONTH', count: 1 },
    productName: 'Adresseavisen Digital',
    merchantRedirectUrl: 'https://minside.example/endre-betalingsmetode',
    merchantAgreementUrl: 'https://minside.example/endre-betalingsmetode',
    externalId: 'pay-1',
    ...overrides,
  };
}

describe('restoreAgreement', () => {
  it('seeds an ACTIVE agreement with its id and terms, announcing nothing', async () => {
    const agreement = restored();
    const start = new Date(rig.clock().getTime() - 30 * DAY);
    rig.sim.restoreAgreement({ ...agreement, start });
    expect(await client.recurring.getAgreement(agreement.agreementId)).toMatchObject({
      id: agreement.agreementId,
      status: 'ACTIVE',
      pricing: { type: 'VARIABLE', suggestedMaxAmount: 59_800, maxAmount: 59_800, currency: 'NOK' },
      interval: { unit: 'MONTH', count: 1 },
      productName: 'Adresseavisen Digital',
      externalId: 'pay-1',
      start: start.toISOString(),
      stop: null,
    });
    await rig.sim.flushWebhooks();
    expect(rig.sim.webhookDeliveries.filter((delivery) => (delivery.body as { agreementId?: string }).agreementId === agreement.agreementId)).toEqual([]);
    // Still ACTIVE however long nobody asks: only a PENDING agreement expires.
    rig.clock.advance(DAY);
    expect((await client.recurring.getAgreement(agreement.agreementId)).status).toBe('ACTIVE');
    const html = await (await fetch(`${rig.url}/simulator/landing?agreementId=${agreement.agreementId}`)).text();
    expect(html).toContain('Aktiv');
  });

  it('is charged and stopped like any approved agreement', async () => {
    const agreement = restored();
    rig.sim.restoreAgreement(agreement);
    const due = new Date(rig.clock().getTime() + 2 * DAY).toISOString().slice(0, 10);
    const { chargeId } = await client.recurring.createCharge(
      agreement.agreementId,
      { amount: 29_900, transactionType: 'DIRECT_CAPTURE', description: 'Fornyelse', due, retryDays: 5, orderId: unique('order') },
      { idempotencyKey: unique('k') },
    );
    rig.clock.advance(2 * DAY);
    await rig.sim.processCharges();
    expect(await client.recurring.getCharge(agreement.agreementId, chargeId)).toMatchObject({ status: 'CHARGED', summary: { captured: 29_900 } });
    // Above the maximum the payer accepted: refused as for a drafted agreement.
    const tooMuch = await client.recurring.createCharge(
      agreement.agreementId,
      {
        amount: 60_000,
        transactionType: 'DIRECT_CAPTURE',
        description: 'Fornyelse',
        due: new Date(rig.clock().getTime() + 2 * DAY).toISOString().slice(0, 10),
        retryDays: 0,
        orderId: unique('order'),
      },
      { idempotencyKey: unique('k') },
    );
    rig.clock.advance(2 * DAY);
    await rig.sim.processCharges();
    expect((await client.recurring.getCharge(agreement.agreementId, tooMuch.chargeId)).status).toBe('FAILED');

    rig.sim.stopAgreement(agreement.agreementId);
    await rig.sim.flushWebhooks();
    expect((await client.recurring.getAgreement(agreement.agreementId)).status).toBe('STOPPED');
    expect(receiver.received.map((webhook) => webhook.body)).toContainEqual(expect.objectContaining({ agreementId: agreement.agreementId, eventType: 'recurring.agreement-stopped.v1' }));
  });

  it('takes another of its merchants when named, and only its own', async () => {
    const agreement = restored();
    rig.sim.restoreAgreement({ ...agreement, merchantSerialNumber: '654321' });
    await expect(client.recurring.getAgreement(agreement.agreementId)).rejects.toMatchObject({ status: 404 });
    expect((await rig.client({ merchantSerialNumber: '654321' }).recurring.getAgreement(agreement.agreementId)).status).toBe('ACTIVE');
    expect(() => rig.sim.restoreAgreement({ ...restored(), merchantSerialNumber: '999999' })).toThrow(/merchant 999999 is not one of the simulator's/);
  });

  it('refuses what a draft would refuse, an id not of its form, and an id it already has', () => {
    const agreement = restored();
    rig.sim.restoreAgreement(agreement);
    expect(() => rig.sim.restoreAgreement(agreement)).toThrow(/already exists/);
    expect(() => rig.sim.restoreAgreement(restored({ agreementId: 'tp_demo_ung' }))).toThrow(/agreementId must be an agr_… id/);
    expect(() => rig.sim.restoreAgreement(restored({ productName: '' }))).toThrow(/productName/);
    expect(() => rig.sim.restoreAgreement(restored({ pricing: { type: 'VARIABLE', currency: 'NOK' } }))).toThrow(/pricing\.suggestedMaxAmount: required if type is VARIABLE/);
    expect(() => rig.sim.restoreAgreement(restored({ merchantAgreementUrl: 'http://minside.example/avtale' }))).toThrow(/merchantAgreementUrl: must use the https:\/\/ scheme/);
  });
});
