import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { addDays, osloToday, systemClock } from '@minside/domain';
import type { RouteEntry } from '../src/plugins/route-table.ts';
import type { Database } from '../src/db/client.ts';
import { DEMO_PASSWORD, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';
import { issueDaysOf } from './support.ts';
import { defaultCatalogue } from '@minside/titles';
import { einvoiceRecipient } from '../src/db/schema.ts';
import { insertInvoice } from '../src/modules/billing/issue-invoice.ts';

// Shared by the security suites (authorization matrix, web security, fuzzing): the route
// table, one fixture per /api route, and a snapshot of every table to prove "nothing changed".

export const PORTAL = 'http://adresseavisen.localhost:3000';
export const OPERATOR_TOKEN = 'operator-token-for-the-security-suites-0123456789';

export const personas = {
  papir: { email: 'papir@minside.test', accountNo: 40_000_001 },
  digital: { email: 'digital@minside.test', accountNo: 40_000_002 },
  familie: { email: 'familie@minside.test', accountNo: 40_000_004 },
  admin: { email: 'admin@firma.test', accountNo: 40_000_006 },
} as const;
export type Persona = keyof typeof personas;

/** `GET /api/x/:id` — the key of the fixture and access tables. */
export const routeKey = (route: Pick<RouteEntry, 'method' | 'url'>) => `${route.method} ${route.url}`;

/** Every /api route except the HEAD twins of GETs (Fastify adds them; same handler). */
export function apiRoutes(test: TestApp): RouteEntry[] {
  return test.app.routeTable().filter((route) => route.url.startsWith('/api/') && route.method !== 'HEAD');
}

/**
 * Routes anyone may call without a session, each with the reason. Reviewed: adding a route
 * here is a decision that the route exposes nothing personal without a token of its own.
 */
export const publicRoutes: Record<string, string> = {
  'GET /api/docs': 'the OpenAPI description of the API; no data',
  'GET /api/title/:id': 'the public title catalogue',
  'POST /api/retrieveTitleCode': 'title resolution from the URL, before login',
  'POST /api/maintenanceTitle': 'maintenance state of a title, before login',
  'GET /api/loginToken': 'starts the login',
  'GET /api/login/start': 'starts the login from a plain link (the header’s "Logg inn"), as loginToken',
  'GET /api/login/return': 'where a login this browser started returns to (login token + login-binding cookie are the credential)',
  'POST /api/handlecode': 'finishes the login (code + state + login-binding cookie are the credential)',
  'POST /api/handleLoginToken': 'finishes the login (same as handlecode)',
  'POST /api/logout': 'ending a session that is not there is harmless',
  'GET /api/login/issuers': 'the ways to log in, for the login page',
  'POST /api/login/choose': 'picks the issuer of a login this browser started (login token + login-binding cookie are the credential)',
  'GET /api/plans/:titleCode': 'public price list',
  'GET /api/paylink/:token': 'pay-link from an invoice e-mail; the signed token is the credential',
  'POST /api/paylink/:token/payment': 'pay-link payment; the signed token is the credential',
  'GET /api/payment/:paymentId': "the payer's session or the pay-link token; 404 otherwise",
  'POST /api/payment/callback/vipps': "Vipps MobilePay's server-to-server webhook (signed with our registration's secret)",
  'GET /api/order/offers': 'the public shop',
  'GET /api/winback': 'win-back offer; the signed token is the credential',
  'GET /api/client-config': 'public client settings (consent vendor ids)',
  'GET /api/student/info': 'the list of accepted student e-mail domains',
  'GET /api/content/:kind/:page': 'terms, policy and customer-service pages',
};

/** Routes for operators: bearer OPERATOR_TOKEN, no session. */
export const operatorRoutes = new Set([
  'GET /api/operator/delivery-feed',
  'POST /api/operator/paylink',
  'POST /api/operator/invoice/:ariaInvoiceNo/credit',
  'POST /api/operator/winback-link',
  'POST /api/operator/jobs/data-export',
  'POST /api/operator/jobs/data-erasure',
  'POST /api/segment/:id/message',
  'GET /api/operator/jobs',
  'POST /api/operator/jobs/:name/run',
  'POST /api/operator/bank-files',
  'GET /api/operator/bank-files/avtalegiro-claims',
  'GET /api/operator/bank-files/settlement',
  'GET /api/operator/bank-files/reconciliation',
]);

/** Ids of the owners' things, made or looked up once the demo data is seeded. */
export interface Seeded {
  papirInvoiceNo: number;
  /** A credit note of papir's (issue 23). */
  creditNoteNumber: number;
  /** An invoice of admin's company issued as EHF (issue 23). */
  ehfInvoiceNo: number;
  deliveryChangeId: string;
  exportId: string;
  paymentId: string;
  today: string;
}

export interface Fixture {
  /** Path parameter values. */
  params?: Record<string, string | number>;
  query?: string;
  body?: unknown;
  /** Whose thing the route addresses (papir unless told). */
  owner?: Persona;
  /** The route names a thing of the owner's (account, invoice, ...): another subscriber must get 403/404. */
  owned?: boolean;
  /** Why the owner is not called in the matrix (the call would end the session or the account). */
  skipOwner?: string;
}

const ADR = 'titleCode=ADR';

/** One fixture per /api route. A route without one fails the matrix: decide what it needs. */
export function fixtures(seeded: Seeded): Record<string, Fixture> {
  const papirNo = personas.papir.accountNo;
  const stop = { type: 'STOP', fromDate: addDays(seeded.today, 21), toDate: addDays(seeded.today, 25), address: null };
  return {
    'GET /api/docs': {},
    'GET /api/title/:id': { params: { id: 'ADR' } },
    'POST /api/retrieveTitleCode': { body: { minsideUrl: PORTAL } },
    'POST /api/maintenanceTitle': { body: { minsideUrl: PORTAL } },
    'GET /api/loginToken': { query: ADR },
    'GET /api/login/start': { query: ADR },
    'GET /api/login/return': { query: `state=${'x'.repeat(43)}` },
    'POST /api/handlecode': { body: { code: 'x', state: 'y' } },
    'POST /api/handleLoginToken': { body: { code: 'x', state: 'y' } },
    'GET /api/session': { query: ADR },
    'POST /api/logout': { body: {}, skipOwner: 'ends the session the matrix uses' },
    'GET /api/login/issuers': {},
    'POST /api/login/choose': { body: { loginToken: 'x', issuer: 'account' } },
    'GET /api/profile/logins': {},
    'DELETE /api/profile/logins/:issuer': { params: { issuer: 'vipps' }, body: {} },
    'GET /api/account/:id': { params: { id: papirNo }, owned: true },
    'POST /api/account': { body: { accountBalance: 0, firstTitleCode: 'ADR' } },
    'PUT /api/account': { body: { ariaAccountNo: papirNo, firstTitleCode: 'ADR' }, owned: true },
    'PUT /api/account/assign': { query: ADR, body: { requestId: randomUUID(), code: '000000' } },
    'GET /api/subscription/:accountNo/:titleCode': { params: { accountNo: papirNo, titleCode: 'ADR' }, owned: true },
    'DELETE /api/deleteSubscription': {
      body: { ariaAccountNo: papirNo, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'OTHER', reasonText: 'Test' },
      owned: true,
      skipOwner: 'would cancel the subscription the other routes read',
    },
    'POST /api/reactivateSubscription': { body: { ariaAccountNo: papirNo, titleCode: 'ADR', email: personas.papir.email }, owned: true },
    'POST /api/reactivateSubscription/': { body: { ariaAccountNo: papirNo, titleCode: 'ADR', email: personas.papir.email }, owned: true },
    'POST /api/subscription/:accountNo/:titleCode/undo-cancellation': { params: { accountNo: papirNo, titleCode: 'ADR' }, body: {}, owned: true },
    'GET /api/subscription/:accountNo/:titleCode/withdrawal': { params: { accountNo: papirNo, titleCode: 'ADR' }, owned: true },
    // papir@ bought nothing here: the owner's call is refused (WITHDRAWAL_NOT_AVAILABLE) and ends nothing.
    'POST /api/subscription/:accountNo/:titleCode/withdrawal': { params: { accountNo: papirNo, titleCode: 'ADR' }, body: {}, owned: true },
    'GET /api/subscription/:accountNo/:titleCode/retention-offer': { params: { accountNo: papirNo, titleCode: 'ADR' }, owned: true },
    'GET /api/subscription/:accountNo/:titleCode/plans': { params: { accountNo: papirNo, titleCode: 'ADR' }, owned: true },
    'POST /api/subscription/:accountNo/:titleCode/plan': { params: { accountNo: papirNo, titleCode: 'ADR' }, body: { ariaPlanID: 'ADR-FINNES-IKKE' }, owned: true },
    'GET /api/subscription/:accountNo/:titleCode/changes': { params: { accountNo: papirNo, titleCode: 'ADR' }, owned: true },
    'GET /api/subscription/:accountNo/:titleCode/paymentMethod': { params: { accountNo: papirNo, titleCode: 'ADR' }, owned: true },
    'PUT /api/subscription/paymentMethod': { body: { ariaAccountNo: papirNo, titleCode: 'ADR', method: 'BANKGIRO', idempotencyKey: randomUUID() }, owned: true },
    'PUT /api/subscription/card': { body: { ariaAccountNo: papirNo, titleCode: 'ADR', idempotencyKey: randomUUID() }, owned: true },
    'POST /api/addDiscount': { body: { ariaAccountNo: papirNo, titleCode: 'ADR', discountCode: 'FINNES-IKKE' }, owned: true },
    'POST /api/getDiscountDetails': { body: { ariaAccountNo: papirNo, titleCode: 'ADR' }, owned: true },
    'GET /api/plans/:titleCode': { params: { titleCode: 'ADR' } },
    'GET /api/profile': {},
    'PUT /api/profile': { body: { givenName: 'Kari', familyName: 'Nordmann', phoneNumber: '+4791234567', birthdate: '1970-01-01' } },
    'POST /api/profile/email-change': { body: { newEmail: 'ny.adresse@minside.test', password: 'feil-passord' } },
    'POST /api/profile/email-change/confirm': { body: { token: 'finnes-ikke' } },
    'GET /api/family': { query: ADR },
    'GET /api/overview': { query: ADR },
    'POST /api/family/invitations': { query: ADR, body: { email: 'ugyldig' } },
    'POST /api/family/invitations/:id/resend': { query: ADR, params: { id: 'demo-member-familie-invitasjon' }, body: {}, owner: 'familie', owned: true },
    'DELETE /api/family/invitations/:id': { query: ADR, params: { id: 'demo-member-familie-invitasjon' }, body: {}, owner: 'familie', owned: true, skipOwner: 'would remove the seeded invitation' },
    'POST /api/family/leave': { query: ADR, body: {} },
    'GET /api/family/invitation': { query: 'token=finnes-ikke' },
    'POST /api/family/invitation/accept': { body: { token: 'finnes-ikke' } },
    'POST /api/segment/:id/message': { params: { id: 'segment-1' }, body: { titleCode: 'ADR', issueDate: seeded.today, postalCodes: ['7010'], message: 'Test' } },
    'GET /api/operator/delivery-feed': { query: `title=ADR&date=${seeded.today}` },
    // A bank file is text/plain: a JSON body (what the matrix and the fuzz send) is refused with 415 before anything is read.
    'POST /api/operator/bank-files': { body: { file: 'NY000010' } },
    'GET /api/operator/bank-files/avtalegiro-claims': { query: `date=${seeded.today}` },
    'GET /api/operator/bank-files/settlement': { query: `date=${seeded.today}` },
    'GET /api/operator/bank-files/reconciliation': {},
    'GET /api/complaintcodes': {},
    'GET /api/delivery/postal-codes/:postalCode': { params: { postalCode: '7010' } },
    'GET /api/delivery/calendar': { query: ADR },
    'GET /api/delivery/changes': { query: ADR },
    'POST /api/delivery/changes': { query: ADR, body: { ...stop, fromDate: addDays(seeded.today, 40), toDate: addDays(seeded.today, 42) } },
    'PUT /api/delivery/changes/:id': { query: ADR, params: { id: seeded.deliveryChangeId }, body: stop, owned: true },
    'DELETE /api/delivery/changes/:id': { query: ADR, params: { id: seeded.deliveryChangeId }, body: {}, owned: true, skipOwner: 'would cancel the change the PUT row uses' },
    'GET /api/delivery/address': { query: ADR },
    'POST /api/delivery/address': { query: ADR, body: {} },
    'GET /api/delivery/notices': { query: ADR },
    'GET /api/delivery/complaints/options': { query: ADR },
    'POST /api/delivery/complaints': { query: ADR, body: {} },
    'GET /api/business/members': { query: ADR, owner: 'admin' },
    'GET /api/business/members/export': { query: ADR, owner: 'admin' },
    'GET /api/business/einvoice': { query: ADR, owner: 'admin' },
    'PUT /api/business/einvoice': { query: ADR, body: { organizationNumber: 'ugyldig' }, owner: 'admin' },
    'DELETE /api/business/einvoice': { query: ADR, body: {}, owner: 'admin' },
    'POST /api/business/invitations': { query: ADR, body: { emails: 'ugyldig' }, owner: 'admin' },
    'POST /api/business/invitations/:id/resend': {
      query: ADR,
      params: { id: 'demo-member-bedrift-invitasjon' },
      body: {},
      owner: 'admin',
      owned: true,
      skipOwner: 'would mail the seeded invitation again',
    },
    'DELETE /api/business/invitations/:id': { query: ADR, params: { id: 'demo-member-bedrift-invitasjon' }, body: {}, owner: 'admin', owned: true, skipOwner: 'would withdraw the seeded invitation' },
    'POST /api/business/members/remove': { query: ADR, body: { ids: ['demo-member-ansatt'] }, owner: 'admin', owned: true, skipOwner: 'would remove the seeded employee' },
    'POST /api/business/verification': { query: ADR, body: { email: 'ugyldig' } },
    'POST /api/business/verification/confirm': { query: ADR, body: { email: 'a@firma.test', code: '000000' } },
    'POST /api/student-email': { query: ADR, body: { email: 'ugyldig' } },
    'POST /api/student-email/': { query: ADR, body: { email: 'ugyldig' } },
    'POST /api/activate-student-subscription': { query: ADR, body: { email: 'a@student.test', code: '000000' } },
    'POST /api/activate-student-subscription/': { query: ADR, body: { email: 'a@student.test', code: '000000' } },
    'GET /api/student/status': {},
    'GET /api/student/info': { query: ADR },
    'GET /api/invoice/:accountNo': { params: { accountNo: papirNo }, owned: true },
    'GET /api/invoice/:accountNo/:ariaInvoiceNo/pdf': { params: { accountNo: papirNo, ariaInvoiceNo: seeded.papirInvoiceNo }, owned: true },
    'GET /api/invoice/:accountNo/credit-notes': { params: { accountNo: papirNo }, owned: true },
    'GET /api/invoice/:accountNo/credit-notes/:number/pdf': { params: { accountNo: papirNo, number: seeded.creditNoteNumber }, owned: true },
    'GET /api/invoice/:accountNo/documents/:number/ehf': { params: { accountNo: personas.admin.accountNo, number: seeded.ehfInvoiceNo }, owner: 'admin', owned: true },
    'POST /api/invoice/:ariaInvoiceNo/payment': { params: { ariaInvoiceNo: seeded.papirInvoiceNo }, body: { method: 'VIPPS', idempotencyKey: randomUUID() }, owned: true },
    'GET /api/payment/:paymentId': { params: { paymentId: seeded.paymentId }, owned: true },
    'GET /api/paylink/:token': { params: { token: 'ugyldig' } },
    'POST /api/paylink/:token/payment': { params: { token: 'ugyldig' }, body: { method: 'VIPPS', idempotencyKey: randomUUID() } },
    'POST /api/payment/callback/vipps': { body: {} },
    'POST /api/operator/paylink': { body: { ariaInvoiceNo: seeded.papirInvoiceNo } },
    // A number no invoice has: proves the token is required without crediting a seeded invoice.
    'POST /api/operator/invoice/:ariaInvoiceNo/credit': { params: { ariaInvoiceNo: 1 }, body: { reason: 'Sikkerhetstest' } },
    'POST /api/operator/winback-link': { body: { ariaAccountNo: papirNo, titleCode: 'ADR' } },
    'GET /api/order/offers': { query: ADR },
    'GET /api/winback': { query: 'token=ugyldig' },
    'POST /api/order': { query: ADR, body: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-FINNES-IKKE' } },
    // No order is seeded; an unknown id still proves 401 without a session.
    'GET /api/order/:orderId': { params: { orderId: randomUUID() } },
    'POST /api/order/:orderId/payment': { params: { orderId: randomUUID() }, body: { method: 'VIPPS' } },
    'POST /api/order/:orderId/cancel': { params: { orderId: randomUUID() }, body: {} },
    'POST /api/search-account': { query: ADR, body: { ariaAccountNo: 40_000_099, postalCode: '0000' } },
    'POST /api/verify': { body: { requestId: randomUUID(), code: '000000' } },
    'POST /api/verify/': { body: { requestId: randomUUID(), code: '000000' } },
    'GET /api/consent': {},
    'PUT /api/consent': { body: { choices: { analytics: false, marketing: false, personalisation: false }, source: 'settings' } },
    'GET /api/client-config': { query: ADR },
    'GET /api/consent/permissions': {},
    'PUT /api/consent/permissions': { body: { permissions: { marketingSms: false } } },
    'GET /api/content/:kind/:page': { params: { kind: 'terms', page: 'brukervilkar' } },
    'GET /api/privacy/export': {},
    'POST /api/privacy/export': { body: {} },
    'GET /api/privacy/export/:id/download': { params: { id: seeded.exportId }, owned: true },
    'GET /api/privacy/deletion': {},
    'POST /api/privacy/deletion': { body: { confirmConsequences: false, confirmPaymentHistory: false } },
    'POST /api/operator/jobs/data-export': { body: {} },
    'POST /api/operator/jobs/data-erasure': { body: {} },
    'GET /api/operator/jobs': {},
    'POST /api/operator/jobs/:name/run': { params: { name: 'finnes-ikke' }, body: {} },
  };
}

/** Builds the request URL of a route from its fixture. */
export function urlOf(route: Pick<RouteEntry, 'url'>, fixture: Fixture, origin = PORTAL): string {
  const path = route.url.replace(/:(\w+)/g, (_match, name: string) => {
    const value = fixture.params?.[name];
    if (value === undefined) throw new Error(`fixture of ${route.url} has no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  return `${origin}${path}${fixture.query ? `?${fixture.query}` : ''}`;
}

/** A same-origin JSON call, as the SPA makes it. */
export function call(browser: TestBrowser, route: Pick<RouteEntry, 'method' | 'url'>, fixture: Fixture, headers: Record<string, string> = {}): Promise<BrowserResponse> {
  const json = route.method === 'GET' ? undefined : (fixture.body ?? {});
  return browser.request(route.method, urlOf(route, fixture), { ...(json === undefined ? {} : { json }), headers: { 'sec-fetch-site': 'same-origin', ...headers } });
}

export const anonymous = (test: TestApp) => new TestBrowser(() => injectTransport(test.app));

export async function signIn(test: TestApp, persona: Persona): Promise<TestBrowser> {
  const browser = anonymous(test);
  const response = await login(browser, { portal: PORTAL, email: personas[persona].email, password: DEMO_PASSWORD, titleCode: 'ADR' });
  expect(response.status, response.body).toBe(200);
  return browser;
}

/** Makes the owners' things the fixtures point at (no delivery change, export or payment is seeded). */
export async function prepareSeeded(test: TestApp, papir: TestBrowser): Promise<Seeded> {
  const now = systemClock();
  const today = osloToday(now);
  const [invoiceRow] = await test.database.rows<{ no: string }>(
    sql`select aria_invoice_no::text as no from invoice where aria_account_no = ${personas.papir.accountNo} and paid_at is null order by aria_invoice_no desc limit 1`,
  );
  if (!invoiceRow) throw new Error('papir has no unpaid invoice in the demo data');
  const papirInvoiceNo = Number(invoiceRow.no);
  const change = await papir.request('POST', `${PORTAL}/api/delivery/changes?titleCode=ADR`, {
    // A stop of five issues, two weeks after the first issue that can still be changed.
    json: (() => {
      const issues = issueDaysOf('ADR', now);
      const fromDate = issues.issueAfter(addDays(issues.firstChangeable, 14), 0);
      return { type: 'STOP', fromDate, toDate: issues.issueAfter(fromDate, 4), address: null };
    })(),
  });
  expect(change.status, change.body).toBe(201);
  const deliveryChangeId = change.json<{ id: string }>().id;
  const exported = await papir.request('POST', `${PORTAL}/api/privacy/export`, { json: {} });
  expect(exported.status, exported.body).toBeLessThan(300);
  const exportId = exported.json<{ id: string }>().id;
  const paid = await papir.request('POST', `${PORTAL}/api/invoice/${papirInvoiceNo}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
  expect(paid.status, paid.body).toBe(200);
  const paymentId = paid.json<{ paymentId: string }>().paymentId;
  // A credit note of papir's, and an invoice of admin's company as EHF (issue 23), made as the product makes them.
  const issue = (ariaAccountNo: number, subscriptionId: string) =>
    test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        { ariaAccountNo, subscriptionId, amountOre: 10_000, description: 'Sikkerhetstest', periodFrom: addDays(today, 40), periodTo: addDays(today, 69), dueOn: addDays(today, 30) },
        now,
      ),
    );
  const credited = await issue(personas.papir.accountNo, 'demo-papir-adr');
  const { creditNoteNumber } = await test.app.invoiceCrediting.creditInvoice(credited.ariaInvoiceNo, 'Sikkerhetstest');
  const [business] = await test.database.rows<{ id: string }>(sql`select id from subscription where aria_account_no = ${personas.admin.accountNo} and title_code = 'ADR'`);
  if (!business) throw new Error('admin has no company subscription in the demo data');
  await test.database.db
    .insert(einvoiceRecipient)
    .values({ subscriptionId: business.id, organizationNumber: '962806112', companyName: 'Firma AS', street: 'Kongens gate 1', postalCode: '7011', town: 'Trondheim', updatedAt: now });
  const ehfInvoiceNo = (await issue(personas.admin.accountNo, business.id)).ariaInvoiceNo;
  return { papirInvoiceNo, creditNoteNumber, ehfInvoiceNo, deliveryChangeId, exportId, paymentId, today };
}

const snapshotQueries = new WeakMap<Database, Promise<string>>();

/** One statement that counts and checksums every table (rows ordered by primary key). */
async function snapshotQuery(database: Database): Promise<string> {
  const tables = await database.rows<{ name: string; pk: string | null }>(sql`
    select t.table_name as name,
      (select string_agg(quote_ident(k.column_name), ',' order by k.ordinal_position)
         from information_schema.table_constraints c
         join information_schema.key_column_usage k on k.constraint_name = c.constraint_name and k.table_schema = c.table_schema
        where c.table_schema = 'public' and c.table_name = t.table_name and c.constraint_type = 'PRIMARY KEY') as pk
    from information_schema.tables t
    where t.table_schema = 'public' and t.table_type = 'BASE TABLE'
    order by 1`);
  return tables
    .map(({ name, pk }) => `select '${name}' as name, count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by ${pk ?? '1'})), '') as sum from "${name}" t`)
    .join(' union all ');
}

/** Every table's row count and an md5 of its rows ordered by primary key. */
export async function snapshot(database: Database, options: { except?: string[] } = {}): Promise<Record<string, string>> {
  let query = snapshotQueries.get(database);
  if (!query) snapshotQueries.set(database, (query = snapshotQuery(database)));
  const rows = await database.rows<{ name: string; sum: string }>(sql.raw(await query));
  const result: Record<string, string> = {};
  for (const { name, sum } of rows) if (!options.except?.includes(name)) result[name] = sum;
  return result;
}
