import { createHash, createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultCatalogue } from '@minside/titles';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createMailer, MAIL_SKIPPED_OPTED_OUT, mailKinds, titleMail, type MailKind, type OutgoingMail } from '../src/integrations/mail/index.ts';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { startSmtpServer } from './smtp-server.ts';
import { injectTransport, login, TestBrowser } from './browser.ts';

// Issue 23 "Receipts and e-mail": every message in its title's name (From display name, Reply-To
// the customer centre), List-Unsubscribe (RFC 8058 one-click) on the optional kinds only, the
// one-click link turning that kind off, and DKIM. Through the outbox and nodemailer to a real
// SMTP server started here (smtp-server), read back raw and with mailparser.

const PORTAL = 'http://adresseavisen.localhost:3000';
const TUESDAY_MORNING = new Date('2026-11-24T07:00:00+01:00');
const OPERATOR_TOKEN = 'operator-token-for-mail-sender-0123456789';
const MAIL_FROM = 'Min Side <minside@adressa.test>';
const adresseavisen = defaultCatalogue.byTitleCode('ADR');
const storm = { titleCode: 'ADR', issueDate: '2026-11-24', postalCodes: ['7011'], message: 'Uvær på Fosen: avisen kommer utpå dagen.' };

/** The raw header block, unfolded, as [name, value] in order. */
function rawHeaders(raw: string): [string, string][] {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  return head.split(/\r\n(?![ \t])/).map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).replace(/\r\n/g, '')] as [string, string];
  });
}
const header = (raw: string, name: string) =>
  rawHeaders(raw)
    .find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1]
    .trim();

/**
 * Verifies a relaxed/relaxed rsa-sha256 DKIM signature (RFC 6376 §3.4.2, §3.4.4, §3.7) with the
 * public key: the body hash, and the signature over the signed headers.
 */
function verifyDkim(raw: string, publicKeyPem: string): { tags: Record<string, string>; bodyHashOk: boolean; signatureOk: boolean } {
  const headers = rawHeaders(raw);
  const signatureHeader = headers.find(([name]) => name.toLowerCase() === 'dkim-signature');
  if (!signatureHeader) throw new Error('no DKIM-Signature');
  const tags = Object.fromEntries(
    signatureHeader[1]
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => [part.slice(0, part.indexOf('=')).trim(), part.slice(part.indexOf('=') + 1).replace(/\s+/g, '')]),
  ) as Record<string, string>;
  const relaxedValue = (value: string) =>
    value
      .replace(/\r\n/g, '')
      .replace(/[ \t]+/g, ' ')
      .trim();

  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  let canonicalBody = body
    .split('\r\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''))
    .join('\r\n')
    .replace(/(\r\n)*$/, '');
  canonicalBody = canonicalBody === '' ? '' : `${canonicalBody}\r\n`;
  const bodyHashOk = createHash('sha256').update(canonicalBody).digest('base64') === tags['bh'];

  const remaining = [...headers];
  const signed = (tags['h'] ?? '').split(':').map((name) => {
    for (let index = remaining.length - 1; index >= 0; index -= 1) {
      const entry = remaining[index];
      if (entry && entry[0].toLowerCase() === name.toLowerCase()) {
        remaining.splice(index, 1);
        return `${name.toLowerCase()}:${relaxedValue(entry[1])}\r\n`;
      }
    }
    return '';
  });
  const ownHeader = `dkim-signature:${relaxedValue(signatureHeader[1])
    .replace(/\bb=[^;]*$/, 'b=')
    .replace(/\bb=[^;]*;/, 'b=;')}`;
  const verifier = createVerify('RSA-SHA256');
  verifier.update(signed.join('') + ownHeader);
  return { tags, bodyHashOk, signatureOk: verifier.verify(publicKeyPem, tags['b'] ?? '', 'base64') };
}

