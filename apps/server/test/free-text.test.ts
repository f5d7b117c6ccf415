import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '@minside/domain';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import type { TestBrowser } from './browser.ts';
import { expectRefused, issueDaysOf, signIn } from './support.ts';

// Issue 20 point 8: names took CR/LF and 1,000 characters and were copied into e-mail headers
// and bodies. Every free-text field is bounded and normalised at the API's edge by the shared
// schema helpers (freeText, personName in packages/domain/src/core/fields.ts): a control character
// (CR/LF on one line) or an over-long text is refused with a 4xx and a Norwegian message, and
// nothing is stored; what is stored is Unicode NFC.

const PORTAL = 'http://adresseavisen.localhost:3000';
const invalidCharacters = 'Teksten inneholder tegn som ikke er tillatt. Fjern linjeskift og spesialtegn og prøv igjen.';
const headerInjection = 'Kari\r\nBcc: angriper@example.no';

describe.each(testDatabases)('free text at the API edge ($name)', ({ name }) => {
  let test: TestApp;
  let papir: TestBrowser;
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true });
    papir = await signIn(test, PORTAL, 'papir@minside.test');
  });
  afterAll(() => test.close());

  const userRow = async () => (await test.database.rows(sql`select given_name, family_name from app_user where id = 'user-papir'`))[0];
  const valid = { givenName: 'Kari', familyName: 'Nordmann', phoneNumber: '+4791234567', birthdate: '1968-01-15' };
  const putProfile = (body: Partial<typeof valid>) => papir.request('PUT', `${PORTAL}/api/profile`, { json: { ...valid, ...body } });

  it('a name with CR/LF, a tab, a direction override or 1,000 characters is refused in Norwegian and changes nothing', async () => {
    const before = await userRow();
    expectRefused(await putProfile({ givenName: headerInjection }), 400, 'VALIDATION_FAILED', invalidCharacters);
    expectRefused(await putProfile({ familyName: 'Nord\nmann' }), 400, 'VALIDATION_FAILED', invalidCharacters);
    expectRefused(await putProfile({ familyName: 'Nord\tmann' }), 400, 'VALIDATION_FAILED', invalidCharacters);
    expectRefused(await putProfile({ givenName: 'Kari\u202Enamron' }), 400, 'VALIDATION_FAILED', invalidCharacters);
    expectRefused(await putProfile({ givenName: 'K'.repeat(1000) }), 400, 'VALIDATION_FAILED', 'Teksten kan være på høyst 100 tegn');
    expect(await userRow()).toEqual(before);
  });

  it('a name is stored in Unicode NFC with its spaces tidied; 100 characters (not UTF-16 units) fit', async () => {
    const decomposed = 'Ka\u0301re  Bjørn'; // "Káre" with a combining accent, two spaces
    const response = await putProfile({ givenName: decomposed });
    expect(response.status, response.body).toBe(200);
    expect(await userRow()).toMatchObject({ given_name: 'K\u00e1re Bjørn' });
    expect((await putProfile({ familyName: '😀'.repeat(100) })).status).toBe(200);
    expect((await putProfile(valid)).status).toBe(200);
  });

  it('a delivery address line with a line break or over its limit is refused and no change is stored', async () => {
    const changes = async () => (await test.database.rows(sql`select id from delivery_change`)).length;
    const before = await changes();
    const { firstChangeable } = issueDaysOf('ADR', systemClock());
    const move = (address: Record<string, string>) =>
      papir.request('POST', `${PORTAL}/api/delivery/address?titleCode=ADR`, {
        json: { fromDate: firstChangeable, address: { name: 'Kari Nordmann', street: 'Storgata', streetNumber: '5', postalCode: '0150', ...address } },
      });
    const refused = expectRefused(await move({ name: headerInjection }), 400, 'VALIDATION_FAILED');
    expect(JSON.stringify(refused)).toContain(invalidCharacters);
    expectRefused(await move({ street: `Storgata\r\n` + 'x'.repeat(10) }), 400, 'VALIDATION_FAILED');
    expectRefused(await move({ coName: 'x'.repeat(101) }), 400, 'VALIDATION_FAILED');
    expect(await changes()).toBe(before);
  });

  it('a buyer’s paper address is held to the same rule', async () => {
    const ny = await signIn(test, PORTAL, 'ny@minside.test');
    const orders = async () => (await test.database.rows(sql`select id from subscription_order`)).length;
    const before = await orders();
    const address = { name: headerInjection, street: 'Munkegata', streetNumber: '3', postalCode: '7011' };
    expectRefused(
      await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-KOMPLETT-M', birthdate: '1980-01-01', deliveryAddress: address } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await orders()).toBe(before);
  });

  it('a complaint or a cancellation survey may have line breaks, but no other control character and not over its limit', async () => {
    const complaints = async () => (await test.database.rows(sql`select 1 from delivery_complaint`)).length;
    const before = await complaints();
    const complain = (text: string) => papir.request('POST', `${PORTAL}/api/delivery/complaints?titleCode=ADR`, { json: { code: 'OTHER', days: ['2026-11-23'], remedy: 'EXTENSION', text } });
    expectRefused(await complain('Avisen kom ikke\u0007'), 400, 'VALIDATION_FAILED');
    expectRefused(await complain('x'.repeat(501)), 400, 'VALIDATION_FAILED');
    expect(await complaints()).toBe(before);

    const digital = await signIn(test, PORTAL, 'digital@minside.test');
    const surveys = async () => (await test.database.rows(sql`select 1 from cancellation_survey`)).length;
    const surveysBefore = await surveys();
    const [account] = await test.database.rows<{ aria_account_no: number }>(sql`select aria_account_no from account where user_id = 'user-digital'`);
    const cancel = (reasonText: string) =>
      digital.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
        json: { ariaAccountNo: Number(account?.aria_account_no), titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'OTHER', reasonText },
      });
    expectRefused(await cancel('For dyrt\u0000'), 400, 'VALIDATION_FAILED');
    expectRefused(await cancel('For dyrt\u001b[31m'), 400, 'VALIDATION_FAILED');
    expectRefused(await cancel('x'.repeat(1001)), 400, 'VALIDATION_FAILED');
    expect(await surveys()).toBe(surveysBefore);
  });
});
