import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AuthorizationTokenResponse, createVippsClient } from '../src/index.ts';
import { createVippsSimulator } from '../src/simulator/index.ts';
import { closeRigsAfterAll, credentials, expectAnswersKeepContract, manualClock, shopUrl, startRig, unique } from './support.ts';

closeRigsAfterAll();

const payment = (reference: string) => ({
  amount: { currency: 'NOK' as const, value: 10_000 },
  paymentMethod: { type: 'WALLET' as const },
  reference,
  returnUrl: shopUrl,
  userFlow: 'WEB_REDIRECT' as const,
});

describe('the simulator', () => {
  it('mounts in another node:http server; its links then use that server’s host', async () => {
    const clock = manualClock();
    const sim = createVippsSimulator({ now: clock, credentials });
    const host = createServer(sim.handler);
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    try {
      const client = createVippsClient({ baseUrl: base, ...credentials, merchantSerialNumber: '123456', system: { name: 'minside', version: '1' }, now: clock });
      const reference = unique('mounted');
      const created = await client.epayment.create(payment(reference), { idempotencyKey: unique('k') });
      expect(created.redirectUrl).toBe(`${base}/simulator/landing?reference=${reference}`);
      expect(() => sim.url).toThrow(/not listening/);
      expectAnswersKeepContract(sim.requests);
    } finally {
      await sim.close();
      await new Promise<void>((resolve) => {
        host.close(() => resolve());
        host.closeAllConnections();
      });
    }
  });

  it('links to publicUrl when given (where browsers reach it)', async () => {
    const { client } = await startRig({ publicUrl: 'https://vipps.minside.test/' });
    const reference = unique('public');
    const { redirectUrl } = await client().epayment.create(payment(reference), { idempotencyKey: unique('k') });
    expect(redirectUrl).toBe(`https://vipps.minside.test/simulator/landing?reference=${reference}`);
  });

  it('answers the token endpoint whatever the case of its path (the quick-start writes /accessToken/get)', async () => {
    const { url } = await startRig();
    const answer = await fetch(`${url}/accessToken/get`, {
      method: 'POST',
      headers: { client_id: credentials.clientId, client_secret: credentials.clientSecret, 'Ocp-Apim-Subscription-Key': credentials.subscriptionKey },
    });
    expect(answer.status).toBe(200);
    const token = AuthorizationTokenResponse.parse(await answer.json());
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: '3600', ext_expires_in: '0', not_before: String(Date.parse('2026-03-02T09:00:00Z') / 1000) });
  });

  it('refuses options that cannot work, naming them', () => {
    const now = manualClock();
    expect(() => createVippsSimulator({ now, credentials: { ...credentials, merchantSerialNumbers: [] } })).toThrow(/merchantSerialNumbers/);
    expect(() => createVippsSimulator({ now, credentials: { ...credentials, merchantSerialNumbers: ['12'] } })).toThrow(/merchantSerialNumbers\[0\]/);
    expect(() => createVippsSimulator({ now, credentials: { ...credentials, clientSecret: '' } })).toThrow(/clientSecret/);
    expect(() => createVippsClient({ baseUrl: 'not a url', ...credentials, merchantSerialNumber: '123456', system: { name: 'minside', version: '1' }, now })).toThrow(/baseUrl/);
    expect(() => createVippsClient({ baseUrl: 'https://apitest.vipps.no', ...credentials, merchantSerialNumber: '123456', system: { name: 'x'.repeat(31), version: '1' }, now })).toThrow(
      /system\.name/,
    );
  });

  it('says so in Norwegian when a landing page link is wrong or the payment is already decided', async () => {
    const { url, client, sim } = await startRig();
    expect((await fetch(`${url}/simulator/landing?reference=finnes-ikke-123`)).status).toBe(404);
    const reference = unique('decided');
    await client().epayment.create(payment(reference), { idempotencyKey: unique('k') });
    sim.approve(reference);
    const again = await fetch(`${url}/simulator/landing`, { method: 'POST', body: new URLSearchParams({ reference, action: 'reject' }), redirect: 'manual' });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('Kan ikke endres');
  });
});
