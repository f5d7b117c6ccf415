import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, calendarDaysBetween, osloToday, priceChangesResponseSchema, priceOn, readKid, systemClock, type Clock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { RENEWAL_LEAD_DAYS } from '../src/modules/billing/jobs.ts';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';

// Issue 4: cancellation with survey and retention offer, undo, reactivation with the SPEC §4
// result codes, plan change with proration, the change log, and that refusals change nothing.

const PORTAL = 'http://adresseavisen.localhost:3000';
const DAY = 24 * 60 * 60 * 1000;

const accounts = {
  papir: 40_000_001,
  digital: 40_000_002,
  ung: 40_000_003,
  familiemedlem: 40_000_005,
  admin: 40_000_006,
  student: 40_000_008,
  oppsagt: 40_000_009,
  utlopt: 40_000_010,
  prove: 40_000_011,
  varden: 40_000_013,
} as const;

interface SubscriptionBody {
  instStatusCode: number;
  currentPeriodEnd: string;
  cancelledAt: string | null;
  ariaPlanID: string;
  planName: string;
  priceOre: number;
  billingPeriod: string;
  pendingChange: { ariaPlanID: string; planName: string; on: string } | null;
}

function setup(name: 'pglite' | 'postgres', clock: Clock = systemClock) {
  const state: { test?: TestApp; offsetDays: number } = { offsetDays: 0 };
  const now = () => new Date(clock().getTime() + state.offsetDays * DAY);
  beforeAll(async () => {
    state.test = await buildTestApp(name, { seed: true, now });
  });
  afterAll(() => state.test?.close());

  const app = () => {
    if (!state.test) throw new Error('app not built');
    return state.test;
  };
  const signIn = async (email: string, portal = PORTAL, titleCode = 'ADR') => {
    const browser = new TestBrowser(() => injectTransport(app().app));
    const response = await login(browser, { portal, email, password: DEMO_PASSWORD, titleCode });
    expect(response.status, response.body).toBe(200);
    return browser;
  };
  const row = async (accountNo: number) =>
    (
      await app().database.rows<Record<string, unknown>>(
        sql`select inst_status_code, current_period_end::text as period_end, cancelled_at, aria_plan_id, pending_plan_id, pending_change_on::text as pending_on, price_ore from subscription where aria_account_no = ${accountNo} and title_code = 'ADR'`,
      )
    )[0];
  const count = async (table: 'subscription_change' | 'cancellation_survey' | 'retention_offer_acceptance' | 'invoice', accountNo: number) =>
    Number(
      (
        await app().database.rows<{ count: string }>(
          sql`select count(*) as count from ${sql.identifier(table)} t join subscription s on s.id = t.subscription_id where s.aria_account_no = ${accountNo}`,
        )
      )[0]?.count,
    );
  const storage = async (accountNo: number) => ({
    row: await row(accountNo),
    changes: await count('subscription_change', accountNo),
    surveys: await count('cancellation_survey', accountNo),
    offers: await count('retention_offer_acceptance', accountNo),
    invoices: await count('invoice', accountNo),
  });
  const expectRefused = (response: BrowserResponse, status: number, code: string, message?: string | RegExp) => {
    expect(response.status, response.body).toBe(status);
    const body = response.json<{ code: string; message: string }>();
    expect(body.code).toBe(code);
    if (message) expect(body.message).toMatch(message);
    // Norwegian, for the user.
    expect(body.message).toMatch(/[a-zæøå]{3}/i);
  };
  return { state, app, signIn, row, storage, expectRefused, now, today: () => osloToday(now()) };
}

const subscriptionPath = (accountNo: number, tail: string) => `${PORTAL}/api/subscription/${accountNo}/ADR/${tail}`;

