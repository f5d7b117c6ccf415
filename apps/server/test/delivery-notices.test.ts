import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';
import { countOf, expectRefused } from './support.ts';

const PORTAL = 'http://adresseavisen.localhost:3000';
const api = (path: string) => `${PORTAL}/api${path}`;
// Tuesday 24 November 2026 in Oslo. papir@ lives at 7011 Trondheim; varden@ (VAR) at 3722 Skien.
const TUESDAY_MORNING = new Date('2026-11-24T07:00:00+01:00');
const OPERATOR_TOKEN = 'operator-token-for-notices-0123456789abcdef';
const storm = { titleCode: 'ADR', issueDate: '2026-11-24', postalCodes: ['7011', '7012'], message: 'Uvær på Fosen: avisen kommer utpå dagen.' };

describe.each(testDatabases)('delivery notices ($name)', ({ name }) => {
  let test: TestApp;
  const operator = new TestBrowser(() => injectTransport(test.app));
  let papir: TestBrowser;

  const send = (segmentId: string, body: unknown, token: string | null = OPERATOR_TOKEN, browser = operator) =>
    browser.request('POST', api(`/segment/${segmentId}/message`), { json: body, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const count = (table: string, where = sql``) => countOf(test, sql`select count(*) as n from ${sql.raw(table)} ${where}`);
  const mailsTo = (address: string) => test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = ${address} order by created_at`);
  const expectError = (response: BrowserResponse, status: number, code: string) => expectRefused(response, status, code);

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now: () => TUESDAY_MORNING, config: { operatorToken: OPERATOR_TOKEN } });
    papir = new TestBrowser(() => injectTransport(test.app));
    expect((await login(papir, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
  });
  afterAll(() => test.close());
  beforeEach(async () => {
    await test.database.rows(sql`delete from delivery_notice_recipient`);
    await test.database.rows(sql`delete from delivery_notice`);
    await test.database.rows(sql`delete from delivery_change`);
    await test.database.rows(sql`delete from mail_outbox`);
  });

  it('e-mails the paper subscribers of the segment once, and a resend of the segment notifies nobody again', async () => {
    const first = await send('storm-fosen-1', storm);
    expect(first.status, first.body).toBe(201);
    expect(first.json()).toEqual({ segmentId: 'storm-fosen-1', titleCode: 'ADR', issueDate: '2026-11-24', postalCodes: ['7011', '7012'], created: true, recipients: 1, notifiedNow: 1 });
    const mails = await mailsTo('papir@minside.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Adresseavisen: om avisen tirsdag 24. november 2026');
    expect(mails[0]?.text).toContain(storm.message);
    expect(mails[0]?.text).toContain('postnummer 7011');

    const again = await send('storm-fosen-1', { ...storm, postalCodes: ['7012', '7011', '7011'] });
    expect(again.status, again.body).toBe(200);
    expect(again.json()).toMatchObject({ created: false, recipients: 1, notifiedNow: 0 });
    expect(await mailsTo('papir@minside.test')).toHaveLength(1);
  });

  it('shows the notice on the home page that day and beside that day in the complaint form', async () => {
    expect((await papir.request('GET', api('/delivery/notices?titleCode=ADR'))).json()).toEqual({ notices: [] });
    expect((await send('storm-fosen-2', storm)).status).toBe(201);
    expect((await papir.request('GET', api('/delivery/notices?titleCode=ADR'))).json()).toEqual({ notices: [{ segmentId: 'storm-fosen-2', issueDate: '2026-11-24', message: storm.message }] });
    const options = (await papir.request('GET', api('/delivery/complaints/options?titleCode=ADR'))).json<{ notices: unknown[] }>();
    expect(options.notices).toEqual([{ day: '2026-11-24', message: storm.message }]);
    // Yesterday's notice is in the complaint form but no longer on the home page.
    expect((await send('late-press-monday', { ...storm, issueDate: '2026-11-23', message: 'Trykkeriet var sent ute.' })).status).toBe(201);
    expect((await papir.request('GET', api('/delivery/notices?titleCode=ADR'))).json<{ notices: unknown[] }>().notices).toHaveLength(1);
    expect((await papir.request('GET', api('/delivery/complaints/options?titleCode=ADR'))).json<{ notices: unknown[] }>().notices).toEqual([
      { day: '2026-11-23', message: 'Trykkeriet var sent ute.' },
      { day: '2026-11-24', message: storm.message },
    ]);
  });

  it('follows the paper: a stop that day leaves the subscriber out, a redirect into the segment brings them in', async () => {
    const subscriptionId = 'demo-papir-adr';
    const placedAt = new Date('2026-11-01T10:00:00Z');
    await test.database.rows(sql`insert into delivery_change (id, subscription_id, type, from_date, to_date, status, placed_at, updated_at)
      values ('stop-1', ${subscriptionId}, 'STOP', '2026-11-23', '2026-11-25', 'active', ${placedAt}, ${placedAt})`);
    expect((await send('storm-a', storm)).json()).toMatchObject({ recipients: 0, notifiedNow: 0 });

    await test.database.rows(
      sql`update delivery_change set type = 'TRANSFER', address = ${JSON.stringify({ name: 'Kari', coName: null, street: 'Torget', streetNumber: '1', apartment: null, floor: null, postalCode: '5003', town: 'Bergen' })}::jsonb where id = 'stop-1'`,
    );
    expect((await send('storm-b', storm)).json()).toMatchObject({ recipients: 0 });
    expect((await send('storm-bergen', { ...storm, postalCodes: ['5003'] })).json()).toMatchObject({ recipients: 1, notifiedNow: 1 });
    expect(await mailsTo('papir@minside.test')).toHaveLength(1);
  });

  it('reaches only its title: Varden’s subscriber in Skien is not in Adresseavisen’s segment', async () => {
    expect((await send('adr-skien', { ...storm, postalCodes: ['3722'] })).json()).toMatchObject({ recipients: 0 });
    expect((await send('var-skien', { ...storm, titleCode: 'VAR', postalCodes: ['3722'] })).json()).toMatchObject({ recipients: 1 });
    expect(await mailsTo('varden@minside.test')).toHaveLength(1);
  });

  it('is for operators only, and refuses bad segments with a code and no change', async () => {
    expectError(await send('s1', storm, null), 401, 'OPERATOR_AUTH_REQUIRED');
    expectError(await send('s1', storm, 'not-the-token'), 401, 'OPERATOR_AUTH_REQUIRED');
    expectError(await send('s1', storm, null, papir), 401, 'OPERATOR_AUTH_REQUIRED');
    expectError(await send('s1', { ...storm, titleCode: 'XYZ' }), 404, 'UNKNOWN_TITLE');
    expectError(await send('s1', { ...storm, issueDate: '2026-11-22' }), 422, 'NOT_AN_ISSUE_DAY'); // Sunday
    expectError(await send('s1', { ...storm, issueDate: '2026-11-10' }), 422, 'NOTICE_DATE_OUT_OF_RANGE');
    expectError(await send('s1', { ...storm, issueDate: '2026-12-24' }), 422, 'NOTICE_DATE_OUT_OF_RANGE');
    expect(expectError(await send('s1', { ...storm, postalCodes: ['7011', '0000'] }), 422, 'UNKNOWN_POSTAL_CODES').message).toBe('Ukjente postnumre: 0000.');
    expectError(await send('s1', { ...storm, postalCodes: [] }), 400, 'VALIDATION_FAILED');
    expectError(await send('s1', { ...storm, message: '  ' }), 400, 'VALIDATION_FAILED');
    expectError(await send('bad%20id', storm), 400, 'VALIDATION_FAILED');
    expect(await count('delivery_notice')).toBe(0);
    expect(await count('mail_outbox')).toBe(0);

    expect((await send('s1', storm)).status).toBe(201);
    expect(expectError(await send('s1', { ...storm, message: 'Noe annet' }), 409, 'SEGMENT_ID_IN_USE').message).toContain('segment-id');
    expect(await count('delivery_notice')).toBe(1);
    expect(await count('mail_outbox')).toBe(1);
  });

  it('does not exist while no operator token is configured', async () => {
    const closed = await buildTestApp(name, { now: () => TUESDAY_MORNING });
    try {
      const response = await new TestBrowser(() => injectTransport(closed.app)).request('POST', api('/segment/s1/message'), { json: storm, headers: { authorization: 'Bearer x' } });
      expect(response.status).toBe(404);
    } finally {
      await closed.close();
    }
  });
});
