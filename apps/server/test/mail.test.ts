import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultCatalogue } from '@minside/titles';
import pino from 'pino';
import { createMailer, REDACTED_MAIL_TEXT, titleMail } from '../src/integrations/mail/index.ts';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { startSmtpServer } from './smtp-server.ts';
import { injectTransport, login, TestBrowser } from './browser.ts';
import { systemClock } from '@minside/domain';

// Issue 8 e-mail: nodemailer over SMTP to a real SMTP server started here, read back with
// mailparser; the outbox is idempotent and retried with backoff after a failure.

const PORTAL = 'http://adresseavisen.localhost:3000';
const adresseavisen = defaultCatalogue.byTitleCode('ADR');
const unsubscribe = { secret: 'mail-test-unsubscribe-key', origin: () => PORTAL };

describe('titleMail', () => {
  it('renders text and HTML in the title’s name and colour, escaping what comes from data', () => {
    const mail = titleMail(adresseavisen, {
      heading: 'Hei <Ola> & co',
      paragraphs: ['Første "avsnitt" <script>alert(1)</script>'],
      action: { label: 'Åpne', url: 'https://example.no/lenke?a=1&b=<2>' },
      footnotes: ['Virker i 7 dager.'],
    });
    expect(mail.subject).toBe('Hei <Ola> & co');
    expect(mail.text).toContain('Adresseavisen\n\nHei <Ola> & co\n\nFørste "avsnitt" <script>alert(1)</script>\n\nÅpne:\nhttps://example.no/lenke?a=1&b=<2>');
    expect(mail.text).toContain(`Kundeservice: ${adresseavisen.customerCenterEmail}`);
    expect(mail.html).toContain(`background:${adresseavisen.brandColor}`);
    expect(mail.html).toContain('Hei &lt;Ola&gt; &amp; co');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('href="https://example.no/lenke?a=1&amp;b=&lt;2&gt;"');
    expect(mail.html).toContain('lang="nb"');
  });
});

