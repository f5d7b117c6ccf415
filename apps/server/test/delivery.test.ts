import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';

const PORTAL = 'http://adresseavisen.localhost:3000';
const api = (path: string) => `${PORTAL}/api${path}`;

// Tuesday 24 November 2026 in Oslo (CET, UTC+1). ADR prints Monday–Saturday.
const TUESDAY_MORNING = new Date('2026-11-24T10:00:00+01:00');
const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789abcdef';

describe.each(testDatabases)('paper delivery ($name)', ({ name }) => {
  let test: TestApp;
  let clock = TUESDAY_MORNING;
  const now = () => clock;
  let papir: TestBrowser;
  let digital: TestBrowser;
  let varden: TestBrowser;

  const signIn = async (email: string, titleCode = 'ADR', portal = PORTAL) => {
    const browser = new TestBrowser(() => injectTransport(test.app));
    const response = await login(browser, { portal, email, password: DEMO_PASSWORD, titleCode });
    expect(response.status, response.body).toBe(200);
    return browser;
  };
  const count = async (table: string) => Number((await test.database.rows<{ n: string }>(sql.raw(`select count(*) as n from ${table}`)))[0]?.n);
  const expectError = (response: BrowserResponse, status: number, code: string) => {
    expect(response.status, response.body).toBe(status);
    expect(response.json()).toMatchObject({ code });
    return response.json<{ message: string; detail?: string }>();
  };

  /** Moves the clock. Sessions idle out after 30 minutes of the same clock, so everyone signs in again. */
  const travel = async (to: Date) => {
    clock = to;
    papir = await signIn('papir@minside.test');
    digital = await signIn('digital@minside.test');
    varden = await signIn('varden@minside.test', 'VAR', 'http://varden.localhost:3000');
  };

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now, config: { operatorToken: OPERATOR_TOKEN } });
  });
  afterAll(() => test.close());
  beforeEach(async () => {
    await test.database.rows(sql`delete from delivery_complaint_day`);
    await test.database.rows(sql`delete from delivery_complaint`);
    await test.database.rows(sql`delete from delivery_change`);
    await travel(TUESDAY_MORNING);
  });

  describe('the publication calendar', () => {
    it('gives the next possible delivery day and the issue days, before and after the cutoff', async () => {
      const morning = (await papir.request('GET', api('/delivery/calendar?titleCode=ADR'))).json<Record<string, unknown> & { publicationDays: string[] }>();
      expect(morning).toMatchObject({ titleCode: 'ADR', today: '2026-11-24', cutoffTime: '12:00', nextPossibleDeliveryDay: '2026-11-25', pausedIssues: { creditPerIssueOre: 0 } });
      expect(morning.publicationDays).toContain('2026-11-28');
      expect(morning.publicationDays).not.toContain('2026-11-29'); // Sunday
      expect(morning.publicationDays).not.toContain('2026-12-25'); // Første juledag
      await travel(new Date('2026-11-24T12:00:00+01:00'));
      expect((await papir.request('GET', api('/delivery/calendar?titleCode=ADR'))).json()).toMatchObject({ nextPossibleDeliveryDay: '2026-11-26' });
    });

    it('uses the title’s own weekdays and price rule (Varden)', async () => {
      const calendar = (await varden.request('GET', 'http://varden.localhost:3000/api/delivery/calendar?titleCode=VAR')).json<{ pausedIssues: unknown; titleCode: string }>();
      expect(calendar).toMatchObject({ titleCode: 'VAR', pausedIssues: { creditPerIssueOre: 2500 } });
    });

    it('is for signed-in paper subscribers only', async () => {
      expect((await new TestBrowser(() => injectTransport(test.app)).request('GET', api('/delivery/calendar'))).status).toBe(401);
      const body = expectError(await digital.request('GET', api('/delivery/calendar?titleCode=ADR')), 403, 'PAPER_SUBSCRIPTION_REQUIRED');
      expect(body.message).toBe('Du må ha papirabonnement for å benytte denne tjenesten.');
    });
  });

  describe('vacation and delivery changes', () => {
    const stop = { type: 'STOP', fromDate: '2026-12-07', toDate: '2026-12-12', address: null };

    it('places, lists, changes and cancels a vacation stop next month', async () => {
      const placed = await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: stop });
      expect(placed.status, placed.body).toBe(201);
      const change = placed.json<{ id: string }>();
      expect(change).toMatchObject({ type: 'STOP', fromDate: '2026-12-07', toDate: '2026-12-12', state: 'upcoming', firstIssue: '2026-12-07', issueCount: 6, earliestEnd: null });

      const listed = (await papir.request('GET', api('/delivery/changes?titleCode=ADR'))).json<{ changes: { id: string }[] }>();
      expect(listed.changes.map((c) => c.id)).toEqual([change.id]);

      const changed = await papir.request('PUT', api(`/delivery/changes/${change.id}?titleCode=ADR`), { json: { ...stop, fromDate: '2026-12-08', toDate: '2026-12-19' } });
      expect(changed.status, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ fromDate: '2026-12-08', toDate: '2026-12-19', issueCount: 11 });

      const cancelled = await papir.request('DELETE', api(`/delivery/changes/${change.id}?titleCode=ADR`), { json: {} });
      expect(cancelled.status, cancelled.body).toBe(200);
      expect(cancelled.json()).toEqual({ change: null });
      expect((await papir.request('GET', api('/delivery/changes?titleCode=ADR'))).json()).toEqual({ changes: [] });
      const [row] = await test.database.rows<{ status: string }>(sql`select status from delivery_change where id = ${change.id}`);
      expect(row?.status).toBe('cancelled');
    });

    it('refuses a start past the cutoff and names the next possible delivery day', async () => {
      await travel(new Date('2026-11-24T14:00:00+01:00'));
      const body = expectError(await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: { ...stop, fromDate: '2026-11-25', toDate: '2026-11-28' } }), 422, 'CUTOFF_PASSED');
      expect(body.message).toBe('Fristen for å endre leveringen denne dagen har gått ut. Første mulige dag er torsdag 26. november 2026.');
      expect(body.detail).toBe('2026-11-26');
      expect(await count('delivery_change')).toBe(0);
    });

    it('refuses days without an issue, ends before starts and overlapping changes, storing nothing', async () => {
      expectError(await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: { ...stop, fromDate: '2026-12-06' } }), 422, 'NOT_AN_ISSUE_DAY');
      expectError(await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: { ...stop, toDate: '2026-12-05' } }), 422, 'INVALID_PERIOD');
      expect((await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: stop })).status).toBe(201);
      const transfer = { type: 'TRANSFER', fromDate: '2026-12-12', toDate: '2026-12-16', address: { name: 'Kari Nordmann', street: 'Storgata', streetNumber: '1', postalCode: '0150' } };
      const refused = expectError(await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: transfer }), 409, 'DELIVERY_CHANGE_OVERLAP');
      expect(refused.message).toBe('Du har allerede en endring i denne perioden. Endre eller slett den først.');
      expect(await count('delivery_change')).toBe(1);
      // The day after the stop is free: a redirect with the town looked up from the postal code.
      const placed = await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: { ...transfer, fromDate: '2026-12-14' } });
      expect(placed.status, placed.body).toBe(201);
      expect(placed.json()).toMatchObject({ type: 'TRANSFER', address: { street: 'Storgata', postalCode: '0150', town: 'Oslo', coName: null } });
    });

    it('refuses an unknown postal code and a stop with an address', async () => {
      const transfer = { type: 'TRANSFER', fromDate: '2026-12-14', toDate: null, address: { name: 'Kari', street: 'Storgata', streetNumber: '1', postalCode: '0000' } };
      expectError(await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: transfer }), 422, 'UNKNOWN_POSTAL_CODE');
      expectError(await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: { ...stop, address: transfer.address } }), 400, 'VALIDATION_FAILED');
      expect(await count('delivery_change')).toBe(0);
    });

    it('lets a started stop only be shortened, and ending it resumes delivery at the next possible day', async () => {
      const placed = (await papir.request('POST', api('/delivery/changes?titleCode=ADR'), { json: { ...stop, fromDate: '2026-11-26', toDate: '2026-12-05' } })).json<{ id: string }>();
      await travel(new Date('2026-11-27T10:00:00+01:00')); // Friday: the next possible day is Saturday 28.
      const listed = (await papir.request('GET', api('/delivery/changes?titleCode=ADR'))).json<{ changes: unknown[] }>();
      expect(listed.changes[0]).toMatchObject({ state: 'started', earliestEnd: '2026-11-27' });

      const path = api(`/delivery/changes/${placed.id}?titleCode=ADR`);
      expectError(await papir.request('PUT', path, { json: { ...stop, fromDate: '2026-11-26', toDate: '2026-12-07' } }), 409, 'DELIVERY_CHANGE_STARTED');
      expectError(await papir.request('PUT', path, { json: { ...stop, fromDate: '2026-11-28', toDate: '2026-12-05' } }), 409, 'DELIVERY_CHANGE_STARTED');
      expectError(await papir.request('PUT', path, { json: { ...stop, fromDate: '2026-11-26', toDate: '2026-11-26' } }), 422, 'CUTOFF_PASSED');
      const shortened = await papir.request('PUT', path, { json: { ...stop, fromDate: '2026-11-26', toDate: '2026-12-01' } });
      expect(shortened.status, shortened.body).toBe(200);
      expect(shortened.json()).toMatchObject({ toDate: '2026-12-01', state: 'started' });

      const ended = await papir.request('DELETE', path, { json: {} });
      expect(ended.status, ended.body).toBe(200);
      expect(ended.json()).toMatchObject({ change: { fromDate: '2026-11-26', toDate: '2026-11-27', state: 'locked' } });
      expectError(await papir.request('DELETE', path, { json: {} }), 409, 'DELIVERY_CHANGE_STARTED');
    });

    it('answers 404 for another subscriber’s change, and changes nothing', async () => {
      const placed = (await varden.request('POST', 'http://varden.localhost:3000/api/delivery/changes?titleCode=VAR', { json: { ...stop, fromDate: '2026-12-08', toDate: '2026-12-08' } })).json<{
        id: string;
      }>();
      expect(placed.id).toBeTruthy();
      expectError(await papir.request('DELETE', api(`/delivery/changes/${placed.id}?titleCode=ADR`), { json: {} }), 404, 'NOT_FOUND');
      expectError(await papir.request('PUT', api(`/delivery/changes/${placed.id}?titleCode=ADR`), { json: { ...stop, fromDate: '2026-12-08', toDate: '2026-12-08' } }), 404, 'NOT_FOUND');
      const [row] = await test.database.rows<{ status: string }>(sql`select status from delivery_change where id = ${placed.id}`);
      expect(row?.status).toBe('active');
    });
  });

  describe('delivery address', () => {
    it('shows the current address and a move from a chosen date as upcoming', async () => {
      const before = (await papir.request('GET', api('/delivery/address?titleCode=ADR'))).json();
      expect(before).toEqual({
        current: { name: 'Kari Nordmann', coName: null, street: 'Kongens gate', streetNumber: '14B', apartment: 'H0302', floor: '3', postalCode: '7011', town: 'Trondheim' },
        upcoming: [],
      });
      const moved = await papir.request('POST', api('/delivery/address?titleCode=ADR'), {
        json: { fromDate: '2026-12-01', address: { name: 'Kari Nordmann', coName: 'Hansen', street: 'Storgata', streetNumber: '5', postalCode: '0150' } },
      });
      expect(moved.status, moved.body).toBe(201);
      expect(moved.json()).toMatchObject({ current: { town: 'Trondheim' }, upcoming: [{ fromDate: '2026-12-01', address: { street: 'Storgata', coName: 'Hansen', town: 'Oslo' } }] });

      await travel(new Date('2026-12-01T08:00:00+01:00'));
      expect((await papir.request('GET', api('/delivery/address?titleCode=ADR'))).json()).toMatchObject({ current: { street: 'Storgata', town: 'Oslo' }, upcoming: [] });
    });

    it('refuses an empty form with the SPEC messages in the detail, an unknown postal code and a date past the cutoff', async () => {
      const empty = expectError(
        await papir.request('POST', api('/delivery/address?titleCode=ADR'), { json: { fromDate: '2026-12-01', address: { name: '', street: '', streetNumber: '', postalCode: '' } } }),
        400,
        'VALIDATION_FAILED',
      );
      expect(empty.detail).toContain('Navn er påkrevd på leveringsadresse');
      expect(empty.detail).toContain('Adresse er påkrevd');
      expect(empty.detail).toContain('Gatenummer er påkrevd');
      expectError(
        await papir.request('POST', api('/delivery/address?titleCode=ADR'), { json: { fromDate: '2026-12-01', address: { name: 'Kari', street: 'Storgata', streetNumber: '5', postalCode: '0000' } } }),
        422,
        'UNKNOWN_POSTAL_CODE',
      );
      expectError(
        await papir.request('POST', api('/delivery/address?titleCode=ADR'), { json: { fromDate: '2026-11-24', address: { name: 'Kari', street: 'Storgata', streetNumber: '5', postalCode: '0150' } } }),
        422,
        'CUTOFF_PASSED',
      );
      expect(await count('delivery_change')).toBe(0);
    });

    it('looks up the town of a postal code from the register', async () => {
      expect((await papir.request('GET', api('/delivery/postal-codes/7011'))).json()).toEqual({ postalCode: '7011', town: 'Trondheim' });
      expect((await papir.request('GET', api('/delivery/postal-codes/5003'))).json()).toEqual({ postalCode: '5003', town: 'Bergen' });
      expectError(await papir.request('GET', api('/delivery/postal-codes/0000')), 404, 'UNKNOWN_POSTAL_CODE');
      expect((await papir.request('GET', api('/delivery/postal-codes/70'))).status).toBe(400);
    });
  });

  describe('delivery complaints', () => {
    const complaint = { code: 'MISSING', days: ['2026-11-23'], remedy: 'EXTENSION' };

    it('lists the complaint codes (SPEC §7)', async () => {
      expect((await new TestBrowser(() => injectTransport(test.app)).request('GET', api('/complaintcodes'))).status).toBe(401);
      const codes = (await papir.request('GET', api('/complaintcodes'))).json<{ code: string; requiresText: boolean }[]>();
      expect(codes.map((c) => c.code)).toEqual(['MISSING', 'WET', 'DAMAGED', 'LATE', 'MISSING_SECTION', 'DELIVERED_DURING_STOP', 'OTHER']);
      expect(codes.filter((c) => c.requiresText).map((c) => c.code)).toEqual(['DAMAGED', 'OTHER']);
    });

    it('offers the issue days of the last 7 days and the title’s remedies', async () => {
      expect((await papir.request('GET', api('/delivery/complaints/options?titleCode=ADR'))).json()).toEqual({
        today: '2026-11-24',
        days: ['2026-11-24', '2026-11-23', '2026-11-21', '2026-11-20', '2026-11-19', '2026-11-18'],
        remedies: ['REDELIVERY', 'EXTENSION'],
        reported: [],
        notices: [],
      });
    });

    it('gives a receipt for yesterday and refuses the same day and code again', async () => {
      const filed = await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: complaint });
      expect(filed.status, filed.body).toBe(201);
      expect(filed.json()).toMatchObject({ caseNumber: expect.stringMatching(/^RK-\d+$/), code: 'MISSING', days: ['2026-11-23'], remedy: 'EXTENSION' });
      const again = expectError(await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: complaint }), 409, 'COMPLAINT_DUPLICATE');
      expect(again.message).toBe('Du har allerede meldt fra om dette for denne dagen.');
      expect(await count('delivery_complaint')).toBe(1);
      expect((await papir.request('GET', api('/delivery/complaints/options?titleCode=ADR'))).json()).toMatchObject({ reported: [{ day: '2026-11-23', code: 'MISSING' }] });
    });

    it('flags a repeated complaint for the same address within 30 days', async () => {
      expect((await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: complaint })).status).toBe(201);
      expect((await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: { ...complaint, code: 'LATE', days: ['2026-11-24'] } })).status).toBe(201);
      const rows = await test.database.rows<{ flagged: boolean }>(sql`select flagged from delivery_complaint order by case_no`);
      expect(rows.map((r) => r.flagged)).toEqual([false, true]);
    });

    it('refuses days out of reach, a missing text, and a remedy not offered', async () => {
      expectError(await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: { ...complaint, days: ['2026-11-16'] } }), 422, 'COMPLAINT_DAY_NOT_ALLOWED');
      expectError(await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: { ...complaint, days: ['2026-11-22'] } }), 422, 'COMPLAINT_DAY_NOT_ALLOWED'); // Sunday
      expectError(await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: { ...complaint, code: 'DAMAGED' } }), 400, 'VALIDATION_FAILED');
      expectError(await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: { ...complaint, remedy: 'REDELIVERY' } }), 422, 'REMEDY_NOT_OFFERED');
      expectError(await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: { ...complaint, remedy: 'CREDIT' } }), 422, 'REMEDY_NOT_OFFERED');
      expect((await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: { ...complaint, days: ['2026-11-24'], remedy: 'REDELIVERY' } })).status).toBe(201);
      expect(await count('delivery_complaint')).toBe(1);
    });

    it('tells a digital subscriber the service is for paper subscribers, storing nothing', async () => {
      const options = expectError(await digital.request('GET', api('/delivery/complaints/options?titleCode=ADR')), 403, 'PAPER_SUBSCRIPTION_REQUIRED');
      expect(options.message).toBe('Du må ha papirabonnement for å benytte denne tjenesten.');
      expectError(await digital.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: complaint }), 403, 'PAPER_SUBSCRIPTION_REQUIRED');
      expect(await count('delivery_complaint')).toBe(0);
    });
  });

  describe('carrier feed', () => {
    const feed = async (date: string, token: string | null = OPERATOR_TOKEN, browser = new TestBrowser(() => injectTransport(test.app))) =>
      browser.request('GET', api(`/operator/delivery-feed?title=ADR&date=${date}`), token ? { headers: { authorization: `Bearer ${token}` } } : {});
    const rowsOf = (csv: string) => {
      const [header = '', ...lines] = csv.trim().split('\r\n');
      const columns = header.split(',');
      return lines.map((line) => Object.fromEntries(line.split(',').map((value, index) => [columns[index], value])));
    };

    it('contains exactly the changes due that date, placed before its cutoff, for that title', async () => {
      const place = async (browser: TestBrowser, body: unknown, portal = PORTAL, titleCode = 'ADR') => {
        const response = await browser.request('POST', `${portal}/api/delivery/changes?titleCode=${titleCode}`, { json: body });
        expect(response.status, response.body).toBe(201);
        return response.json<{ id: string }>().id;
      };
      // Placed and then cancelled: never in a feed.
      const cancelled = await place(papir, { type: 'STOP', fromDate: '2026-12-01', toDate: '2026-12-05', address: null });
      expect((await papir.request('DELETE', api(`/delivery/changes/${cancelled}?titleCode=ADR`), { json: {} })).status).toBe(200);
      const stop = await place(papir, { type: 'STOP', fromDate: '2026-12-01', toDate: '2026-12-03', address: null });
      const move = await place(papir, { type: 'PERMANENT', fromDate: '2026-12-01', toDate: null, address: { name: 'Kari Nordmann', street: 'Storgata', streetNumber: '5', postalCode: '0150' } });
      await place(papir, { type: 'TRANSFER', fromDate: '2026-12-07', toDate: '2026-12-08', address: { name: 'Kari Nordmann', street: 'Fjellveien', streetNumber: '12', postalCode: '7340' } });
      await place(varden, { type: 'STOP', fromDate: '2026-12-01', toDate: '2026-12-01', address: null }, 'http://varden.localhost:3000', 'VAR');
      // Written after the cutoff of 1 December (say by a back-office tool): not in that day's feed.
      await test.database.rows(sql`insert into delivery_change (id, subscription_id, type, from_date, to_date, address, status, placed_at, updated_at)
        values ('late', 'demo-papir-adr', 'TRANSFER', '2026-12-01', '2026-12-01', ${JSON.stringify({ name: 'Sent', coName: null, street: 'Sen gate', streetNumber: '1', apartment: null, floor: null, postalCode: '0150', town: 'Oslo' })}::jsonb, 'active', '2026-11-30T12:30:00+01:00', '2026-11-30T12:30:00+01:00')`);

      const response = await feed('2026-12-01');
      expect(response.status, response.body).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/csv/);
      const rows = rowsOf(response.body);
      expect(rows.map((row) => [row['kind'], row['subscription_id'], row['from_date'], row['to_date']])).toEqual([
        ['ADDRESS_CHANGE', 'demo-papir-adr', '2026-12-01', ''],
        ['STOP', 'demo-papir-adr', '2026-12-01', '2026-12-03'],
      ]);
      expect(rows[0]).toMatchObject({ date: '2026-12-01', title_code: 'ADR', account_no: '40000001', street: 'Storgata', postal_code: '0150', town: 'Oslo' });
      // On the day of the move the stop is at the new home.
      expect(rows[1]).toMatchObject({ street: 'Storgata', name: 'Kari Nordmann' });
      expect(stop && move).toBeTruthy();

      const later = rowsOf((await feed('2026-12-07')).body);
      expect(later.map((row) => [row['kind'], row['street'], row['town']])).toEqual([['REDIRECT', 'Fjellveien', 'Oppdal']]);
      expect(rowsOf((await feed('2026-12-04')).body)).toEqual([]);
    });

    it('lists complaints once, in the feed after they were reported', async () => {
      expect((await papir.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: { code: 'WET', days: ['2026-11-23'], remedy: 'EXTENSION' } })).status).toBe(201);
      const rows = rowsOf((await feed('2026-11-25')).body);
      expect(rows).toEqual([
        expect.objectContaining({ kind: 'COMPLAINT', complaint_code: 'WET', remedy: 'EXTENSION', from_date: '2026-11-23', case_number: expect.stringMatching(/^RK-/), street: 'Kongens gate' }),
      ]);
      expect(rowsOf((await feed('2026-11-24')).body)).toEqual([]);
      expect(rowsOf((await feed('2026-11-26')).body)).toEqual([]);
    });

    it('is for operators only', async () => {
      expectError(await feed('2026-12-01', null), 401, 'OPERATOR_AUTH_REQUIRED');
      expectError(await feed('2026-12-01', 'wrong-token'), 401, 'OPERATOR_AUTH_REQUIRED');
      expectError(await feed('2026-12-01', null, papir), 401, 'OPERATOR_AUTH_REQUIRED');
      expect((await feed('not-a-date')).status).toBe(400);
      expectError(
        await new TestBrowser(() => injectTransport(test.app)).request('GET', api('/operator/delivery-feed?title=XYZ&date=2026-12-01'), { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } }),
        404,
        'UNKNOWN_TITLE',
      );
    });
  });
});
