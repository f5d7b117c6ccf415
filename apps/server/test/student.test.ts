import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, osloToday, systemClock } from '@minside/domain';
import { createMailer } from '../src/integrations/mail/index.ts';
import { createStudentService } from '../src/modules/student/service.ts';
import { createAccountService } from '../src/modules/subscription/service.ts';
import { createTitleService } from '../src/modules/titles/service.ts';
import { defaultCatalogue } from '@minside/titles';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, TestBrowser } from './browser.ts';
import { codeMailedTo, expectRefused, signIn as signInAs } from './support.ts';

// Issue 8 student verification: SPEC §7 student-email/ and activate-student-subscription/,
// every §8 student code, the 15-minute expiry, five tries, the send limit, and the yearly
// re-verification with its reminder job. Refusals change nothing.

const PORTAL = 'http://adresseavisen.localhost:3000';
const MINUTE = 60_000;

describe.each(testDatabases)('student verification ($name)', ({ name }) => {
  let test: TestApp;
  // The app's clock: tests move it forward to let codes expire and the send window pass.
  let offsetMs = 0;
  const now = () => new Date(systemClock().getTime() + offsetMs);
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now, config: { studentEmailDomains: ['stud.ntnu.no', 'student.uib.no', '*.test'] } });
  });
  afterAll(() => test.close());

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  const send = (browser: TestBrowser, body: Record<string, unknown>, titleCode = 'ADR') => browser.request('POST', `${PORTAL}/api/student-email/?titleCode=${titleCode}`, { json: body });
  const activate = (browser: TestBrowser, body: Record<string, unknown>) => browser.request('POST', `${PORTAL}/api/activate-student-subscription/?titleCode=ADR`, { json: body });
  const codeSentTo = (to: string) => codeMailedTo(test, to);
  /** Everything a refused request must leave alone. */
  const snapshot = async () =>
    test.database.rows(sql`
      select (select count(*)::int from verification_code) as codes,
             (select count(*)::int from mail_outbox) as mails,
             (select count(*)::int from invoice) as invoices,
             (select count(*)::int from account) as accounts,
             (select json_agg(s order by s.id) from (select id, aria_plan_id, inst_status_code, current_period_end from subscription) s) as subscriptions,
             (select json_agg(v order by v.user_id) from (select user_id, student_email, verified_at from student_verification) v) as verifications`);
  const subscriptionOf = async (userId: string) =>
    (
      await test.database.rows<{ id: string; aria_plan_id: string; inst_status_code: number; price_ore: number; payment_method: string }>(
        sql`select s.id, s.aria_plan_id, s.inst_status_code, s.price_ore, s.payment_method from subscription s join account a on a.aria_account_no = s.aria_account_no where a.user_id = ${userId} and s.title_code = 'ADR'`,
      )
    )[0];

  it('refuses missing and wrong addresses, other subscribers and taken addresses, and changes nothing', async () => {
    const before = await snapshot();
    const nyStudent = await signIn('ny.student@minside.test');
    expectRefused(await send(nyStudent, {}), 400, 'MISSING_PARAMETERS', 'Fyll inn e-postadressen fra studiestedet ditt og koden vi sendte deg.');
    expectRefused(await send(nyStudent, { email: '  ' }), 400, 'MISSING_PARAMETERS');
    expectRefused(await send(nyStudent, { email: 'jonas@gmail.com' }), 400, 'EMAIL_WRONG', 'Du må bruke e-postadressen du har fra studiestedet ditt, for eksempel navn@stud.ntnu.no.');
    expectRefused(await send(nyStudent, { email: 'ikke-en-adresse' }), 400, 'EMAIL_WRONG');
    expectRefused(await send(nyStudent, { email: 'jonas@fake-stud.ntnu.no.example.com' }), 400, 'EMAIL_WRONG');
    // The demo student's verified address, in use with an active student subscription.
    expectRefused(await send(nyStudent, { email: 'Sara.Dahl@stud.ntnu.no' }), 409, 'USER_EXIST_ACTIVE', 'Det finnes allerede et aktivt studentabonnement for denne e-postadressen.');
    const digital = await signIn('digital@minside.test');
    expectRefused(await send(digital, { email: 'ola@stud.ntnu.no' }), 409, 'ARIA_ACTIVE', 'Du har allerede et aktivt abonnement');
    expectRefused(await activate(nyStudent, { email: 'jonas@stud.ntnu.no' }), 400, 'MISSING_PARAMETERS');
    expectRefused(await activate(nyStudent, { code: '123456' }), 400, 'MISSING_PARAMETERS');
    // No code was ever sent to this address for this user.
    expectRefused(await activate(nyStudent, { email: 'jonas@stud.ntnu.no', code: '123456' }), 404, 'USER_NOT_EXIST', 'Finner ikke bruker');
    expect(await snapshot()).toEqual(before);
  });

  it('a title that sells no student plan answers ERROR before any code is sent', async () => {
    await test.database.rows(sql`delete from plan where aria_plan_id = 'VAR-STUDENT-DIGITAL-M'`);
    const before = await snapshot();
    const nyStudent = await signIn('ny.student@minside.test');
    expectRefused(await send(nyStudent, { email: 'jonas@stud.ntnu.no' }, 'VAR'), 409, 'ERROR', 'Noe gikk galt, og studentabonnementet ble ikke startet. Prøv igjen, eller kontakt kundeservice.');
    expect(await snapshot()).toEqual(before);
  });

  it('sends a six-digit code, stores only its hash; a wrong code is CODE_WRONG, the right one starts the student subscription', async () => {
    const browser = await signIn('ny.student@minside.test');
    const sent = await send(browser, { email: 'Jonas.Vik@stud.ntnu.no' });
    expect(sent.status, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ result: 'CODE_SENT', email: 'jonas.vik@stud.ntnu.no' });
    expect(Date.parse(sent.json<{ expiresAt: string }>().expiresAt) - now().getTime()).toBeGreaterThan(14 * MINUTE);
    const code = await codeSentTo('jonas.vik@stud.ntnu.no');
    const [stored] = await test.database.rows<{ code_hash: string }>(sql`select code_hash from verification_code where email = 'jonas.vik@stud.ntnu.no'`);
    expect(stored?.code_hash).toBeDefined();
    expect(stored?.code_hash).not.toContain(code);

    const wrong = code === '000000' ? '111111' : '000000';
    const before = await snapshot();
    expectRefused(await activate(browser, { email: 'jonas.vik@stud.ntnu.no', code: wrong }), 400, 'CODE_WRONG', 'Koden er feil. Sjekk koden i e-posten og prøv igjen.');
    expect(await snapshot()).toEqual(before);
    expect(await subscriptionOf('user-nystudent')).toBeUndefined();

    const activated = await activate(browser, { email: 'jonas.vik@stud.ntnu.no', code });
    expect(activated.status, activated.body).toBe(200);
    const today = osloToday(now());
    expect(activated.json()).toMatchObject({
      result: 'OK',
      subscription: { ariaPlanID: 'ADR-STUDENT-DIGITAL-M', planName: 'Student digital', priceOre: 9_900, instStatusCode: 1, titleCode: 'ADR' },
      status: { studentEmail: 'jonas.vik@stud.ntnu.no', verifiedOn: today, reverifyBy: addMonths(today, 12), state: 'ok' },
    });
    expect(await subscriptionOf('user-nystudent')).toMatchObject({ aria_plan_id: 'ADR-STUDENT-DIGITAL-M', inst_status_code: 1, price_ore: 9_900, payment_method: 'INVOICE' });
    const invoices = await test.database.rows<{ amount_ore: number }>(
      sql`select i.amount_ore from invoice i join account a on a.aria_account_no = i.aria_account_no where a.user_id = 'user-nystudent'`,
    );
    expect(invoices).toEqual([{ amount_ore: 9_900 }]);
    // The session now has the subscription, so the guarded receipt page opens.
    expect((await browser.request('GET', `${PORTAL}/api/session?titleCode=ADR`)).json()).toMatchObject({ subscription: { ariaPlanID: 'ADR-STUDENT-DIGITAL-M' } });
    expect((await browser.request('GET', `${PORTAL}/api/student/status`)).json()).toMatchObject({ status: { studentEmail: 'jonas.vik@stud.ntnu.no', state: 'ok' } });

    // A used code is no longer active.
    expectRefused(await activate(browser, { email: 'jonas.vik@stud.ntnu.no', code }), 400, 'INVALID_CODE', 'Koden er ikke lenger gyldig. Be om en ny kode.');
  });

  it('a code expires after 15 minutes', async () => {
    const browser = await signIn('ny@minside.test');
    expect((await send(browser, { email: 'nina@student.uib.no' })).status).toBe(200);
    const code = await codeSentTo('nina@student.uib.no');
    offsetMs += 15 * MINUTE;
    const before = await snapshot();
    expectRefused(await activate(browser, { email: 'nina@student.uib.no', code }), 400, 'INVALID_CODE');
    expect(await snapshot()).toEqual(before);
    expect(await subscriptionOf('user-ny')).toBeUndefined();
  });

  it('the fifth wrong try voids the code', async () => {
    offsetMs += 16 * MINUTE;
    const browser = await signIn('ny@minside.test');
    expect((await send(browser, { email: 'nina2@student.uib.no' })).status).toBe(200);
    const code = await codeSentTo('nina2@student.uib.no');
    const wrong = code === '999999' ? '888888' : '999999';
    for (let attempt = 1; attempt <= 4; attempt++) {
      expectRefused(await activate(browser, { email: 'nina2@student.uib.no', code: wrong }), 400, 'CODE_WRONG');
    }
    expectRefused(await activate(browser, { email: 'nina2@student.uib.no', code: wrong }), 400, 'INVALID_CODE');
    expectRefused(await activate(browser, { email: 'nina2@student.uib.no', code }), 400, 'INVALID_CODE');
    expect(await subscriptionOf('user-ny')).toBeUndefined();
  });

  it('allows three codes per 15 minutes; a newer code voids the one before', async () => {
    offsetMs += 16 * MINUTE;
    const browser = await signIn('ny@minside.test');
    const codes: string[] = [];
    for (let index = 1; index <= 3; index++) {
      const response = await send(browser, { email: `nina.${index}@student.uib.no` });
      expect(response.status, response.body).toBe(200);
      codes.push(await codeSentTo(`nina.${index}@student.uib.no`));
    }
    const before = await snapshot();
    expectRefused(await send(browser, { email: 'nina.4@student.uib.no' }), 429, 'TOO_MANY_CODES', 'Du har bedt om for mange koder. Vent 15 minutter og prøv igjen.');
    expect(await snapshot()).toEqual(before);
    // The first code was replaced by the second.
    expectRefused(await activate(browser, { email: 'nina.1@student.uib.no', code: codes[0] }), 400, 'INVALID_CODE');
    offsetMs += 15 * MINUTE + 1000;
    expect((await send(browser, { email: 'nina.4@student.uib.no' })).status).toBe(200);
  });

  it('the send limit holds when requests arrive at once', async () => {
    offsetMs += 16 * MINUTE;
    const browser = await signIn('ny@minside.test');
    const responses = await Promise.all([1, 2, 3, 4, 5].map((index) => send(browser, { email: `nina.samtidig.${index}@stud.ntnu.no` })));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(3);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(2);
  });

  it('an expired subscriber becomes a student on the same subscription', async () => {
    const browser = await signIn('utlopt@minside.test');
    expect((await send(browser, { email: 'eva@stud.ntnu.no' })).status).toBe(200);
    const activated = await activate(browser, { email: 'eva@stud.ntnu.no', code: await codeSentTo('eva@stud.ntnu.no') });
    expect(activated.status, activated.body).toBe(200);
    expect(await subscriptionOf('user-utlopt')).toMatchObject({ id: 'demo-utlopt-adr', aria_plan_id: 'ADR-STUDENT-DIGITAL-M', inst_status_code: 1 });
    const [logged] = await test.database.rows<{ kind: string }>(sql`select kind from subscription_change where subscription_id = 'demo-utlopt-adr' order by at desc limit 1`);
    expect(logged).toEqual({ kind: 'reactivated' });
  });

  it('a student verifies again: the subscription continues and the year starts over', async () => {
    const browser = await signIn('student@minside.test');
    const before = (await browser.request('GET', `${PORTAL}/api/student/status`)).json<{ status: { verifiedOn: string; reverifyBy: string } }>().status;
    expect(before.reverifyBy).toBe(addMonths(before.verifiedOn, 12));
    expect(before.verifiedOn < osloToday(now())).toBe(true);
    expect((await send(browser, { email: 'sara.dahl@stud.ntnu.no' })).status).toBe(200);
    const activated = await activate(browser, { email: 'sara.dahl@stud.ntnu.no', code: await codeSentTo('sara.dahl@stud.ntnu.no') });
    expect(activated.status, activated.body).toBe(200);
    expect(activated.json()).toMatchObject({ message: 'Studentstatusen din er bekreftet på nytt.', subscription: { id: 'demo-student-adr' }, status: { verifiedOn: osloToday(now()) } });
    const invoices = await test.database.rows(sql`select 1 from invoice where subscription_id = 'demo-student-adr'`);
    expect(invoices).toHaveLength(2); // the seeded ones only: continuing charges nothing new
  });

  it('the reminder job writes once per verification, a month before the year is up, to students with access', async () => {
    await test.database.rows(sql`update student_verification set verified_at = now() - interval '11 months' - interval '5 days', reminder_sent_at = null where user_id = 'user-student'`);
    await test.database.rows(sql`update student_verification set verified_at = now() - interval '6 months' where user_id = 'user-utlopt'`);
    const db = test.database.db;
    const catalogue = defaultCatalogue;
    const service = createStudentService({
      db,
      mailer: createMailer({
        db,
        smtpUrl: undefined,
        from: 'Min Side <minside@localhost>',
        unsubscribe: { secret: 'student-test-unsubscribe-key', origin: () => 'http://adresseavisen.localhost:3000' },
        log: test.app.log,
        now,
      }),
      accounts: createAccountService({ db, isOfferedTitle: () => true }),
      titles: createTitleService({ catalogue, config: test.config, db }),
      catalogue,
      now,
      domains: ['*.test'],
      identityProviderName: 'spid',
    });
    const mailsBefore = await test.database.rows(sql`select 1 from mail_outbox`);
    expect(await service.sendReverificationReminders()).toBe(1);
    expect(await service.sendReverificationReminders()).toBe(0);
    const [mail] = await test.database.rows<{ to_address: string; subject: string; text: string }>(sql`select to_address, subject, text from mail_outbox order by created_at desc limit 1`);
    expect(mail?.to_address).toBe('student@minside.test');
    expect(mail?.subject).toMatch(/^Bekreft at du fortsatt er student innen \d+\. \w+ \d{4}$/);
    expect(mail?.text).toContain('/student-verifisering');
    expect(await test.database.rows(sql`select 1 from mail_outbox`)).toHaveLength(mailsBefore.length + 1);
    const status = (await (await signIn('student@minside.test')).request('GET', `${PORTAL}/api/student/status`)).json();
    expect(status).toMatchObject({ status: { state: 'dueSoon' } });
  });

  it('public info lists the institutions and the price; the rest needs a session', async () => {
    const anonymous = new TestBrowser(() => injectTransport(test.app));
    const info = await anonymous.request('GET', `${PORTAL}/api/student/info?titleCode=ADR`);
    expect(info.status, info.body).toBe(200);
    expect(info.json()).toMatchObject({ domains: expect.arrayContaining(['stud.ntnu.no']), priceOre: 9_900, planName: 'Student digital' });
    expect((await send(anonymous, { email: 'a@stud.ntnu.no' })).status).toBe(401);
    expect((await activate(anonymous, { email: 'a@stud.ntnu.no', code: '123456' })).status).toBe(401);
    expect((await anonymous.request('GET', `${PORTAL}/api/student/status`)).status).toBe(401);
  });
});
