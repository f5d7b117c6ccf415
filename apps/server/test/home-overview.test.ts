import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeAgenda, osloToday, systemClock, type HomeOverview, type Subscription } from '@minside/domain';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser } from './browser.ts';

// Issue 25.10: the home page's facts in one call, for the session's subscription, with only
// the parts the subscriber's situation calls for; and what they mean (homeAgenda).

const PORTAL = 'http://adresseavisen.localhost:3000';

describe.each(testDatabases)('GET /api/overview ($name)', ({ name }) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true });
  });
  afterAll(() => test.close());

  async function signIn(email: string): Promise<TestBrowser> {
    const browser = new TestBrowser(() => injectTransport(test.app));
    const response = await login(browser, { portal: PORTAL, email, password: DEMO_PASSWORD, titleCode: 'ADR' });
    expect(response.status, response.body).toBe(200);
    return browser;
  }

  async function overviewOf(email: string): Promise<{ overview: HomeOverview; subscription: Subscription }> {
    const browser = await signIn(email);
    const response = await browser.request('GET', `${PORTAL}/api/overview?titleCode=ADR`);
    expect(response.status, response.body).toBe(200);
    const session = (await browser.request('GET', `${PORTAL}/api/session?titleCode=ADR`)).json<{ subscription: Subscription }>();
    return { overview: response.json<HomeOverview>(), subscription: session.subscription };
  }

  it('papir: the delivery address, AvtaleGiro confirmed, and the unpaid invoice is a coming draw, not an alarm', async () => {
    const { overview, subscription } = await overviewOf('papir@minside.test');
    expect(overview.delivery?.address).toMatchObject({ name: 'Kari Nordmann', street: 'Kongens gate', postalCode: '7011', town: 'Trondheim' });
    expect(overview.payment).toMatchObject({ method: 'AVTALEGIRO', avtaleGiroStatus: 'ACTIVE', failedChargeInvoiceNos: [] });
    expect(overview.payment?.openInvoices).toHaveLength(1);
    const agenda = homeAgenda(subscription, overview, osloToday(systemClock()));
    expect(agenda.attention).toEqual([]);
    expect(agenda.nextPayment).toMatchObject({ kind: 'scheduledDraw', on: overview.payment?.openInvoices[0]?.dueOn });
  });

  it('digital: no delivery part, the next charge from the card on the renewal day', async () => {
    const { overview, subscription } = await overviewOf('digital@minside.test');
    expect(overview.delivery).toBeNull();
    expect(overview.payment).toMatchObject({ method: 'CARD', openInvoices: [] });
    expect(homeAgenda(subscription, overview, osloToday(systemClock())).nextPayment).toEqual({ kind: 'nextCharge', on: subscription.currentPeriodEnd, amountOre: 29_900, method: 'CARD' });
  });

  it('prove (the 1 kr month): the regular price follows the offer, on the day the offer ends', async () => {
    const { overview, subscription } = await overviewOf('prove@minside.test');
    expect(subscription).toMatchObject({ instStatusCode: 41, priceOre: 29_900, introductoryPrice: { priceOre: 100, months: 1, endsOn: subscription.currentPeriodEnd } });
    expect(homeAgenda(subscription, overview, osloToday(systemClock())).nextPayment).toMatchObject({ kind: 'nextCharge', on: subscription.currentPeriodEnd, amountOre: 29_900 });
  });

  it('a family member sees no money and no delivery; the owner sees the invitation waiting', async () => {
    expect((await overviewOf('familiemedlem@minside.test')).overview).toEqual({ delivery: null, payment: null, pendingInvitations: 0 });
    const owner = await overviewOf('familie@minside.test');
    expect(owner.overview.pendingInvitations).toBe(1);
    expect(homeAgenda(owner.subscription, owner.overview, osloToday(systemClock())).attention).toEqual([{ kind: 'pendingInvitations', count: 1 }]);
  });

  it('a failed charge and an overdue invoice need the subscriber', async () => {
    const { overview: before } = await overviewOf('digital@minside.test');
    expect(before.payment?.openInvoices).toEqual([]);
    // The next period's invoice, overdue, and the renewal's charge of it that failed.
    await test.database.rows(sql`insert into invoice (aria_invoice_no, aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
      values (89000001, 40000002, 'demo-digital-adr', '000000890000011', 29900, 'Digital', current_date - 3, current_date + 27, current_date - 5, '1503.12.34567')`);
    await test.database
      .rows(sql`insert into payment (id, idempotency_key, purpose, method, amount_ore, status, aria_account_no, subscription_id, aria_invoice_no, provider, return_url, created_at, updated_at)
      values ('failed-renewal-test', 'renewal:89000001', 'RENEWAL', 'SWEDBANK-PPG', 29900, 'FAILED', 40000002, 'demo-digital-adr', 89000001, 'test', '/', now(), now())`);
    const { overview, subscription } = await overviewOf('digital@minside.test');
    expect(overview.payment).toMatchObject({ failedChargeInvoiceNos: [89000001], openInvoices: [expect.objectContaining({ ariaInvoiceNo: 89000001, status: 'OVERDUE' })] });
    expect(homeAgenda(subscription, overview, osloToday(systemClock())).attention).toEqual([{ kind: 'failedCharge', invoice: expect.objectContaining({ ariaInvoiceNo: 89000001 }) }]);
  });

  it('without a session: 401; without a subscription at the title: 404', async () => {
    const anonymous = new TestBrowser(() => injectTransport(test.app));
    expect((await anonymous.request('GET', `${PORTAL}/api/overview?titleCode=ADR`)).status).toBe(401);
    const varden = await signIn('papir@minside.test');
    const response = await varden.request('GET', `${PORTAL}/api/overview?titleCode=VAR`);
    expect(response.status).toBe(404);
  });
});