describe.each(testDatabases)('cancellation, undo and retention offer ($name)', ({ name }) => {
  const { signIn, storage, expectRefused, row, app } = setup(name);

  it('digital cancels with a reason: runs to the period end, the survey and the change log record it', async () => {
    const browser = await signIn('digital@minside.test');
    const before = await storage(accounts.digital);
    const offer = await browser.request('GET', subscriptionPath(accounts.digital, 'retention-offer'));
    expect(offer.json()).toMatchObject({ offer: { code: 'WINBACK_3_FOR_1', headline: '3 måneder for prisen av 1' } });

    const response = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'PRICE' },
    });
    expect(response.status, response.body).toBe(200);
    const { subscription } = response.json<{ subscription: SubscriptionBody }>();
    expect(subscription).toMatchObject({ instStatusCode: 2, currentPeriodEnd: before.row?.['period_end'] });
    expect(subscription.cancelledAt).not.toBeNull();
    const after = await storage(accounts.digital);
    expect(after.surveys).toBe(before.surveys + 1);
    expect(after.changes).toBe(before.changes + 1);

    const log = await browser.request('GET', subscriptionPath(accounts.digital, 'changes'));
    const [newest] = log.json<{ entries: { actor: string; kind: string; description: string }[] }>().entries;
    expect(newest).toMatchObject({ actor: 'self', kind: 'cancelled' });
    expect(newest?.description).toMatch(/^Abonnementet ble sagt opp og løper ut \d+\. \w+ \d{4}\. Årsak: Det er for dyrt\.$/);
  });

  it('refuses a second cancellation with 409 and changes nothing', async () => {
    const browser = await signIn('digital@minside.test');
    const before = await storage(accounts.digital);
    const response = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'PRICE' },
    });
    expectRefused(response, 409, 'TRANSITION_NOT_ALLOWED', 'Abonnementet er allerede sagt opp.');
    expect(await storage(accounts.digital)).toEqual(before);
  });

  it('undo while the period runs: active again; a second undo is refused', async () => {
    const browser = await signIn('digital@minside.test');
    const response = await browser.request('POST', subscriptionPath(accounts.digital, 'undo-cancellation'), { json: {} });
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({ subscription: { instStatusCode: 1, cancelledAt: null } });
    expect(await row(accounts.digital)).toMatchObject({ inst_status_code: 1, cancelled_at: null });
    const before = await storage(accounts.digital);
    expectRefused(await browser.request('POST', subscriptionPath(accounts.digital, 'undo-cancellation'), { json: {} }), 409, 'TRANSITION_NOT_ALLOWED', /ikke sagt opp/);
    expect(await storage(accounts.digital)).toEqual(before);
  });

  it('validates the survey: a reason is required, "Annet" needs words; nothing is stored', async () => {
    const browser = await signIn('digital@minside.test');
    const before = await storage(accounts.digital);
    const other = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'OTHER', reasonText: '  ' },
    });
    expect(other.status).toBe(400);
    expect(other.json()).toMatchObject({ code: 'VALIDATION_FAILED', detail: expect.stringContaining('Beskrivelse er påkrevd') });
    const none = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, { json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', actionType: 'CANCELLATION' } });
    expect(none.status).toBe(400);
    expect(none.json()).toMatchObject({ detail: expect.stringContaining('Årsak er påkrevd') });
    const wrongAction = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', actionType: 'DELETE', reasonCode: 'PRICE' },
    });
    expect(wrongAction.status).toBe(400);
    expect(await storage(accounts.digital)).toEqual(before);
  });

  it('another subscriber’s subscription is 404, and stays as it was', async () => {
    const browser = await signIn('digital@minside.test');
    const before = await storage(accounts.papir);
    const response = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ariaAccountNo: accounts.papir, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'PRICE' },
    });
    expectRefused(response, 404, 'NOT_FOUND');
    expectRefused(await browser.request('POST', subscriptionPath(accounts.papir, 'undo-cancellation'), { json: {} }), 404, 'NOT_FOUND');
    expectRefused(await browser.request('GET', subscriptionPath(accounts.papir, 'changes')), 404, 'NOT_FOUND');
    expectRefused(await browser.request('GET', subscriptionPath(accounts.papir, 'retention-offer')), 404, 'NOT_FOUND');
    expect(await storage(accounts.papir)).toEqual(before);
  });

  it('signed out: 401', async () => {
    const browser = new TestBrowser(() => injectTransport(app().app));
    expectRefused(
      await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, { json: { ariaAccountNo: accounts.digital, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'PRICE' } }),
      401,
      'NOT_AUTHENTICATED',
    );
  });

  it('the winback instead of cancelling (REPLACEMENT-ANN): two free months, once per subscription', async () => {
    const browser = await signIn('digital@minside.test');
    const before = await storage(accounts.digital);
    const body = { ariaAccountNo: accounts.digital, titleCode: 'ADR', actionType: 'REPLACEMENT-ANN', offerCode: 'WINBACK_3_FOR_1', reasonCode: 'NOT_READING' };
    const response = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, { json: body });
    expect(response.status, response.body).toBe(200);
    const periodEnd = addMonths(String(before.row?.['period_end']), 2);
    expect(response.json()).toMatchObject({ actionType: 'REPLACEMENT-ANN', subscription: { instStatusCode: 1, currentPeriodEnd: periodEnd } });
    expect((await storage(accounts.digital)).offers).toBe(1);
    expect((await browser.request('GET', subscriptionPath(accounts.digital, 'retention-offer'))).json()).toEqual({ offer: null });

    const again = await storage(accounts.digital);
    expectRefused(await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, { json: body }), 409, 'OFFER_ALREADY_USED');
    expect(await storage(accounts.digital)).toEqual(again);
  });

  it('paper subscribers are offered the cheaper digital plan, taking effect at the period end', async () => {
    const browser = await signIn('papir@minside.test');
    const offer = (await browser.request('GET', subscriptionPath(accounts.papir, 'retention-offer'))).json<{ offer: { code: string } }>().offer;
    expect(offer).toMatchObject({ code: 'CHEAPER_PLAN', plan: { ariaPlanID: 'ADR-DIGITAL-M' } });
    const wrongOffer = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ariaAccountNo: accounts.papir, titleCode: 'ADR', actionType: 'REPLACEMENT-ANN', offerCode: 'WINBACK_3_FOR_1', reasonCode: 'PRICE' },
    });
    expectRefused(wrongOffer, 409, 'OFFER_NOT_AVAILABLE');
    const response = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ariaAccountNo: accounts.papir, titleCode: 'ADR', actionType: 'REPLACEMENT-ANN', offerCode: 'CHEAPER_PLAN', reasonCode: 'PRICE' },
    });
    expect(response.status, response.body).toBe(200);
    const { subscription } = response.json<{ subscription: SubscriptionBody }>();
    expect(subscription).toMatchObject({ instStatusCode: 1, ariaPlanID: 'ADR-KOMPLETT-M', pendingChange: { ariaPlanID: 'ADR-DIGITAL-M', on: subscription.currentPeriodEnd } });
  });

  it('family members and business subscribers cannot cancel here', async () => {
    const member = await signIn('familiemedlem@minside.test');
    const before = await storage(accounts.familiemedlem);
    expectRefused(
      await member.request('DELETE', `${PORTAL}/api/deleteSubscription`, { json: { ariaAccountNo: accounts.familiemedlem, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'PRICE' } }),
      409,
      'SHARED_ACCESS',
    );
    expect(await storage(accounts.familiemedlem)).toEqual(before);
    const admin = await signIn('admin@firma.test');
    expectRefused(
      await admin.request('DELETE', `${PORTAL}/api/deleteSubscription`, { json: { ariaAccountNo: accounts.admin, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'PRICE' } }),
      409,
      'BUSINESS_CONTRACT',
    );
  });

  it('oppsagt undoes the cancellation; the log says who did it', async () => {
    const browser = await signIn('oppsagt@minside.test');
    const response = await browser.request('POST', subscriptionPath(accounts.oppsagt, 'undo-cancellation'), { json: {} });
    expect(response.status, response.body).toBe(200);
    expect(await row(accounts.oppsagt)).toMatchObject({ inst_status_code: 1, cancelled_at: null });
    const entries = (await browser.request('GET', subscriptionPath(accounts.oppsagt, 'changes'))).json<{ entries: { actor: string; kind: string; description: string }[] }>().entries;
    expect(entries.slice(0, 2).map((entry) => [entry.kind, entry.actor])).toEqual([
      ['cancellationUndone', 'self'],
      ['cancelled', 'self'],
    ]);
    expect(entries[0]?.description).toBe('Oppsigelsen ble angret. Abonnementet fortsetter som før.');
  });
});