describe.each(testDatabases)('e-mail sender and unsubscribing ($name)', ({ name }) => {
  let test: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let clockOffset = 0;
  const now = () => new Date(TUESDAY_MORNING.getTime() + clockOffset);
  const operator = new TestBrowser(() => injectTransport(test.app));
  const sendSegment = (segmentId: string) => operator.request('POST', `${PORTAL}/api/segment/${segmentId}/message`, { json: storm, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  const optOuts = () => test.database.rows<{ user_id: string; title_code: string; kind: string }>(sql`select user_id, title_code, kind from mail_opt_out order by kind`);
  const mailer = () =>
    createMailer({ db: test.database.db, smtpUrl: smtp.url, from: MAIL_FROM, unsubscribe: { secret: 'test-key-for-kinds', origin: () => PORTAL }, log: pino({ level: 'silent' }), now });
  /** Posts like a mail provider's one-click: a form body, no cookie, no Origin. */
  const oneClick = (url: string, accept = 'application/json') => {
    const target = new URL(url);
    return test.app.inject({
      method: 'POST',
      url: `${target.pathname}${target.search}`,
      headers: { host: target.host, 'content-type': 'application/x-www-form-urlencoded', accept },
      payload: 'List-Unsubscribe=One-Click',
    });
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    test = await buildTestApp(name, { seed: true, now, config: { smtpUrl: smtp.url, mailFrom: MAIL_FROM, operatorToken: OPERATOR_TOKEN } });
  });
  afterAll(async () => {
    await test.close();
    await smtp.close();
  });
  beforeEach(async () => {
    clockOffset = 0;
    smtp.received.length = 0;
    smtp.state.refuseNext = 0;
    await test.database.rows(sql`delete from mail_opt_out`);
    await test.database.rows(sql`delete from delivery_notice_recipient`);
    await test.database.rows(sql`delete from delivery_notice`);
  });

  it('sends a transactional message as its title, replying to the title’s customer centre, without List-Unsubscribe', async () => {
    const browser = new TestBrowser(() => injectTransport(test.app));
    expect((await login(browser, { portal: PORTAL, email: 'familie@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
    const response = await browser.request('POST', `${PORTAL}/api/family/invitations`, { json: { email: 'avsender.mottaker@minside.test' } });
    expect(response.status, response.body).toBe(201);

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.parsed.from?.value).toEqual([{ name: 'Adresseavisen', address: 'minside@adressa.test' }]);
    expect(mail?.parsed.replyTo?.value).toEqual([{ name: '', address: adresseavisen.customerCenterEmail }]);
    expect(header(mail?.raw ?? '', 'List-Unsubscribe')).toBeUndefined();
    expect(header(mail?.raw ?? '', 'List-Unsubscribe-Post')).toBeUndefined();
    const rows = await test.database.rows(sql`select title_code, from_name, reply_to, kind, list_unsubscribe from mail_outbox where to_address = 'avsender.mottaker@minside.test'`);
    expect(rows).toEqual([{ title_code: 'ADR', from_name: 'Adresseavisen', reply_to: adresseavisen.customerCenterEmail, kind: 'familyInvitation', list_unsubscribe: null }]);
  });

  it('a retry sends the sender that was fixed when the message was queued', async () => {
    const other = defaultCatalogue.offered().find((title) => title.titleCode !== 'ADR' && title.name !== adresseavisen.name);
    if (!other) throw new Error('the catalogue has one title only');
    const id = await test.database.db.transaction((tx) =>
      mailer().enqueue(tx, {
        to: 'retry.avsender@minside.test',
        title: other,
        kind: 'orderReceipt',
        ...titleMail(other, { heading: 'Kvittering', paragraphs: ['Takk.'] }),
        idempotencyKey: 'sender:retry',
      }),
    );
    smtp.state.refuseNext = 1;
    expect(await mailer().deliverPending()).toBe(0);
    clockOffset = 61_000;
    expect(await mailer().deliverPending()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.parsed.from?.value).toEqual([{ name: other.name, address: 'minside@adressa.test' }]);
    expect(smtp.received[0]?.parsed.replyTo?.value[0]?.address).toBe(other.customerCenterEmail);
    expect(smtp.received[0]?.parsed.messageId).toBe(`<${id}@minside>`);
  });

  it('puts List-Unsubscribe and List-Unsubscribe-Post on exactly the optional kinds', async () => {
    const kinds = Object.keys(mailKinds) as MailKind[];
    for (const kind of kinds) {
      const content = { to: `kind.${kind.toLowerCase()}@minside.test`, title: adresseavisen, ...titleMail(adresseavisen, { heading: kind, paragraphs: ['Innhold.'] }) };
      const outgoing: OutgoingMail = mailKinds[kind] === 'optional' ? { ...content, kind: kind as 'deliveryNotice', userId: 'user-papir' } : { ...content, kind: kind as 'orderReceipt' };
      await test.database.db.transaction((tx) => mailer().enqueue(tx, outgoing));
    }
    while ((await mailer().deliverPending()) > 0);
    expect(smtp.received.map((mail) => mail.parsed.subject).sort()).toEqual([...kinds].sort());
    for (const { raw, parsed } of smtp.received) {
      const kind = parsed.subject as MailKind;
      const optional = mailKinds[kind] === 'optional';
      expect(header(raw, 'List-Unsubscribe') !== undefined, kind).toBe(optional);
      expect(header(raw, 'List-Unsubscribe-Post'), kind).toBe(optional ? 'List-Unsubscribe=One-Click' : undefined);
      if (optional) expect(header(raw, 'List-Unsubscribe')).toMatch(new RegExp(`^<${PORTAL}/e-post/avmelding\\?token=[\\w-]+\\.[\\w-]+>$`));
    }
    expect(
      Object.entries(mailKinds)
        .filter(([, value]) => value === 'optional')
        .map(([kind]) => kind)
        .sort(),
    ).toEqual(['deliveryNotice', 'studentReminder']);
  });

  it('one click turns delivery notices off for that user and title: the next notice is not sent, other mail still is', async () => {
    expect((await sendSegment('sender-storm-1')).status).toBe(201);
    expect(smtp.received).toHaveLength(1);
    const [notice] = smtp.received;
    expect(notice?.parsed.to && 'value' in notice.parsed.to ? notice.parsed.to.value[0]?.address : undefined).toBe('papir@minside.test');
    expect(notice?.parsed.from?.value[0]?.name).toBe('Adresseavisen');
    const url = /^<(.+)>$/.exec(header(notice?.raw ?? '', 'List-Unsubscribe') ?? '')?.[1] ?? '';
    expect(header(notice?.raw ?? '', 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // A link scanner or a person opening the link: a page with the button, nothing changed.
    const page = await test.app.inject({ method: 'GET', url: `${new URL(url).pathname}${new URL(url).search}`, headers: { host: new URL(url).host } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('meldinger om leveringen av papiravisen fra Adresseavisen');
    expect(page.body).toContain('<button type="submit">Meld meg av</button>');
    expect(await optOuts()).toEqual([]);

    const clicked = await oneClick(url);
    expect(clicked.statusCode, clicked.body).toBe(200);
    expect(clicked.json()).toEqual({
      result: 'unsubscribed',
      titleCode: 'ADR',
      kind: 'deliveryNotice',
      message: 'Du får ikke lenger meldinger om leveringen av papiravisen fra Adresseavisen på e-post.',
    });
    expect(await optOuts()).toEqual([{ user_id: 'user-papir', title_code: 'ADR', kind: 'deliveryNotice' }]);
    // Again (the provider retries, the person clicks twice): the same answer, one row.
    expect((await oneClick(url, 'text/html')).body).toContain('Du er meldt av');
    expect(await optOuts()).toHaveLength(1);

    smtp.received.length = 0;
    const second = await sendSegment('sender-storm-2');
    expect(second.json()).toMatchObject({ recipients: 1, notifiedNow: 1 });
    expect(smtp.received).toEqual([]);
    expect(await test.database.rows(sql`select 1 from mail_outbox where idempotency_key like 'delivery-notice:sender-storm-2:%'`)).toEqual([]);
    // Transactional mail to the same person still goes.
    await test.database.db.transaction((tx) =>
      mailer().enqueue(tx, { to: 'papir@minside.test', title: adresseavisen, kind: 'invoiceIssued', ...titleMail(adresseavisen, { heading: 'Faktura', paragraphs: ['Betal.'] }) }),
    );
    await mailer().deliverPending();
    expect(smtp.received.map((mail) => mail.parsed.subject)).toEqual(['Faktura']);
  });

  it('a notice queued before the click is not sent by a later retry', async () => {
    smtp.state.refuseNext = 1;
    expect((await sendSegment('sender-storm-3')).status).toBe(201);
    const [row] = await test.database.rows<{ id: string; list_unsubscribe: string }>(sql`select id, list_unsubscribe from mail_outbox where idempotency_key like 'delivery-notice:sender-storm-3:%'`);
    expect(row?.list_unsubscribe).toContain('/e-post/avmelding?token=');
    expect((await oneClick(row?.list_unsubscribe ?? '')).statusCode).toBe(200);
    clockOffset = 61_000;
    await mailer().deliverPending();
    expect(smtp.received).toEqual([]);
    expect(await test.database.rows(sql`select sent_at, last_error from mail_outbox where id = ${row?.id ?? ''}`)).toEqual([{ sent_at: null, last_error: MAIL_SKIPPED_OPTED_OUT }]);
  });

  it('refuses a forged or altered link with a stable code and changes nothing', async () => {
    expect((await sendSegment('sender-storm-4')).status).toBe(201);
    const url = new URL(/^<(.+)>$/.exec(header(smtp.received[0]?.raw ?? '', 'List-Unsubscribe') ?? '')?.[1] ?? '');
    const token = url.searchParams.get('token') ?? '';
    const [payload = '', signature = ''] = token.split('.');
    const otherUser = Buffer.from(JSON.stringify({ v: 1, u: 'user-digital', t: 'ADR', k: 'deliveryNotice' })).toString('base64url');
    const forged = [`${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`, `${otherUser}.${signature}`, 'bm90LWEtdG9rZW4', `${payload}.${signature}.extra`];
    for (const bad of forged) {
      const response = await oneClick(`${url.origin}${url.pathname}?token=${encodeURIComponent(bad)}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json(), bad).toMatchObject({ code: 'UNSUBSCRIBE_LINK_INVALID' });
    }
    const page = await oneClick(`${url.origin}${url.pathname}?token=${encodeURIComponent(`${otherUser}.${signature}`)}`, 'text/html');
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('Lenken virker ikke');
    expect(await optOuts()).toEqual([]);
  });

  it('shows the sender on /_dev/mail.json', async () => {
    const dev = await buildTestApp(name, { seed: true, now, config: { mailFrom: MAIL_FROM, operatorToken: OPERATOR_TOKEN } });
    try {
      const send = await new TestBrowser(() => injectTransport(dev.app)).request('POST', `${PORTAL}/api/segment/dev-storm/message`, {
        json: storm,
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      });
      expect(send.status, send.body).toBe(201);
      const list = (await dev.app.inject({ method: 'GET', url: '/_dev/mail.json' })).json<{ from: string; replyTo: string; kind: string; listUnsubscribe: string }[]>();
      expect(list[0]).toMatchObject({
        from: '"Adresseavisen" <minside@adressa.test>',
        replyTo: adresseavisen.customerCenterEmail,
        kind: 'deliveryNotice',
        listUnsubscribe: expect.stringContaining('/e-post/avmelding?token='),
      });
      const page = await dev.app.inject({ method: 'GET', url: '/_dev/mail' });
      expect(page.body).toContain(`Fra &quot;Adresseavisen&quot; &lt;minside@adressa.test&gt; · Svar til ${adresseavisen.customerCenterEmail}`);
    } finally {
      await dev.close();
    }
  });
});

describe.each(testDatabases)('DKIM ($name)', ({ name }) => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  let test: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    test = await buildTestApp(name, { seed: true });
  });
  afterAll(async () => {
    await test.close();
    await smtp.close();
  });

  it('signs every message, covering From, Reply-To and both List-Unsubscribe headers', async () => {
    const mailer = createMailer({
      db: test.database.db,
      smtpUrl: smtp.url,
      from: MAIL_FROM,
      dkim: { domainName: 'adressa.test', keySelector: 'minside2026', privateKey: keys.privateKey },
      unsubscribe: { secret: 'dkim-test-key', origin: () => PORTAL },
      log: pino({ level: 'silent' }),
    });
    await test.database.db.transaction((tx) =>
      mailer.enqueue(tx, {
        to: 'papir@minside.test',
        title: adresseavisen,
        kind: 'deliveryNotice',
        userId: 'user-papir',
        ...titleMail(adresseavisen, { heading: 'Om avisen din', paragraphs: ['Avisen kommer senere – beklager.'] }),
      }),
    );
    expect(await mailer.deliverPending()).toBe(1);
    const raw = smtp.received[0]?.raw ?? '';
    expect(header(raw, 'DKIM-Signature')).toBeDefined();
    const { tags, bodyHashOk, signatureOk } = verifyDkim(raw, keys.publicKey);
    expect(tags).toMatchObject({ v: '1', a: 'rsa-sha256', c: 'relaxed/relaxed', d: 'adressa.test', s: 'minside2026' });
    expect(tags['h']?.toLowerCase().split(':')).toEqual(expect.arrayContaining(['from', 'reply-to', 'subject', 'to', 'list-unsubscribe', 'list-unsubscribe-post']));
    expect(bodyHashOk).toBe(true);
    expect(signatureOk).toBe(true);
    // The check itself is no rubber stamp: another key does not verify it.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    expect(verifyDkim(raw, other.publicKey).signatureOk).toBe(false);
  });

  it('reads the DKIM variables at start: all or none, a key that parses, a domain that aligns with MAIL_FROM', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dkim-'));
    const keyFile = path.join(dir, 'dkim.pem');
    writeFileSync(keyFile, keys.privateKey);
    const base = { MAIL_FROM: 'Min Side <minside@minside.adressa.test>' };
    expect(loadConfig(base).mailDkim).toBeUndefined();
    expect(loadConfig({ ...base, MAIL_DKIM_DOMAIN: 'adressa.test', MAIL_DKIM_SELECTOR: 'minside2026', MAIL_DKIM_PRIVATE_KEY_FILE: keyFile }).mailDkim).toEqual({
      domainName: 'adressa.test',
      keySelector: 'minside2026',
      privateKey: keys.privateKey,
    });
    // Inline, with the line breaks written as \n (one line in a secret store).
    expect(loadConfig({ ...base, MAIL_DKIM_DOMAIN: 'adressa.test', MAIL_DKIM_SELECTOR: 's1', MAIL_DKIM_PRIVATE_KEY: keys.privateKey.replace(/\n/g, '\\n') }).mailDkim?.privateKey).toBe(
      keys.privateKey,
    );

    const refused = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ MAIL_DKIM_DOMAIN: 'adressa.test' })).toBe(
      'Invalid configuration: MAIL_DKIM_SELECTOR, MAIL_DKIM_PRIVATE_KEY or MAIL_DKIM_PRIVATE_KEY_FILE: required when any MAIL_DKIM_* variable is set (DKIM needs the domain, the selector and the private key)',
    );
    expect(refused({ MAIL_DKIM_PRIVATE_KEY_FILE: keyFile })).toContain('MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR: required');
    expect(refused({ MAIL_DKIM_DOMAIN: 'adressa.test', MAIL_DKIM_SELECTOR: 's1', MAIL_DKIM_PRIVATE_KEY: 'not a key' })).toBe('Invalid configuration: MAIL_DKIM_PRIVATE_KEY: not a PEM private key');
    expect(refused({ MAIL_DKIM_DOMAIN: 'adressa.test', MAIL_DKIM_SELECTOR: 's1', MAIL_DKIM_PRIVATE_KEY_FILE: path.join(dir, 'missing.pem') })).toContain('MAIL_DKIM_PRIVATE_KEY_FILE: ');
    expect(refused({ MAIL_DKIM_DOMAIN: 'bt.test', MAIL_DKIM_SELECTOR: 's1', MAIL_DKIM_PRIVATE_KEY_FILE: keyFile })).toContain(
      "MAIL_DKIM_DOMAIN: bt.test does not align with MAIL_FROM's domain (minside.adressa.test)",
    );
    expect(refused({ MAIL_FROM: 'Min Side' })).toContain('MAIL_FROM: must be an address');
  });
});
