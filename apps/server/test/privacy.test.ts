import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, TestBrowser } from './browser.ts';
import { countOf, signIn as signInAs } from './support.ts';

// Issue 9 data rights and consent pages: the export zip holds what we know about the user and
// only its owner downloads it, for 7 days; deletion needs both confirmations, cancels the
// subscription, and the job erases the person — the login stops working — while invoices and
// payments stay without a name. The consent-page permissions keep their history.

const PORTAL = 'http://adresseavisen.localhost:3000';
const OPERATOR_TOKEN = 'privacy-test-operator-token-0123456789abcdef';

interface ExportBody {
  id: string;
  status: string;
  downloadUrl: string | null;
  expiresAt: string | null;
}

describe.each(testDatabases)('privacy ($name)', ({ name }) => {
  let test: TestApp;
  let clock = new Date('2026-03-02T10:00:00Z');
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now: () => clock, config: { operatorToken: OPERATOR_TOKEN } });
  });
  afterAll(() => test.close());

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  const download = (browser: TestBrowser, url: string) => {
    const cookie = [...browser.cookies(new URL(PORTAL).host)].map(([key, value]) => `${key}=${value}`).join('; ');
    return test.app.inject({ method: 'GET', url, headers: { host: new URL(PORTAL).host, cookie } });
  };
  const operator = (path: string, token = OPERATOR_TOKEN) =>
    test.app.inject({ method: 'POST', url: path, headers: { host: 'localhost', 'content-type': 'application/json', authorization: `Bearer ${token}` }, payload: '{}' });
  const count = (query: ReturnType<typeof sql>) => countOf(test, query);

  describe('data export', () => {
    it('needs a session', async () => {
      const anonymous = new TestBrowser(() => injectTransport(test.app));
      expect((await anonymous.request('POST', `${PORTAL}/api/privacy/export`, { json: {} })).status).toBe(401);
      expect((await anonymous.request('GET', `${PORTAL}/api/privacy/export`)).status).toBe(401);
    });

    it('builds a zip at once with the subscription, invoices and masked payment methods, and mails that it is ready', async () => {
      const browser = await signIn('digital@minside.test');
      const created = await browser.request('POST', `${PORTAL}/api/privacy/export`, { json: {} });
      expect(created.status, created.body).toBe(200);
      const body = created.json<ExportBody>();
      expect(body.status).toBe('ready');
      expect(body.expiresAt).toBe('2026-03-09T10:00:00.000Z');
      expect(body.downloadUrl).toBe(`/api/privacy/export/${body.id}/download`);

      const response = await download(browser, body.downloadUrl ?? '');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="minside-data-2026-03-02\.zip"$/);
      const files = unzipSync(new Uint8Array(response.rawPayload));
      expect(Object.keys(files).sort()).toEqual(['LESMEG.txt', 'minside-data.json']);
      const data = JSON.parse(strFromU8(files['minside-data.json'] ?? new Uint8Array())) as {
        profile: Record<string, unknown>;
        subscriptions: { ariaPlanID: string }[];
        invoices: { ariaInvoiceNo: number; kid: string }[];
        paymentMethods: { cardNumber: string | null }[];
        mail: unknown[];
      };
      expect(data.profile).toMatchObject({ email: 'digital@minside.test', givenName: 'Ola', familyName: 'Hansen', spidId: 'demo-digital' });
      expect(data.subscriptions.map((row) => row.ariaPlanID)).toEqual(['ADR-DIGITAL-M']);
      const invoices = await count(sql`select count(*) as n from invoice where aria_account_no = 40000002`);
      expect(invoices).toBeGreaterThan(0);
      expect(data.invoices).toHaveLength(invoices);
      for (const method of data.paymentMethods) expect(method.cardNumber ?? '').toMatch(/^(\*{4} ){3}\d{4}$|^$/);
      expect(JSON.stringify(data)).not.toMatch(/password|id_hash|idempotency/i);

      const [mail] = await test.database.rows<{ subject: string; text: string }>(
        sql`select subject, text from mail_outbox where to_address = 'digital@minside.test' and subject = 'Kopien av dataene dine er klar'`,
      );
      expect(mail?.text).toContain(`${PORTAL}/spidTakeoutGateway`);

      const list = (await browser.request('GET', `${PORTAL}/api/privacy/export`)).json<{ exports: ExportBody[] }>();
      expect(list.exports[0]?.id).toBe(body.id);
    });

    it("never hands one user's file to another: 404, as for an id that does not exist", async () => {
      const owner = await signIn('digital@minside.test');
      const { downloadUrl } = (await owner.request('POST', `${PORTAL}/api/privacy/export`, { json: {} })).json<ExportBody>();
      const other = await signIn('papir@minside.test');
      const stolen = await download(other, downloadUrl ?? '');
      expect(stolen.statusCode).toBe(404);
      expect(stolen.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await download(other, '/api/privacy/export/00000000-0000-4000-8000-000000000000/download')).statusCode).toBe(404);
      expect((await download(other, '/api/privacy/export/not-a-uuid/download')).statusCode).toBe(400);
      const anonymous = new TestBrowser(() => injectTransport(test.app));
      expect((await download(anonymous, downloadUrl ?? '')).statusCode).toBe(401);
    });

    it('deletes the file after 7 days: the job expires it and the download answers 410', async () => {
      const browser = await signIn('ung@minside.test');
      const { downloadUrl, id } = (await browser.request('POST', `${PORTAL}/api/privacy/export`, { json: {} })).json<ExportBody>();
      const before = clock;
      try {
        clock = new Date(before.getTime() + 7 * 24 * 60 * 60 * 1000 + 1000);
        expect((await operator('/api/operator/jobs/data-export')).statusCode).toBe(200);
        const [row] = await test.database.rows<{ status: string; archive: unknown }>(sql`select status, archive from data_request where id = ${id}`);
        expect(row).toEqual({ status: 'expired', archive: null });
        // The old session has timed out too: the owner signs in again.
        const gone = await download(await signIn('ung@minside.test'), downloadUrl ?? '');
        expect(gone.statusCode).toBe(410);
        expect(gone.json()).toMatchObject({ code: 'EXPORT_EXPIRED' });
      } finally {
        clock = before;
      }
    });
  });

  // Issue 20 point 4: every export e-mails the user, so a loop flooded the inbox and the queue.
  describe('export limits', () => {
    const limitMessage = 'Du kan be om en kopi av dataene dine høyst 3 ganger per dag. Prøv igjen i morgen, eller last ned en kopi du allerede har bestilt.';
    const exportsOf = (userId: string) => count(sql`select count(*) as n from data_request where user_id = ${userId} and kind = 'export'`);
    const mailsTo = (address: string) => count(sql`select count(*) as n from mail_outbox where to_address = ${address}`);

    it('three a day by the clock: a burst of ten makes three copies and three e-mails, the rest 429 in Norwegian; the next Oslo day opens again', async () => {
      const before = clock;
      try {
        const browser = await signIn('papir@minside.test');
        const exportsBefore = await exportsOf('user-papir');
        const mailsBefore = await mailsTo('papir@minside.test');
        const ask = () => browser.request('POST', `${PORTAL}/api/privacy/export`, { json: {} });
        const answers = await Promise.all(Array.from({ length: 10 }, ask));
        // A request that comes while a copy is being made is answered with that copy (one pending at a time).
        const made = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.json<ExportBody>().id));
        expect(made.size).toBeGreaterThanOrEqual(1);
        expect(made.size).toBeLessThanOrEqual(3);
        for (const refused of answers.filter((answer) => answer.status !== 200)) {
          expect(refused.status, refused.body).toBe(429);
          expect(refused.json()).toEqual({ code: 'EXPORT_DAILY_LIMIT', message: limitMessage });
        }
        expect(await exportsOf('user-papir')).toBe(exportsBefore + made.size);
        expect(await mailsTo('papir@minside.test')).toBe(mailsBefore + made.size);
        // Asking on until refused: three copies in all, and the loop after that mails nothing.
        for (let more = made.size; more < 3; more += 1) expect((await ask()).status).toBe(200);
        for (let loop = 0; loop < 5; loop += 1) expect((await ask()).json()).toEqual({ code: 'EXPORT_DAILY_LIMIT', message: limitMessage });
        expect(await exportsOf('user-papir')).toBe(exportsBefore + 3);
        expect(await mailsTo('papir@minside.test')).toBe(mailsBefore + 3);
        // The page knows before anyone clicks.
        expect((await browser.request('GET', `${PORTAL}/api/privacy/export`)).json()).toMatchObject({ remainingToday: 0 });

        // 23:59 in Oslo is still the same day; 00:01 the next day is not.
        clock = new Date('2026-03-02T22:59:00Z');
        const late = await signIn('papir@minside.test');
        expect((await late.request('POST', `${PORTAL}/api/privacy/export`, { json: {} })).status).toBe(429);
        clock = new Date('2026-03-02T23:01:00Z');
        const nextDay = await signIn('papir@minside.test');
        expect((await nextDay.request('GET', `${PORTAL}/api/privacy/export`)).json()).toMatchObject({ remainingToday: 3 });
        expect((await nextDay.request('POST', `${PORTAL}/api/privacy/export`, { json: {} })).status).toBe(200);
        expect(await mailsTo('papir@minside.test')).toBe(mailsBefore + 4);
      } finally {
        clock = before;
      }
    });

    it('one pending export at a time: asking again answers the pending one, stores nothing and sends nothing', async () => {
      const browser = await signIn('ung@minside.test');
      const [user] = await test.database.rows<{ id: string }>(sql`select id from app_user where email = 'ung@minside.test'`);
      const pendingId = '00000000-0000-4000-8000-0000000000aa';
      await test.database.rows(
        sql`insert into data_request (id, user_id, kind, status, requested_at, due_at, details) values (${pendingId}, ${user?.id ?? ''}, 'export', 'pending', ${clock}, ${clock}, '{}'::jsonb)`,
      );
      const exportsBefore = await exportsOf(user?.id ?? '');
      const mailsBefore = await mailsTo('ung@minside.test');
      const again = await Promise.all([1, 2, 3].map(() => browser.request('POST', `${PORTAL}/api/privacy/export`, { json: {} })));
      expect(again.map((answer) => [answer.status, answer.json<ExportBody>().id])).toEqual([1, 2, 3].map(() => [200, pendingId]));
      expect(await exportsOf(user?.id ?? '')).toBe(exportsBefore);
      expect(await mailsTo('ung@minside.test')).toBe(mailsBefore);
      // The database holds it too: a second pending export for the user cannot be stored.
      await expect(
        test.database.rows(
          sql`insert into data_request (id, user_id, kind, status, requested_at, due_at, details) values (${'00000000-0000-4000-8000-0000000000ab'}, ${user?.id ?? ''}, 'export', 'pending', ${clock}, ${clock}, '{}'::jsonb)`,
        ),
      ).rejects.toThrow();
      await test.database.rows(sql`delete from data_request where id = ${pendingId}`);
    });
  });

  describe('account deletion', () => {
    it('refuses without both confirmations and changes nothing', async () => {
      const browser = await signIn('slett@minside.test');
      for (const json of [
        { confirmConsequences: true, confirmPaymentHistory: false },
        { confirmConsequences: false, confirmPaymentHistory: true },
      ]) {
        const refused = await browser.request('POST', `${PORTAL}/api/privacy/deletion`, { json });
        expect(refused.status).toBe(400);
        expect(refused.json()).toMatchObject({ code: 'CONFIRMATION_REQUIRED', message: 'Du må krysse av for begge bekreftelsene for å slette kontoen.' });
      }
      expect((await browser.request('POST', `${PORTAL}/api/privacy/deletion`, { json: { confirmConsequences: true } })).status).toBe(400);
      expect(await count(sql`select count(*) as n from data_request where user_id = 'user-slett'`)).toBe(0);
      expect(await count(sql`select inst_status_code as n from subscription where id = 'demo-slett-adr'`)).toBe(1);
    });

    it('the operator job needs the operator token', async () => {
      expect((await operator('/api/operator/jobs/data-erasure', 'wrong-token')).statusCode).toBe(401);
    });

    it('cancels the subscription, schedules the erasure, and the job erases the person but keeps invoices and payments without the name', async () => {
      const browser = await signIn('slett@minside.test');
      const invoicesBefore = await test.database.rows<{ aria_invoice_no: number; amount_ore: number }>(
        sql`select aria_invoice_no, amount_ore from invoice where aria_account_no = 40000014 order by aria_invoice_no`,
      );
      expect(invoicesBefore.length).toBeGreaterThan(0);
      // An issued invoice document (issue 23): the sales document the bookkeeping law keeps as it was issued.
      const firstInvoice = invoicesBefore[0]?.aria_invoice_no;
      const issuedPdf = await browser.request('GET', `${PORTAL}/api/invoice/40000014/${firstInvoice}/pdf`);
      expect(issuedPdf.status).toBe(200);
      await browser.request('PUT', `${PORTAL}/api/consent`, { json: { choices: { analytics: true, marketing: false, personalisation: false }, source: 'settings' } });

      const scheduled = await browser.request('POST', `${PORTAL}/api/privacy/deletion`, { json: { confirmConsequences: true, confirmPaymentHistory: true } });
      expect(scheduled.status, scheduled.body).toBe(200);
      expect(scheduled.json()).toEqual({ request: { status: 'scheduled', requestedAt: clock.toISOString(), scheduledFor: clock.toISOString(), cancelledSubscriptions: ['Digital'] } });
      // The lifecycle's own cancellation: status, change log and survey as if the subscriber did it.
      expect(await count(sql`select inst_status_code as n from subscription where id = 'demo-slett-adr'`)).toBe(2);
      expect(await count(sql`select count(*) as n from subscription_change where subscription_id = 'demo-slett-adr' and kind = 'cancelled'`)).toBe(1);
      expect(await count(sql`select count(*) as n from mail_outbox where to_address = 'slett@minside.test' and subject = 'Vi sletter kontoen din'`)).toBe(1);
      // That mail names what was cancelled; no cancellation confirmation offers to undo it (issue 25.7).
      expect(await count(sql`select count(*) as n from mail_outbox where to_address = 'slett@minside.test' and kind = 'subscriptionCancelled'`)).toBe(0);
      // A second click finds the first request.
      const again = await browser.request('POST', `${PORTAL}/api/privacy/deletion`, { json: { confirmConsequences: true, confirmPaymentHistory: true } });
      expect(again.json()).toEqual(scheduled.json());
      expect(await count(sql`select count(*) as n from data_request where user_id = 'user-slett'`)).toBe(1);

      const job = await operator('/api/operator/jobs/data-erasure');
      expect(job.json()).toEqual({ processed: 1 });
      expect((await operator('/api/operator/jobs/data-erasure')).json()).toEqual({ processed: 0 });

      // The login is gone: no provider account, no sessions, and the old cookie no longer works.
      expect(await count(sql`select count(*) as n from idp_account where email = 'slett@minside.test' or id = 'demo-slett'`)).toBe(0);
      expect(await count(sql`select count(*) as n from user_session where user_id = 'user-slett'`)).toBe(0);
      expect((await browser.request('GET', `${PORTAL}/api/consent`)).status).toBe(401);
      await expect(signIn('slett@minside.test')).rejects.toThrow();

      const [user] = await test.database.rows<Record<string, unknown>>(sql`select email, given_name, family_name, phone_number, birthdate, identity_sub from app_user where id = 'user-slett'`);
      expect(user).toEqual({ email: 'user-slett@slettet.invalid', given_name: '', family_name: '', phone_number: null, birthdate: null, identity_sub: 'erased:user-slett' });
      const invoicesAfter = await test.database.rows<{ aria_invoice_no: number; amount_ore: number }>(
        sql`select aria_invoice_no, amount_ore from invoice where aria_account_no = 40000014 order by aria_invoice_no`,
      );
      expect(invoicesAfter).toEqual(invoicesBefore);
      // The issued document survives the erasure unchanged, byte for byte (bokføringsloven § 13; GDPR Art. 17(3)(b), ADR 015).
      // The erasure issued it (a seeded invoice had none yet) before the name went; the job stores its PDF.
      await test.app.billingDocuments.complete();
      const [document] = await test.database.rows<{ pdf: Uint8Array }>(sql`select pdf from billing_document where number = ${firstInvoice}`);
      expect(document && Buffer.from(document.pdf).equals(issuedPdf.raw)).toBe(true);
      // Nothing kept for bookkeeping names the person any more.
      const kept = await test.database.rows<Record<string, unknown>>(sql`
        select i.*, a.*, u.email, u.given_name, u.family_name from invoice i
        join account a on a.aria_account_no = i.aria_account_no join app_user u on u.id = a.user_id
        where i.aria_account_no = 40000014`);
      expect(JSON.stringify(kept)).not.toMatch(/Siri|Sletten|slett@minside\.test|43456789/);
      expect(await count(sql`select count(*) as n from consent_choice where user_id = 'user-slett'`)).toBe(0);
      expect(await count(sql`select count(*) as n from mail_outbox where to_address = 'slett@minside.test'`)).toBe(0);
      expect(await count(sql`select count(*) as n from payment_agreement where subscription_id = 'demo-slett-adr'`)).toBe(0);
      expect(await count(sql`select inst_status_code as n from subscription where id = 'demo-slett-adr'`)).toBe(-3);
      expect(await count(sql`select count(*) as n from data_request where user_id = 'user-slett' and kind = 'erasure' and status = 'completed'`)).toBe(1);
      // Others are untouched.
      expect(await count(sql`select count(*) as n from idp_account where email = 'digital@minside.test'`)).toBe(1);
    });
  });

  describe('consent-page permissions', () => {
    it('needs a session and rejects unknown permissions without storing anything', async () => {
      const anonymous = new TestBrowser(() => injectTransport(test.app));
      expect((await anonymous.request('GET', `${PORTAL}/api/consent/permissions`)).status).toBe(401);
      const browser = await signIn('papir@minside.test');
      for (const json of [{ permissions: { marketingFax: true } }, { permissions: {} }, { permissions: { marketingEmail: 'yes' } }]) {
        expect((await browser.request('PUT', `${PORTAL}/api/consent/permissions`, { json })).status).toBe(400);
      }
      expect(await count(sql`select count(*) as n from consent_permission_choice where user_id = 'user-papir'`)).toBe(0);
    });

    it('stores each change with its time, and an unchanged value adds no history', async () => {
      const browser = await signIn('familie@minside.test');
      expect((await browser.request('GET', `${PORTAL}/api/consent/permissions`)).json()).toEqual({ current: {}, history: [] });
      const first = await browser.request('PUT', `${PORTAL}/api/consent/permissions`, { json: { permissions: { marketingEmail: true, marketingSms: false }, titleCode: 'adr' } });
      expect(first.status, first.body).toBe(200);
      // marketingSms: false is what "never answered" means already, so only the e-mail grant is new.
      expect(first.json()).toEqual({
        current: { marketingEmail: { permission: 'marketingEmail', granted: true, titleCode: 'ADR', givenAt: '2026-03-02T10:00:00.000Z' } },
        history: [{ permission: 'marketingEmail', granted: true, titleCode: 'ADR', givenAt: '2026-03-02T10:00:00.000Z' }],
      });
      const before = clock;
      try {
        clock = new Date('2026-03-02T10:20:00Z');
        const withdrawn = await browser.request('PUT', `${PORTAL}/api/consent/permissions`, { json: { permissions: { marketingEmail: false, researchSurveys: true } } });
        const state = withdrawn.json<{ current: Record<string, { granted: boolean; givenAt: string }>; history: { permission: string; granted: boolean; givenAt: string }[] }>();
        expect(state.current['marketingEmail']).toMatchObject({ granted: false, givenAt: '2026-03-02T10:20:00.000Z' });
        expect(state.current['researchSurveys']).toMatchObject({ granted: true });
        expect(state.history.map((entry) => [entry.permission, entry.granted, entry.givenAt])).toEqual([
          ['researchSurveys', true, '2026-03-02T10:20:00.000Z'],
          ['marketingEmail', false, '2026-03-02T10:20:00.000Z'],
          ['marketingEmail', true, '2026-03-02T10:00:00.000Z'],
        ]);
      } finally {
        clock = before;
      }
    });
  });

  describe('content pages', () => {
    it("serves a group's own file, and the default with the title's details for groups without one", async () => {
      const adr = await test.app.inject({ method: 'GET', url: '/api/content/legal/vilkaar?titleCode=ADR', headers: { host: 'localhost' } });
      expect(adr.statusCode).toBe(200);
      const own = adr.json<{ title: string; group: string; blocks: { type: string }[] }>();
      expect(own).toMatchObject({ group: 'aag', title: 'Vilkår for abonnement i Adresseavisen Gruppen' });
      const varden = (await test.app.inject({ method: 'GET', url: '/api/content/legal/vilkaar-bedrift?titleCode=VAR', headers: { host: 'localhost' } })).json<{ group: string; blocks: unknown[] }>();
      expect(varden.group).toBe('default');
      expect(JSON.stringify(varden.blocks)).toContain('Varden');
      const faq = (await test.app.inject({ method: 'GET', url: '/api/content/support/faq?titleCode=ADR', headers: { host: 'localhost' } })).json<{ blocks: unknown[] }>();
      expect(JSON.stringify(faq.blocks)).toContain('"href":"/spidTakeoutGateway"');
    });

    it('answers 400 for a page that is not in the list (no path tricks)', async () => {
      for (const url of ['/api/content/legal/..%2F..%2Fpackage', '/api/content/legal/faq', '/api/content/secret/vilkaar']) {
        expect((await test.app.inject({ method: 'GET', url, headers: { host: 'localhost' } })).statusCode).toBe(400);
      }
    });
  });
});