describe.each(testDatabases)('after the period end ($name)', ({ name }) => {
  const { state, signIn, storage, expectRefused, row, today } = setup(name);

  it('the cancellation can no longer be undone, and nothing is written by the refusal', async () => {
    state.offsetDays = 20; // oppsagt's period ends 19 days after seeding
    const browser = await signIn('oppsagt@minside.test');
    const before = await storage(accounts.oppsagt);
    expectRefused(await browser.request('POST', subscriptionPath(accounts.oppsagt, 'undo-cancellation'), { json: {} }), 409, 'PERIOD_OVER', /løpt ut/);
    expect(await storage(accounts.oppsagt)).toEqual(before);
  });

  it('but it can be reactivated: the expiry and the restart are logged', async () => {
    state.offsetDays = 20;
    const browser = await signIn('oppsagt@minside.test');
    const response = await browser.request('POST', `${PORTAL}/api/reactivateSubscription/`, { json: { ariaAccountNo: accounts.oppsagt, titleCode: 'ADR', email: 'oppsagt@minside.test' } });
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({ result: 'ok', subscription: { instStatusCode: 1, currentPeriodEnd: addMonths(today(), 1) } });
    expect(await row(accounts.oppsagt)).toMatchObject({ inst_status_code: 1, period_end: addMonths(today(), 1) });
    const kinds = (await browser.request('GET', subscriptionPath(accounts.oppsagt, 'changes'))).json<{ entries: { kind: string; actor: string }[] }>().entries;
    expect(kinds.slice(0, 2).map((entry) => [entry.kind, entry.actor])).toEqual([
      ['reactivated', 'self'],
      ['expired', 'system'],
    ]);
    state.offsetDays = 0;
  });
});