describe.each(testDatabases)('e-mail ($name)', ({ name }) => {
  let test: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let clockOffset = 0;
  const now = () => new Date(systemClock().getTime() + clockOffset);
  beforeAll(async () => {
    smtp = await startSmtpServer();
    test = await buildTestApp(name, { seed: true, now, config: { smtpUrl: smtp.url, mailFrom: 'Min Side <minside@adressa.test>' } });
  });
  afterAll(async () => {
    await test.close();
    await smtp.close();
  });
  beforeEach(() => {
    clockOffset = 0;
    smtp.received.length = 0;
    smtp.state.refuseNext = 0;
  });

  const mailer = () => createMailer({ db: test.database.db, smtpUrl: smtp.url, from: 'Min Side <minside@adressa.test>', unsubscribe, log: pino({ level: 'silent' }), now });
  const outboxRow = async (id: string) =>
    (
      await test.database.rows<{ sent: boolean; attempts: number; last_error: string | null; next_attempt_ms: number | null }>(
        sql`select sent_at is not null as sent, attempts, last_error, (extract(epoch from next_attempt_at) * 1000)::float8 as next_attempt_ms from mail_outbox where id = ${id}`,
      )
    )[0];

  it('sends a family invitation through SMTP as text and HTML in the title’s colours', async () => {
    const browser = new TestBrowser(() => injectTransport(test.app));
    expect((await login(browser, { portal: PORTAL, email: 'familie@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
    const response = await browser.request('POST', `${PORTAL}/api/family/invitations`, { json: { email: 'smtp.mottaker@minside.test' } });
    expect(response.status, response.body).toBe(201);

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received.map((message) => message.parsed);
    expect(mail?.subject).toBe('Per Olsen vil dele Adresseavisen med deg');
    expect(mail?.from?.text).toBe('"Adresseavisen" <minside@adressa.test>');
    expect(mail?.replyTo?.text).toBe(adresseavisen.customerCenterEmail);
    expect(mail?.text).toContain('Per Olsen abonnerer på Adresseavisen og vil dele den digitale tilgangen med deg.');
    expect(mail?.text).toMatch(/http:\/\/adresseavisen\.localhost:3000\/verifiser-familiemedlem\?token=[\w-]+/);
    expect(mail?.html).toContain(`background:${adresseavisen.brandColor}`);
    expect(mail?.html).toContain('>Godta invitasjonen</a>');
    expect(mail?.messageId).toMatch(/@minside>?$/);

    const rows = await test.database.rows(sql`select sent_at is not null as sent, attempts from mail_outbox where to_address = 'smtp.mottaker@minside.test'`);
    expect(rows).toEqual([{ sent: true, attempts: 1 }]);
    // With SMTP configured there is no development mail page.
    expect((await test.app.inject({ method: 'GET', url: '/_dev/mail.json' })).statusCode).toBe(404);
  });

  it('sends one e-mail per idempotency key, however often it is enqueued or delivered', async () => {
    const outgoing = {
      to: 'en.gang@minside.test',
      title: adresseavisen,
      kind: 'orderReceipt' as const,
      ...titleMail(adresseavisen, { heading: 'Bare én', paragraphs: ['Én e-post.'] }),
      idempotencyKey: 'test:once',
    };
    const first = await test.database.db.transaction((tx) => mailer().enqueue(tx, outgoing));
    const second = await test.database.db.transaction((tx) => mailer().enqueue(tx, { ...outgoing, subject: 'Annen' }));
    expect(second).toBe(first);
    expect(await test.database.rows(sql`select subject from mail_outbox where idempotency_key = 'test:once'`)).toEqual([{ subject: 'Bare én' }]);
    expect(await mailer().deliverPending()).toBe(1);
    expect(await mailer().deliverPending()).toBe(0);
    expect(smtp.received.map((mail) => mail.parsed.subject)).toEqual(['Bare én']);
  });

  it('blanks the text and HTML of messages older than eight days, keeping who was sent what and when', async () => {
    const old = await test.database.db.transaction((tx) =>
      mailer().enqueue(tx, {
        to: 'gammel@minside.test',
        title: adresseavisen,
        kind: 'signupCode',
        ...titleMail(adresseavisen, { heading: 'Lenke', paragraphs: ['Hemmelig kode 123456'] }),
        idempotencyKey: 'test:old',
      }),
    );
    clockOffset = 7 * 24 * 60 * 60_000;
    const recent = await test.database.db.transaction((tx) =>
      mailer().enqueue(tx, { to: 'ny@minside.test', title: adresseavisen, kind: 'signupCode', subject: 'Ny', text: 'Kode 654321', idempotencyKey: 'test:recent' }),
    );
    clockOffset = 8 * 24 * 60 * 60_000 + 60_000;
    await mailer().deliverPending();
    const rows = await test.database.rows<{ id: string; subject: string; text: string; html: string | null }>(
      sql`select id, subject, text, html from mail_outbox where id in (${old}, ${recent}) order by created_at`,
    );
    expect(rows).toEqual([
      { id: old, subject: 'Lenke', text: REDACTED_MAIL_TEXT, html: null },
      { id: recent, subject: 'Ny', text: 'Kode 654321', html: null },
    ]);
  });

  it('keeps a message the server refused and retries it after the backoff', async () => {
    const id = await test.database.db.transaction((tx) =>
      mailer().enqueue(tx, { to: 'senere@minside.test', title: adresseavisen, kind: 'signupCode', subject: 'Prøv igjen', text: 'Tekst', idempotencyKey: 'test:retry' }),
    );
    smtp.state.refuseNext = 1;
    expect(await mailer().deliverPending()).toBe(0);
    const failed = await outboxRow(id);
    expect(failed).toMatchObject({ sent: false, attempts: 1, last_error: expect.stringContaining('Try again later') });
    expect(Number(failed?.next_attempt_ms)).toBeGreaterThan(now().getTime() + 55_000);

    // Before the backoff has passed the job leaves it alone.
    clockOffset = 30_000;
    expect(await mailer().deliverPending()).toBe(0);
    expect(smtp.received).toHaveLength(0);
    expect((await outboxRow(id))?.attempts).toBe(1);

    clockOffset = 61_000;
    expect(await mailer().deliverPending()).toBe(1);
    expect(await outboxRow(id)).toMatchObject({ sent: true, attempts: 2, last_error: null });
    expect(smtp.received.map((mail) => mail.parsed.subject)).toEqual(['Prøv igjen']);
  });
});

describe.each(testDatabases)('development mail pages ($name)', ({ name }) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true });
  });
  afterAll(() => test.close());

  it('lists the outbox as JSON, newest first, with text and HTML', async () => {
    const mailer = createMailer({ db: test.database.db, smtpUrl: undefined, from: 'x <x@x.test>', unsubscribe, log: pino({ level: 'silent' }) });
    const older = titleMail(adresseavisen, { heading: 'Eldre', paragraphs: ['A'] });
    const newer = titleMail(adresseavisen, { heading: 'Nyere', paragraphs: ['B'], action: { label: 'Åpne', url: `${PORTAL}/x` } });
    await test.database.db.transaction((tx) => mailer.enqueue(tx, { to: 'a@minside.test', title: adresseavisen, kind: 'signupCode', ...older }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const id = await test.database.db.transaction((tx) => mailer.enqueue(tx, { to: 'b@minside.test', title: adresseavisen, kind: 'signupCode', ...newer }));
    expect(await mailer.deliverPending()).toBe(0);

    const response = await test.app.inject({ method: 'GET', url: '/_dev/mail.json' });
    expect(response.statusCode).toBe(200);
    const list = response.json<{ id: string; to: string; subject: string; text: string; html: string | null; createdAt: string }[]>();
    expect(list.map((mail) => mail.subject)).toEqual(['Nyere', 'Eldre']);
    expect(list[0]).toMatchObject({ id, to: 'b@minside.test', text: expect.stringContaining(`${PORTAL}/x`), html: expect.stringContaining('Adresseavisen'), createdAt: expect.any(String) });

    const page = await test.app.inject({ method: 'GET', url: '/_dev/mail' });
    expect(page.body).toContain(`href="/_dev/mail/${id}.html"`);
    const html = await test.app.inject({ method: 'GET', url: `/_dev/mail/${id}.html` });
    expect(html.statusCode).toBe(200);
    expect(html.body).toBe(newer.html);
    expect(html.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await test.app.inject({ method: 'GET', url: '/_dev/mail/finnes-ikke.html' })).statusCode).toBe(404);
  });
});
