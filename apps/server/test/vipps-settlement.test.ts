import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, systemClock } from '@minside/domain';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { signIn, vippsOf } from './support.ts';

// Issue 22, found in review: a subscription bought with Vipps is settled by whichever comes first —
// the webhook, the return page, reconciliation — and only that one decides; an error that says
// nothing about the payment never fails one the provider has charged.

const PORTAL = 'http://adresseavisen.localhost:3000';

describe.each(testDatabases)('settling a Vipps order ($name)', ({ name }) => {
  let test: TestApp;
  const clock = manualClock(systemClock());

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now: clock, config: { publicUrl: PORTAL } });
  });
  afterAll(async () => {
    await test?.close();
  });

  const simulator = () => vippsOf(test);
  /** An order for Digital paid with Vipps, approved in the app with every webhook lost. */
  const approvedOrder = async (email: string) => {
    const buyer = await signIn(test, PORTAL, email);
    const created = await buyer.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-DIGITAL-M' } });
    expect(created.status, created.body).toBe(201);
    const { orderId } = created.json<{ orderId: string }>();
    const started = await buyer.request('POST', `${PORTAL}/api/order/${orderId}/payment`, { json: { method: 'VIPPS' } });
    expect(started.status, started.body).toBe(200);
    const { paymentId } = started.json<{ paymentId: string }>();
    const [flow] = await test.database.rows<{ provider_reference: string }>(sql`select provider_reference from payment where id = ${paymentId}`);
    const reference = flow?.provider_reference ?? '';
    const agreementId = /^charge:(agr_[^:]+):/.exec(reference)?.[1] ?? '';
    await simulator().flushWebhooks();
    simulator().faults.webhooks.drop = true;
    simulator().approveAgreement(agreementId);
    await simulator().flushWebhooks();
    simulator().faults.webhooks.drop = false;
    return { orderId, paymentId, reference, agreementId };
  };

  it('two settlers at once (the webhook and the return page): one decides, and the agreement it stored stays active at Vipps', async () => {
    const { paymentId, reference, agreementId } = await approvedOrder('ny@minside.test');
    const observed = await test.app.paymentProvider.lookup(reference);
    expect(observed.status).toBe('CAPTURED');
    await Promise.all([test.app.paymentEngine.apply(paymentId, observed), test.app.paymentEngine.apply(paymentId, observed)]);
    expect(await test.database.rows(sql`select status from payment where id = ${paymentId}`)).toEqual([{ status: 'CAPTURED' }]);
    expect(await test.database.rows(sql`select status from payment_agreement where provider_agreement_id = ${agreementId}`)).toEqual([{ status: 'ACTIVE' }]);
    // The loser must not have stopped it: the renewals are charged on it.
    expect(await test.app.paymentProvider.agreement(agreementId)).toMatchObject({ agreementId, method: 'VIPPS' });
  });

  it('a look-up that errors an hour on does not fail an order the provider has charged: it stays pending, and the next look-up fulfils it', async () => {
    const { orderId, paymentId, agreementId } = await approvedOrder('utlopt@minside.test');
    clock.set(new Date(clock().getTime() + 61 * 60 * 1000));
    simulator().faults.next('server-error', { method: 'GET', pathPrefix: `/recurring/v3/agreements/${agreementId}/charges`, count: 3 });
    await test.app.billingJobs.runReconciliation();
    expect(await test.database.rows(sql`select status from payment where id = ${paymentId}`)).toEqual([{ status: 'PENDING' }]);
    await test.app.billingJobs.runReconciliation();
    expect(await test.database.rows(sql`select status from payment where id = ${paymentId}`)).toEqual([{ status: 'CAPTURED' }]);
    expect(await test.database.rows(sql`select state from subscription_order where id = ${orderId}`)).toEqual([{ state: 'fulfilled' }]);
  });
});