describe.each(testDatabases)('reactivation result codes ($name)', ({ name }) => {
  const { state, app, signIn, storage, expectRefused, row, today } = setup(name);
  const reactivate = (browser: TestBrowser, body: Record<string, unknown>) => browser.request('POST', `${PORTAL}/api/reactivateSubscription/`, { json: body });
  const good = { ariaAccountNo: accounts.utlopt, titleCode: 'ADR', email: 'utlopt@minside.test' };

  it('refuses with the SPEC §4 codes, changing nothing', async () => {
    const browser = await signIn('utlopt@minside.test');
    const before = await storage(accounts.utlopt);
    expectRefused(await reactivate(browser, { titleCode: 'ADR', email: good.email }), 400, 'REQUEST_MISSING_VALUES');
    expectRefused(await reactivate(browser, { ...good, email: '' }), 400, 'REQUEST_MISSING_VALUES');
    expectRefused(await reactivate(browser, { ...good, email: 'noen.andre@minside.test' }), 404, 'EMAIL_DOES_NOT_EXIST');
    expectRefused(await reactivate(browser, { ...good, spidId: 'demo-papir' }), 404, 'NO_SPID_FOUND');
    expectRefused(await reactivate(browser, { ...good, titleCode: 'VAR' }), 404, 'AMPS_RETURNED_NULL');
    expectRefused(await reactivate(browser, { ...good, ariaAccountNo: accounts.papir }), 404, 'NOT_FOUND');
    await app().database.rows(sql`update account set account_balance_ore = -29900 where aria_account_no = ${accounts.utlopt}`);
    expectRefused(await reactivate(browser, good), 409, 'ERROR_IN_CREATING_ACCOUNT', /kundeservice/);
    await app().database.rows(sql`update account set account_balance_ore = 0 where aria_account_no = ${accounts.utlopt}`);
    expect(await storage(accounts.utlopt)).toEqual(before);
  });

  interface InvoiceRow {
    aria_invoice_no: number;
    period_from: string;
    period_to: string;
    amount_ore: number;
    due_on: string;
    kid: string;
    paid_at: Date | null;
  }
  const invoicesOf = (accountNo: number) =>
    app().database.rows<InvoiceRow>(sql`
      select i.aria_invoice_no::int as aria_invoice_no, i.period_from::text as period_from, i.period_to::text as period_to, i.amount_ore, i.due_on::text as due_on, i.kid, i.paid_at
      from invoice i join subscription s on s.id = i.subscription_id where s.aria_account_no = ${accountNo} and s.title_code = 'ADR' order by i.period_from, i.aria_invoice_no`);
  /** Digital's price on a day, as the public price list gives it (an announced change included). */
  const digitalPriceOn = async (day: string) => {
    const plans = priceChangesResponseSchema.parse((await app().app.inject({ method: 'GET', url: '/api/plans/ADR' })).json()).plans;
    const digital = plans.find((plan) => plan.ariaPlanID === 'ADR-DIGITAL-M');
    if (!digital) throw new Error('ADR sells no Digital');
    return priceOn(digital, day);
  };
  let restarted: { on: string; periodEnd: string } | undefined;

  it('ok: utlopt starts again with a new period, billed at once; a second click finds an active subscription', async () => {
    const browser = await signIn('utlopt@minside.test');
    const day = today();
    const seeded = new Set((await invoicesOf(accounts.utlopt)).map((row) => row.aria_invoice_no));
    const response = await reactivate(browser, { ...good, spidId: 'demo-utlopt' });
    expect(response.status, response.body).toBe(200);
    const periodEnd = addMonths(day, 1);
    expect(response.json()).toMatchObject({ result: 'ok', message: 'Abonnementet ditt er startet igjen.', subscription: { instStatusCode: 1, cancelledAt: null, currentPeriodEnd: periodEnd } });
    restarted = { on: day, periodEnd };

    // The access starts today, and so does the bill: one invoice for the new period at the plan's price, due today.
    const price = await digitalPriceOn(day);
    const issued = (await invoicesOf(accounts.utlopt)).filter((row) => !seeded.has(row.aria_invoice_no));
    expect(issued).toMatchObject([{ period_from: day, period_to: addDays(periodEnd, -1), amount_ore: price, due_on: day, paid_at: null }]);
    const [invoice] = issued;
    // utlopt pays by card, but no card is stored that can be charged: the invoice waits like a giro, and the answer says so.
    expect(response.json<{ invoice: unknown }>().invoice).toEqual({
      ariaInvoiceNo: invoice?.aria_invoice_no,
      amountOre: price,
      periodFrom: day,
      periodTo: addDays(periodEnd, -1),
      dueOn: day,
      payment: 'invoice',
    });
    // …with the invoice e-mail: KID, account number and a pay-link.
    const mails = await app().database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = 'utlopt@minside.test'`);
    const mail = mails.find((row) => row.subject.includes(`ny faktura ${invoice?.aria_invoice_no}`))?.text ?? '';
    expect(mail).toContain(`KID: ${invoice?.kid}`);
    expect(mail).toContain('Vi har ikke et betalingskort vi kan trekke denne fakturaen fra.');
    expect(mail).toMatch(/\/betaling\?token=\S+/);

    const before = await storage(accounts.utlopt);
    expectRefused(await reactivate(browser, good), 409, 'USER_HAS_ACTIVE_SUB');
    expect(await storage(accounts.utlopt)).toEqual(before);
  });

  it('a cancelled subscription that still runs answers USER_IS_ACTIVE', async () => {
    const browser = await signIn('oppsagt@minside.test');
    expectRefused(await reactivate(browser, { ariaAccountNo: accounts.oppsagt, titleCode: 'ADR', email: 'oppsagt@minside.test' }), 409, 'USER_IS_ACTIVE', /angre oppsigelsen/);
    expect(await row(accounts.oppsagt)).toMatchObject({ inst_status_code: 2 });
  });

  // Last: it moves the clock.
  it('the renewal run bills the reactivated period no second time, and the next one RENEWAL_LEAD_DAYS before it ends', async () => {
    if (!restarted) throw new Error('needs the reactivation above');
    const { on, periodEnd } = restarted;
    const setToday = (day: string) => {
      state.offsetDays = calendarDaysBetween(on, day);
      expect(today()).toBe(day);
    };
    const periods = async () => (await invoicesOf(accounts.utlopt)).filter((row) => row.period_from >= on).map((row) => [row.period_from, row.amount_ore]);
    const first = await digitalPriceOn(on);
    for (const day of [on, addDays(periodEnd, -RENEWAL_LEAD_DAYS - 1)]) {
      setToday(day);
      await app().app.billingJobs.runRenewals();
      await app().app.billingJobs.runRenewals();
      expect(await periods()).toEqual([[on, first]]);
    }
    setToday(addDays(periodEnd, -RENEWAL_LEAD_DAYS));
    await Promise.all([app().app.billingJobs.runRenewals(), app().app.billingJobs.runRenewals()]);
    expect(await periods()).toEqual([
      [on, first],
      [periodEnd, await digitalPriceOn(periodEnd)],
    ]);
    state.offsetDays = 0;
  });
});

describe.each(testDatabases)('plan change ($name)', ({ name }) => {
  const { signIn, storage, expectRefused, row, today, app } = setup(name);
  const change = (browser: TestBrowser, accountNo: number, ariaPlanID: string) => browser.request('POST', subscriptionPath(accountNo, 'plan'), { json: { ariaPlanID } });

  it('lists the title’s plans with quotes; Ung is closed to those 34 and over, with Digital offered', async () => {
    const browser = await signIn('papir@minside.test');
    const response = await browser.request('GET', subscriptionPath(accounts.papir, 'plans'));
    expect(response.status, response.body).toBe(200);
    const options = response.json<{ options: { plan: { ariaPlanID: string }; quote: { kind: string }; unavailable: { code: string; message: string } | null }[] }>().options;
    expect(options.map((option) => option.plan.ariaPlanID)).toEqual([
      'ADR-DIGITAL-M',
      'ADR-DIGITAL-Y',
      'ADR-DIGITAL-FAMILIE-M',
      'ADR-KOMPLETT-M',
      'ADR-KOMPLETT-Q',
      'ADR-KOMPLETT-Y',
      'ADR-UNG-DIGITAL-M',
      'ADR-DIGITAL-HONNOR-M',
    ]);
    expect(options.find((option) => option.plan.ariaPlanID === 'ADR-KOMPLETT-M')?.quote.kind).toBe('current');
    expect(options.find((option) => option.plan.ariaPlanID === 'ADR-UNG-DIGITAL-M')?.unavailable).toEqual({
      code: 'UNG_AGE_LIMIT',
      message: 'Ung er for deg under 34 år. Digital passer for deg i stedet.',
    });
    expect(options.find((option) => option.plan.ariaPlanID === 'ADR-DIGITAL-M')?.unavailable).toBeNull();
  });

  it('refuses Ung for papir (58) and changes nothing', async () => {
    const browser = await signIn('papir@minside.test');
    const before = await storage(accounts.papir);
    expectRefused(await change(browser, accounts.papir, 'ADR-UNG-DIGITAL-M'), 409, 'UNG_AGE_LIMIT');
    expectRefused(await change(browser, accounts.papir, 'VAR-DIGITAL-M'), 400, 'UNKNOWN_PLAN');
    expectRefused(await change(browser, accounts.papir, 'ADR-KOMPLETT-M'), 409, 'SAME_PLAN');
    expect(await storage(accounts.papir)).toEqual(before);
  });

  it('ung (25) may choose Ung plans', async () => {
    const browser = await signIn('ung@minside.test');
    const options = (await browser.request('GET', subscriptionPath(accounts.ung, 'plans'))).json<{ options: { plan: { ariaPlanID: string }; unavailable: unknown }[] }>().options;
    expect(options.find((option) => option.plan.ariaPlanID === 'ADR-UNG-DIGITAL-M')?.unavailable).toBeNull();
  });

  it('upgrade: at once, prorated in whole kroner, invoiced and logged', async () => {
    const browser = await signIn('student@minside.test');
    const before = await storage(accounts.student);
    const periodEnd = String(before.row?.['period_end']);
    const daysLeft = Math.round((Date.parse(periodEnd) - Date.parse(today())) / 86_400_000);
    // Student digital 99 kr → Digital 299 kr a month: 200 kr * 12 / 365 a day.
    const expected = Math.round(((29_900 - 9_900) * 12 * daysLeft) / 365 / 100) * 100;
    const response = await change(browser, accounts.student, 'ADR-DIGITAL-M');
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      fromPlanName: 'Student digital',
      quote: { kind: 'upgrade', effectiveOn: today(), amountOre: expected, daysLeft },
      subscription: { ariaPlanID: 'ADR-DIGITAL-M', planName: 'Digital', priceOre: 29_900, currentPeriodEnd: periodEnd, pendingChange: null },
    });
    expect(expected % 100).toBe(0);
    expect(expected).toBeGreaterThan(0);
    const [invoice] = await app().database.rows<{ amount_ore: number; kid: string }>(
      sql`select amount_ore, kid from invoice where aria_account_no = ${accounts.student} order by aria_invoice_no desc limit 1`,
    );
    expect(invoice).toMatchObject({ amount_ore: expected });
    // The title's KID: its length and check digit, naming this invoice (issue 21).
    expect(readKid(invoice?.kid ?? '', defaultCatalogue.byTitleCode('ADR').bank)?.kind).toBe('invoice');
    const after = await storage(accounts.student);
    expect(after.invoices).toBe(before.invoices + 1);
    const [entry] = (await browser.request('GET', subscriptionPath(accounts.student, 'changes'))).json<{ entries: { kind: string; description: string }[] }>().entries;
    expect(entry?.description).toBe(`Byttet fra Student digital til Digital (månedlig). Mellomlegg for resten av perioden: ${expected / 100}\u00a0kr.`);
  });

  it('downgrade: from the period end ("pending plan change on a date"); choosing the current plan withdraws it', async () => {
    const browser = await signIn('student@minside.test');
    const periodEnd = String((await row(accounts.student))?.['period_end']);
    const response = await change(browser, accounts.student, 'ADR-UNG-DIGITAL-M');
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      quote: { kind: 'downgrade', effectiveOn: periodEnd, amountOre: 0 },
      subscription: { ariaPlanID: 'ADR-DIGITAL-M', pendingChange: { ariaPlanID: 'ADR-UNG-DIGITAL-M', planName: 'Ung digital', on: periodEnd } },
    });
    const withdrawn = await change(browser, accounts.student, 'ADR-DIGITAL-M');
    expect(withdrawn.status, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toMatchObject({ quote: { kind: 'current' }, subscription: { pendingChange: null } });
    expectRefused(await change(browser, accounts.student, 'ADR-DIGITAL-M'), 409, 'SAME_PLAN');
  });

  it('a trial keeps its month: the chosen plan starts when it ends', async () => {
    const browser = await signIn('prove@minside.test');
    const response = await change(browser, accounts.prove, 'ADR-KOMPLETT-M');
    expect(response.status, response.body).toBe(200);
    const periodEnd = String((await row(accounts.prove))?.['period_end']);
    expect(response.json()).toMatchObject({ quote: { kind: 'afterTrial', amountOre: 0 }, subscription: { instStatusCode: 41, pendingChange: { ariaPlanID: 'ADR-KOMPLETT-M', on: periodEnd } } });
  });

  it('a cancelled subscription restarts by choosing a plan', async () => {
    const browser = await signIn('oppsagt@minside.test');
    const response = await change(browser, accounts.oppsagt, 'ADR-DIGITAL-Y');
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({ quote: { kind: 'downgrade' }, subscription: { instStatusCode: 1, cancelledAt: null, pendingChange: { ariaPlanID: 'ADR-DIGITAL-Y' } } });
  });

  it('expired, shared and business subscriptions cannot change plan', async () => {
    const expired = await signIn('utlopt@minside.test');
    expectRefused(await change(expired, accounts.utlopt, 'ADR-DIGITAL-Y'), 409, 'TRANSITION_NOT_ALLOWED', 'Et avsluttet abonnement kan ikke endres. Start det på nytt først.');
    const admin = await signIn('admin@firma.test');
    expectRefused(await change(admin, accounts.admin, 'ADR-DIGITAL-Y'), 409, 'BUSINESS_CONTRACT');
    const member = await signIn('familiemedlem@minside.test');
    const before = await storage(accounts.familiemedlem);
    expectRefused(await change(member, accounts.familiemedlem, 'ADR-DIGITAL-Y'), 409, 'SHARED_ACCESS');
    expect(await storage(accounts.familiemedlem)).toEqual(before);
  });

  it('the price list is public, with the announced price changes', async () => {
    const anonymous = new TestBrowser(() => injectTransport(app().app));
    const response = await anonymous.request('GET', `${PORTAL}/api/plans/adr`);
    expect(response.status).toBe(200);
    const plans = response.json<{ plans: { ariaPlanID: string; priceOre: number; nextPrice: { priceOre: number; from: string } | null }[] }>().plans;
    const digital = plans.find((plan) => plan.ariaPlanID === 'ADR-DIGITAL-M');
    expect(digital).toMatchObject({ priceOre: 29_900, nextPrice: { priceOre: 32_900 } });
    const from = digital?.nextPrice?.from ?? '';
    expect(from > today()).toBe(true);
    expect(from.endsWith('-01')).toBe(true);
  });
});

describe.each(testDatabases)('plans with a minimum age: Digital Honnør from 67 ($name)', ({ name }) => {
  // 23:30 UTC: already tomorrow in Oslo, so an age counted on the UTC date would be a day late.
  const lateEvening = () => new Date(`${systemClock().toISOString().slice(0, 10)}T23:30:00Z`);
  const { signIn, storage, expectRefused, app, now, today } = setup(name, lateEvening);
  const HONNOR = 'ADR-DIGITAL-HONNOR-M';
  const refusal = { code: 'PLAN_MINIMUM_AGE', message: 'Digital Honnør gjelder for deg som er 67 år eller eldre.' };
  interface Option {
    plan: { ariaPlanID: string };
    unavailable: { code: string; message: string } | null;
  }
  const honnorOption = async (browser: TestBrowser, accountNo: number, titleCode = 'ADR', portal = PORTAL) => {
    const response = await browser.request('GET', `${portal}/api/subscription/${accountNo}/${titleCode}/plans`);
    expect(response.status, response.body).toBe(200);
    return response.json<{ options: Option[] }>().options.find((option) => option.plan.ariaPlanID === `${titleCode}-DIGITAL-HONNOR-M`);
  };
  const choose = (browser: TestBrowser, accountNo: number, ariaPlanID: string) => browser.request('POST', subscriptionPath(accountNo, 'plan'), { json: { ariaPlanID } });
  const setBirthdate = (email: string, birthdate: string | null) => app().database.rows(sql`update app_user set birthdate = ${birthdate} where email = ${email}`);

  it('every title sells it: 199 kr a month, digital, from 67', async () => {
    const response = await new TestBrowser(() => injectTransport(app().app)).request('GET', `${PORTAL}/api/plans/adr`);
    expect(response.status).toBe(200);
    const plan = response.json<{ plans: { ariaPlanID: string }[] }>().plans.find((candidate) => candidate.ariaPlanID === HONNOR);
    expect(plan).toMatchObject({ name: 'Digital Honnør', priceOre: 19_900, billingPeriod: 'MONTH', planProductType: 'DIGITAL', minimumAge: 67 });
  });

  it('ung (25) sees it as unavailable with the reason; choosing it is refused with 409 and changes nothing', async () => {
    const browser = await signIn('ung@minside.test');
    expect((await honnorOption(browser, accounts.ung))?.unavailable).toEqual(refusal);
    const before = await storage(accounts.ung);
    const response = await choose(browser, accounts.ung, HONNOR);
    expectRefused(response, 409, refusal.code, refusal.message);
    expect(response.json()).toEqual(refusal);
    expect(await storage(accounts.ung)).toEqual(before);
  });

  it.each(['papir', 'digital', 'student', 'oppsagt', 'prove'] as const)('%s (under 67) sees it as unavailable and cannot choose it', async (persona) => {
    const browser = await signIn(`${persona}@minside.test`);
    expect((await honnorOption(browser, accounts[persona]))?.unavailable).toEqual(refusal);
    const before = await storage(accounts[persona]);
    expectRefused(await choose(browser, accounts[persona], HONNOR), 409, refusal.code);
    expect(await storage(accounts[persona])).toEqual(before);
  });

  it('without a birthdate it asks for one, naming the plan, and changes nothing', async () => {
    const browser = await signIn('digital@minside.test');
    await setBirthdate('digital@minside.test', null);
    const expected = { code: 'BIRTHDATE_REQUIRED', message: 'Vi trenger fødselsdatoen din for å vite om du kan ha Digital Honnør. Legg den inn under Endre profil.' };
    expect((await honnorOption(browser, accounts.digital))?.unavailable).toEqual(expected);
    const before = await storage(accounts.digital);
    expectRefused(await choose(browser, accounts.digital, HONNOR), 409, expected.code, expected.message);
    expect(await storage(accounts.digital)).toEqual(before);
  });

  it('the 67th birthday counts by the Oslo calendar: open on the day, closed the day before', async () => {
    expect(today()).toBe(addDays(now().toISOString().slice(0, 10), 1));
    const browser = await signIn('prove@minside.test');
    await setBirthdate('prove@minside.test', addDays(addMonths(today(), -12 * 67), 1));
    expect((await honnorOption(browser, accounts.prove))?.unavailable).toMatchObject({ code: 'PLAN_MINIMUM_AGE' });
    await setBirthdate('prove@minside.test', addMonths(today(), -12 * 67));
    expect((await honnorOption(browser, accounts.prove))?.unavailable).toBeNull();
  });

  it('varden (67) may choose it: a cheaper plan, from the period end', async () => {
    const portal = 'http://varden.localhost:3000';
    const browser = await signIn('varden@minside.test', portal, 'VAR');
    expect((await honnorOption(browser, accounts.varden, 'VAR', portal))?.unavailable).toBeNull();
    const response = await browser.request('POST', `${portal}/api/subscription/${accounts.varden}/VAR/plan`, { json: { ariaPlanID: 'VAR-DIGITAL-HONNOR-M' } });
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({ quote: { kind: 'downgrade', amountOre: 0 }, subscription: { pendingChange: { ariaPlanID: 'VAR-DIGITAL-HONNOR-M', planName: 'Digital Honnør' } } });
  });
});
