import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAccountResponseSchema, systemClock } from '@minside/domain';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import type { TestBrowser } from './browser.ts';
import { expectRefused, signIn as signInAs } from './support.ts';

// Issue 7 item 4: /koble-bruker — find a subscription bought elsewhere (SPEC §7
// search-account), prove the mailbox (verify/), take it over (account/assign), throttled.

const PORTAL = 'http://varden.localhost:3000';
const CONTACT = 'varden.abonnent@minside.test';
const MINUTE = 60 * 1000;

describe.each(testDatabases)('connect ($name)', ({ name }) => {
  let test: TestApp;
  let offsetMs = 0;
  const now = () => new Date(systemClock().getTime() + offsetMs);
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now });
  });
  afterAll(() => test.close());

  const signIn = (email: string) => signInAs(test, PORTAL, email, 'VAR');
  const search = (browser: TestBrowser, body: Record<string, unknown>) => browser.request('POST', `${PORTAL}/api/search-account?titleCode=VAR`, { json: body });
  const verify = (browser: TestBrowser, requestId: string, code: string) => browser.request('POST', `${PORTAL}/api/verify/`, { json: { requestId, code } });
  const assign = (browser: TestBrowser, requestId: string) => browser.request('PUT', `${PORTAL}/api/account/assign?titleCode=VAR`, { json: { requestId } });
  const latestCode = async () => {
    const [mail] = await test.database.rows<{ text: string }>(sql`select text from mail_outbox where to_address = ${CONTACT} order by created_at desc limit 1`);
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
    if (!code) throw new Error('no code mailed');
    return code;
  };
  const owner = async () =>
    (await test.database.rows<{ user_id: string }>(sql`select a.user_id from subscription s join account a on a.aria_account_no = s.aria_account_no where s.id = 'demo-unconnected-var'`))[0]?.user_id;

  it('sends no code without both number and postal code right, and answers as if it had (issue 20)', async () => {
    const ny = await signIn('ny@minside.test');
    const mails = await test.database.rows(sql`select 1 from mail_outbox`);
    for (const body of [
      { ariaAccountNo: 40_000_099, postalCode: '7011' },
      { ariaAccountNo: 40_000_098, postalCode: '3724' },
    ]) {
      const answer = await search(ny, body);
      expect(answer.status, answer.body).toBe(200);
      expect(searchAccountResponseSchema.parse(answer.json()).message).toMatch(/^Hvis opplysningene stemmer/);
    }
    expectRefused(await search(ny, { postalCode: '3724' }), 400, 'VALIDATION_FAILED');
    expect(await test.database.rows(sql`select 1 from mail_outbox`)).toHaveLength(mails.length);
    // A connected account with the right postal code: the same answer; its owner is told by e-mail, with the customer centre.
    const taken = await search(ny, { ariaAccountNo: 40_000_013, postalCode: '3722' });
    expect(taken.status).toBe(200);
    const [notice] = await test.database.rows<{ text: string }>(sql`select text from mail_outbox where to_address = 'varden@minside.test' order by created_at desc limit 1`);
    expect(notice?.text).toMatch(/kundesenteret på telefon/);
  });

  it('throttles: three wrong codes, then even the right one waits; searches are limited too', async () => {
    const digital = await signIn('digital@minside.test');
    const found = searchAccountResponseSchema.parse((await search(digital, { phoneNumber: '470 00 099' })).json());
    const code = await latestCode();
    const wrong = code === '000000' ? '111111' : '000000';
    expectRefused(await verify(digital, found.requestId, wrong), 400, 'CODE_WRONG');
    expect((await verify(digital, found.requestId, wrong)).json()).toMatchObject({ code: 'CODE_WRONG', message: 'Koden er feil. Du har 1 forsøk igjen.' });
    expectRefused(await verify(digital, found.requestId, wrong), 429, 'CODE_THROTTLED');
    expectRefused(await verify(digital, found.requestId, code), 429, 'CODE_THROTTLED');
    expectRefused(await search(digital, { phoneNumber: '47000099' }), 429, 'CODE_THROTTLED');
    expectRefused(await assign(digital, found.requestId), 403, 'NOT_VERIFIED');
    expect(await owner()).toBe('user-unconnected-40000099');

    // Searches: five in the window, the sixth waits.
    const papir = await signIn('papir@minside.test');
    for (let index = 0; index < 5; index++) expect((await search(papir, { ariaAccountNo: 40_000_098, postalCode: '3724' })).status).toBe(200);
    expectRefused(await search(papir, { ariaAccountNo: 40_000_099, postalCode: '3724' }), 429, 'SEARCH_THROTTLED');
    offsetMs += 16 * MINUTE;
    expect((await search(papir, { ariaAccountNo: 40_000_099, postalCode: '3724' })).status).toBe(200);
    offsetMs = 0;
  });

  it('connects after the right code: the account moves to the login, once; another user is told it is taken', async () => {
    const ny = await signIn('ny@minside.test');
    // Earlier cases mailed codes too (one with a clock moved ahead): only this search's counts.
    await test.database.rows(sql`delete from mail_outbox where to_address = ${CONTACT}`);
    const found = searchAccountResponseSchema.parse((await search(ny, { ariaAccountNo: '40000099', postalCode: '3724' })).json());
    expectRefused(await assign(ny, found.requestId), 403, 'NOT_VERIFIED');
    const stranger = await signIn('oppsagt@minside.test');
    // Someone else's search id is not theirs.
    expectRefused(await verify(stranger, found.requestId, await latestCode()), 404, 'ACCOUNT_NOT_FOUND');
    expect((await verify(ny, found.requestId, await latestCode())).json()).toEqual({ result: 'VERIFIED', requestId: found.requestId });
    const assigned = await assign(ny, found.requestId);
    expect(assigned.status, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({ result: 'ASSIGNED', subscription: { titleCode: 'VAR', planProductType: 'COMBO' } });
    expect(await owner()).toBe('user-ny');
    // Again: harmless.
    expect((await assign(ny, found.requestId)).json()).toMatchObject({ result: 'ASSIGNED', message: 'Abonnementet er allerede koblet til brukeren din.' });
    const session = await ny.request('GET', `${PORTAL}/api/session?titleCode=VAR`);
    expect(session.json()).toMatchObject({ subscription: { titleCode: 'VAR', ariaPlanID: 'VAR-KOMPLETT-M' } });
    expectRefused(await search(ny, { ariaAccountNo: 40_000_099, postalCode: '3724' }), 409, 'ALREADY_YOURS');
    // To anyone else a connected subscription answers like any search; its contact address is told.
    const mailsBefore = (await test.database.rows(sql`select 1 from mail_outbox where to_address = ${CONTACT}`)).length;
    expect((await search(stranger, { ariaAccountNo: 40_000_099, postalCode: '3724' })).json()).toMatchObject({ message: expect.stringMatching(/^Hvis opplysningene stemmer/) });
    expect((await test.database.rows(sql`select 1 from mail_outbox where to_address = ${CONTACT}`)).length).toBe(mailsBefore + 1);
    expect((await search(stranger, { phoneNumber: '+47 470 00 099' })).status).toBe(200);
  });

  it('moves the subscriptions into the account a user already has, keeping one subscription per title', async () => {
    await test.database.rows(sql`insert into app_user (id, identity_sub, email) values ('user-standin-98', 'unclaimed-40000098', 'annen@minside.test')`);
    await test.database.rows(sql`insert into account (aria_account_no, user_id, first_title_code) values (40000098, 'user-standin-98', 'VAR')`);
    await test.database
      .rows(sql`insert into subscription (id, aria_account_no, title_code, aria_plan_id, plan_name, plan_product_type, eligible_for_sharing, inst_status_code, billing_period, price_ore, payment_method, features, started_on, current_period_end)
      values ('standin-var', 40000098, 'VAR', 'VAR-KOMPLETT-M', 'Komplett', 'COMBO', true, 1, 'MONTH', 64900, 'INVOICE', '{"plusContent":true,"ePaper":true,"paper":true,"familySharing":true,"thirdPartyBundle":true}', current_date, current_date + 20)`);
    await test.database.rows(sql`insert into delivery_address (subscription_id, name, street, street_number, postal_code, town) values ('standin-var', 'Annen', 'Storgata', '1', '3724', 'Skien')`);
    await test.database.rows(sql`insert into connectable_account (aria_account_no, contact_email) values (40000098, 'annen@minside.test')`);
    const oppsagt = await signIn('oppsagt@minside.test');
    const found = searchAccountResponseSchema.parse((await search(oppsagt, { ariaAccountNo: 40_000_098, postalCode: '3724' })).json());
    const [mail] = await test.database.rows<{ text: string }>(sql`select text from mail_outbox where to_address = 'annen@minside.test' order by created_at desc limit 1`);
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
    expect((await verify(oppsagt, found.requestId, code)).status).toBe(200);
    const assigned = await assign(oppsagt, found.requestId);
    expect(assigned.status, assigned.body).toBe(200);
    const [moved] = await test.database.rows<{ aria_account_no: string }>(sql`select aria_account_no::text from subscription where id = 'standin-var'`);
    expect(moved?.aria_account_no).toBe('40000009');
    expect(assigned.json()).toMatchObject({ account: { ariaAccountNo: 40_000_009 }, subscription: { titleCode: 'VAR' } });
  });
  // Issue 20 point 9: 409 for a connected subscriber against 404 otherwise told an unrelated
  // caller that a subscriber number lives at a postal code. Every search now answers alike.
  it('answers an unrelated caller the same whether the number and postal code match nothing, a connected subscriber or a connectable one', async () => {
    offsetMs += 16 * MINUTE; // a fresh throttle window
    try {
      const mailsBefore = await test.database.rows<{ to_address: string }>(sql`select to_address from mail_outbox`);
      const probes = [
        { ariaAccountNo: 40_000_013, postalCode: '3722' }, // varden@'s own account, connected, right postal code
        { ariaAccountNo: 40_000_013, postalCode: '0150' }, // the same, wrong postal code
        { ariaAccountNo: 40_000_097, postalCode: '3724' }, // no such subscriber
        { phoneNumber: '+47 400 00 000' }, // no such phone
      ];
      const answers = [];
      for (const probe of probes) {
        const stranger = await signIn(['oppsagt@minside.test', 'utlopt@minside.test', 'student@minside.test', 'ung@minside.test'][answers.length] ?? 'ny@minside.test');
        answers.push(await search(stranger, probe));
      }
      const shapes = answers.map((answer) => {
        const { requestId, expiresAt, ...rest } = answer.json<Record<string, unknown>>();
        expect(typeof requestId, answer.body).toBe('string');
        expect(typeof expiresAt).toBe('string');
        return { status: answer.status, ...rest };
      });
      expect(shapes).toEqual(probes.map(() => shapes[0]));
      expect(shapes[0]).toEqual({
        status: 200,
        message:
          'Hvis opplysningene stemmer med et abonnement som ikke er koblet til en bruker ennå, har vi sendt en kode til e-postadressen som er registrert på abonnementet. Koden virker i 15 minutter.',
      });
      // Nothing about the subscriber comes back; the connected subscriber is told by e-mail instead.
      for (const answer of answers) expect(answer.body).not.toMatch(/maskedEmail|subscriptions|Varden|3722/);
      const mails = await test.database.rows<{ to_address: string; text: string }>(sql`select to_address, text from mail_outbox order by created_at desc limit 5`);
      const notice = mails.find((mail) => mail.to_address === 'varden@minside.test');
      expect(notice?.text).toContain('allerede koblet til en bruker');
      expect((await test.database.rows(sql`select 1 from mail_outbox`)).length).toBe(mailsBefore.length + 1);

      // A code typed for a search that found nothing is a wrong code, exactly as for one that found something.
      const stranger = await signIn('oppsagt@minside.test');
      const nothing = await search(stranger, { ariaAccountNo: 40_000_097, postalCode: '3724' });
      expect((await verify(stranger, nothing.json<{ requestId: string }>().requestId, '123456')).json()).toEqual({ code: 'CODE_WRONG', message: 'Koden er feil. Du har 2 forsøk igjen.' });
    } finally {
      offsetMs = 0;
    }
  });

  it('throttles searches per address too, so many logins from one place cannot probe many numbers', async () => {
    offsetMs += 32 * MINUTE; // a fresh throttle window
    try {
      const answers = [];
      for (const email of ['papir@minside.test', 'digital@minside.test', 'familie@minside.test', 'admin@firma.test', 'prove@minside.test']) {
        const browser = await signIn(email);
        for (let index = 0; index < 5; index++) answers.push(await search(browser, { ariaAccountNo: 40_000_100 + answers.length, postalCode: '3724' }));
      }
      expect(answers.slice(0, 20).every((answer) => answer.status === 200)).toBe(true);
      for (const refused of answers.slice(20)) expectRefused(refused, 429, 'SEARCH_THROTTLED');
    } finally {
      offsetMs = 0;
    }
  });
});
