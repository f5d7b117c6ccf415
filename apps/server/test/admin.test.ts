import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCatalogue, defaultCatalogueDocument } from '@minside/titles';
import { AdminInputError, adminCommands, type AdminContext, type SubscriberHistory } from '../src/admin/commands.ts';
import { buildApp } from '../src/app.ts';
import { account, appUser, dataRequest, deliveryChange, idpAccount, mailOutbox, subscription, subscriptionChange, titleCatalogueVersion, titleMaintenance } from '../src/db/schema.ts';
import { REDACTED_MAIL_TEXT } from '../src/integrations/mail/index.ts';
import { loadActiveCatalogue } from '../src/modules/titles/catalogue-source.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { signIn } from './support.ts';

const OPERATOR_TOKEN = 'operator-token-for-admin-tests-0123456789';
const NOW = new Date('2026-11-21T12:00:00Z');

describe.each(testDatabases)('operator commands on $name', ({ name }) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now: () => NOW, config: { operatorToken: OPERATOR_TOKEN } });
  });
  afterAll(async () => {
    await test.close();
  });

  /** Runs a command as `npm run admin -- <command> …` does, collecting what it prints. */
  async function admin(command: string, ...args: string[]): Promise<{ code: number; lines: string[]; raw: string }> {
    const lines: string[] = [];
    let raw = '';
    const context: AdminContext = {
      app: test.app,
      db: test.database.db,
      config: test.config,
      catalogue: defaultCatalogue,
      now: () => NOW,
      print: (line) => lines.push(line),
      write: (text) => (raw += text),
    };
    const code = (await adminCommands[command]!.run(context, args)) ?? 0;
    return { code, lines, raw };
  }

  const maintenanceOf = async (minsideUrl: string) => {
    const response = await test.app.inject({ method: 'POST', url: '/api/maintenanceTitle', payload: { minsideUrl } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ titleCode: string; maintenance: boolean; message: string }>();
  };

  describe('maintenance', () => {
    it('turns one title on and off, and /api/maintenanceTitle follows; other titles stay up', async () => {
      const adr = 'https://minside.adressa.no/';
      expect((await maintenanceOf(adr)).maintenance).toBe(false);
      const on = await admin('maintenance', 'adr', 'on', '--message', 'Vi oppgraderer. Prøv igjen om en time.');
      expect(on.lines).toEqual(['Maintenance for ADR (Adresseavisen) is now on.']);
      expect(await maintenanceOf(adr)).toMatchObject({ titleCode: 'ADR', maintenance: true, message: 'Vi oppgraderer. Prøv igjen om en time.' });
      expect((await maintenanceOf('https://minside.varden.no/')).maintenance).toBe(false);

      await admin('maintenance', 'ADR', 'off');
      // Off keeps the message for next time; only the switch changes.
      expect(await maintenanceOf(adr)).toMatchObject({ maintenance: false, message: 'Vi oppgraderer. Prøv igjen om en time.' });
    });

    it.each([
      [['XYZ', 'on'], 'Unknown title code XYZ'],
      [['ADR', 'maybe'], 'Say on or off.'],
      [['ADR'], 'Say on or off.'],
      [[], 'Missing title code.'],
      [['ADR', 'on', '--colour', 'red'], "Unknown option '--colour'"],
    ])('refuses %j with a clear message and changes nothing', async (args, message) => {
      const before = await test.database.db.select().from(titleMaintenance);
      await expect(admin('maintenance', ...args)).rejects.toThrow(AdminInputError);
      await expect(admin('maintenance', ...args)).rejects.toThrow(message);
      expect(await test.database.db.select().from(titleMaintenance)).toEqual(before);
    });
  });

  describe('resend-mail', () => {
    const addMail = async (id: string, text: string) => {
      await test.database.db.insert(mailOutbox).values({
        id,
        to: 'papir@minside.test',
        subject: 'Kvittering',
        text,
        createdAt: NOW,
        sentAt: NOW,
        attempts: 10,
        lastError: 'mailbox full',
        nextAttemptAt: new Date(NOW.getTime() + 3_600_000),
      });
    };

    it('puts a sent or failed message back in the queue', async () => {
      await addMail('mail-resend-1', 'Takk for betalingen.');
      const result = await admin('resend-mail', 'mail-resend-1');
      expect(result.lines[0]).toMatch(/^E-mail mail-resend-1 to papir@minside\.test \("Kvittering"\) is queued again; SMTP_URL is not set/);
      const [row] = await test.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, 'mail-resend-1'));
      expect(row).toMatchObject({ sentAt: null, attempts: 0, nextAttemptAt: null, lastError: null, text: 'Takk for betalingen.' });
    });

    it('refuses a message whose body has been blanked, and an unknown id, changing nothing', async () => {
      await addMail('mail-resend-2', REDACTED_MAIL_TEXT);
      await expect(admin('resend-mail', 'mail-resend-2')).rejects.toThrow('E-mail mail-resend-2 is too old to resend');
      const [row] = await test.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, 'mail-resend-2'));
      expect(row).toMatchObject({ sentAt: NOW, attempts: 10 });
      await expect(admin('resend-mail', 'mail-nope')).rejects.toThrow('No e-mail with id mail-nope in the outbox.');
      await expect(admin('resend-mail')).rejects.toThrow('Usage: npm run admin -- resend-mail <mailId>');
    });
  });

  describe('delivery-feed', () => {
    it('prints the same CSV as the operator endpoint, with the stop in it; --out writes a file', async () => {
      const [papir] = await test.database.db.select().from(subscription).where(eq(subscription.ariaAccountNo, 40_000_001));
      const placedAt = new Date('2026-11-20T10:00:00Z');
      await test.database.db
        .insert(deliveryChange)
        .values({ id: 'admin-test-stop', subscriptionId: papir!.id, type: 'STOP', fromDate: '2026-12-01', toDate: '2026-12-05', status: 'active', placedAt, updatedAt: placedAt });

      const { raw } = await admin('delivery-feed', '--title', 'adr', '--date', '2026-12-01');
      const endpoint = await test.app.inject({ method: 'GET', url: '/api/operator/delivery-feed?title=ADR&date=2026-12-01', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      expect(endpoint.statusCode).toBe(200);
      expect(raw).toBe(endpoint.body);
      expect(raw.split('\r\n').filter((line) => line.includes(',STOP,') && line.includes(',40000001,'))).toHaveLength(1);

      const out = join(mkdtempSync(join(tmpdir(), 'admin-feed-')), 'feed.csv');
      const written = await admin('delivery-feed', '--title', 'ADR', '--date', '2026-12-01', '--out', out);
      expect(readFileSync(out, 'utf8')).toBe(raw);
      expect(written.lines[0]).toMatch(/^\d+ rows for ADR on 2026-12-01 written to /);
    });

    it.each([
      [['--title', 'ADR'], 'Give a title code and a date'],
      [['--title', 'ADR', '--date', '1.12.2026'], 'Give a title code and a date'],
      [['--title', 'XYZ', '--date', '2026-12-01'], 'Unknown title code XYZ'],
    ])('refuses %j', async (args, message) => {
      await expect(admin('delivery-feed', ...args)).rejects.toThrow(message);
    });
  });

  describe('correct-birthdate', () => {
    const sourceOf = async (email: string) =>
      (
        await test.database.rows<{ birthdate: string | null; source: string | null }>(
          sql`select u.birthdate::text, s.source from app_user u left join profile_field_source s on s.user_id = u.id and s.field = 'birthdate' where u.email = ${email}`,
        )
      )[0];

    it('sets the birthdate as the customer centre’s, locked against the subscriber’s own edits', async () => {
      const { lines } = await admin('correct-birthdate', 'student@minside.test', '2001-02-28');
      expect(lines).toEqual(['Birthdate of student@minside.test set to 2001-02-28 by the customer centre; the subscriber cannot change it on Min Side.']);
      expect(await sourceOf('student@minside.test')).toEqual({ birthdate: '2001-02-28', source: 'CUSTOMER_SERVICE' });
    });

    it.each([
      [['student@minside.test', '2001-02-29'], 'Give a subscriber and a birthdate that exists'],
      [['student@minside.test', '2030-01-01'], 'Give a subscriber and a birthdate that exists'],
      [['student@minside.test'], 'Usage: npm run admin -- correct-birthdate'],
      [['nobody@minside.test', '2001-02-28'], 'No subscriber with e-mail nobody@minside.test.'],
    ])('refuses %j and changes nothing', async (args, message) => {
      const before = await sourceOf('student@minside.test');
      await expect(admin('correct-birthdate', ...args)).rejects.toThrow(message);
      expect(await sourceOf('student@minside.test')).toEqual(before);
    });

    it('leaves a birthdate the issuer verified to the issuer', async () => {
      await test.database.db.execute(
        sql`insert into profile_field_source (user_id, field, source, issuer_label, verified, recorded_at) select id, 'birthdate', 'ISSUER', 'Vipps', true, now() from app_user where email = 'ung@minside.test'`,
      );
      const before = await sourceOf('ung@minside.test');
      await expect(admin('correct-birthdate', 'ung@minside.test', '1999-01-01')).rejects.toThrow('The birthdate is verified by Vipps: it is corrected there, and the next login brings it.');
      expect(await sourceOf('ung@minside.test')).toEqual(before);
      await test.database.db.execute(sql`delete from profile_field_source where field = 'birthdate' and user_id = (select id from app_user where email = 'ung@minside.test')`);
    });
  });

  describe('history', () => {
    it('gives the subscriber record by e-mail or account number, the same either way', async () => {
      const byEmail = await admin('history', 'Papir@Minside.test', '--json');
      const history = JSON.parse(byEmail.lines.join('\n')) as SubscriberHistory;
      expect(history.subscriber).toMatchObject({ email: 'papir@minside.test', name: 'Kari Nordmann', accounts: [40_000_001] });
      expect(history.subscriptions.map((row) => [row.titleCode, row.status])).toContainEqual(['ADR', 'ACTIVE']);
      expect(history.invoices.length).toBeGreaterThan(0);
      for (const row of history.invoices) expect(['PAID', 'UNPAID', 'OVERDUE']).toContain(row.status);
      expect(history.deliveryChanges.map((row) => row.id)).toContain('admin-test-stop');

      const byAccount = await admin('history', '40000001', '--json');
      expect(JSON.parse(byAccount.lines.join('\n'))).toEqual(history);
    });

    it('prints readable sections, and reads without writing', async () => {
      const before = await test.database.db.select().from(deliveryChange);
      const { lines } = await admin('history', 'papir@minside.test');
      expect(lines[0]).toBe('Kari Nordmann <papir@minside.test>, account 40000001');
      for (const heading of ['Subscriptions', 'Change log', 'Delivery changes', 'Complaints', 'Invoices']) expect(lines.some((line) => line.startsWith(`${heading} (`))).toBe(true);
      expect(lines.some((line) => line.includes('ADR') && line.includes('[ACTIVE]'))).toBe(true);
      expect(lines.some((line) => line.includes('STOP 2026-12-01..2026-12-05 [active]'))).toBe(true);
      expect(await test.database.db.select().from(deliveryChange)).toEqual(before);
    });

    it.each([
      [['nobody@minside.test'], 'No subscriber with e-mail nobody@minside.test.'],
      [['99999999'], 'No account with number 99999999.'],
      [['Kari'], 'Give an e-mail address or an account number'],
      [[], 'Usage: npm run admin -- history'],
    ])('refuses %j', async (args, message) => {
      await expect(admin('history', ...args)).rejects.toThrow(message);
    });
  });

  describe('catalogue and contacts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-catalogue-'));
    type RawTitle = Record<string, unknown>;
    const base = () => structuredClone(defaultCatalogueDocument) as { titles: RawTitle[] } & Record<string, unknown>;
    const titleIn = (document: { titles: RawTitle[] }, code: string) => document.titles.find((entry) => entry['titleCode'] === code)!;
    const fileOf = (name: string, document: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, typeof document === 'string' ? document : JSON.stringify(document));
      return path;
    };
    const versions = () => test.database.db.select().from(titleCatalogueVersion).orderBy(titleCatalogueVersion.version);
    /** A new catalogue: ADR with a real e-mail address, and one added title nothing uses yet. */
    const changed = () => {
      const document = base();
      titleIn(document, 'ADR')['customerCenterEmail'] = 'abonnement@adresseavisen.no';
      // Its own bank setup: two titles never share an account or OCR agreement (issue 21).
      const bank = { creditorAccount: '86011117947', ocrAgreementId: '009999999', kidLength: 15, kidCheckDigit: 'MOD10' };
      document.titles.push({ ...titleIn(document, 'VAR'), titleCode: 'NYA', publication: 'nyavisa', newsroom: 'nyavisa', name: 'Ny Avis', baseUrl: 'nyavisa.no', streamNewsroom: 'nyavisa', bank });
      return document;
    };
    /** An app built as bin/server.ts builds it on this database: with the catalogue version it finds there. */
    const titleFromNewApp = async (code: string) => {
      const { catalogue, version } = await loadActiveCatalogue(test.database.db, undefined);
      const app = await buildApp({ config: test.config, database: test.database, catalogue, now: () => NOW });
      try {
        const response = await app.inject({ method: 'GET', url: `/api/title/${code}` });
        return { version, status: response.statusCode, body: response.json<Record<string, unknown>>() };
      } finally {
        await app.close();
      }
    };

    it('exports the built-in catalogue while nothing is stored, to stdout or a file', async () => {
      const { raw } = await admin('catalogue', 'export');
      expect(JSON.parse(raw)).toEqual(defaultCatalogueDocument);
      const out = join(dir, 'exported.json');
      const written = await admin('catalogue', 'export', out);
      expect(written.lines).toEqual([`Catalogue (built-in data/titles.json) written to ${out}.`]);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(defaultCatalogueDocument);
      expect((await admin('catalogue', 'versions')).lines).toEqual(['No stored versions: the servers use built-in data/titles.json.']);
    });

    it.each([
      [
        'an invalid contact e-mail',
        () => {
          const d = base();
          titleIn(d, 'ADR')['customerCenterEmail'] = 'kundesenter';
          return d;
        },
        /titles\[\d+\] \(ADR\): field "customerCenterEmail" must be an e-mail address, got "kundesenter"/,
      ],
      [
        'a duplicate title code',
        () => {
          const d = base();
          d.titles.push({ ...titleIn(d, 'VAR'), publication: 'annen', newsroom: 'annen', baseUrl: 'annen.no' });
          return d;
        },
        /duplicate titleCode "VAR"/,
      ],
      [
        'an unknown field',
        () => {
          const d = base();
          titleIn(d, 'VAR')['openingHours'] = '8-16';
          return d;
        },
        /\(VAR\): unknown field "openingHours"/,
      ],
      [
        'no fallback title',
        () => {
          const d = base();
          d.titles = d.titles.filter((t) => t['titleCode'] !== 'POL');
          return d;
        },
        /must contain the fallback title POL/,
      ],
      ['broken JSON', () => '{ "titles": [', /Cannot read .*bad-broken-JSON\.json as JSON/],
    ])('refuses a file with %s, saying where, and stores nothing', async (what, make, message) => {
      const path = fileOf(`bad-${what.replace(/ /g, '-')}.json`, make());
      await expect(admin('catalogue', 'import', path)).rejects.toThrow(message);
      await expect(admin('catalogue', 'import', path)).rejects.toThrow('Nothing was stored.');
      expect(await versions()).toEqual([]);
    });

    it('refuses to drop a title that subscriptions still use, and stores nothing', async () => {
      const document = base();
      document.titles = document.titles.filter((entry) => entry['titleCode'] !== 'ADR');
      await expect(admin('catalogue', 'import', fileOf('without-adr.json', document))).rejects.toThrow(
        /^ADR \(Adresseavisen\) is removed, but \d+ subscriptions?, \d+ accounts?, \d+ plans? still use it: keep it in the file with "excluded": true instead\./,
      );
      expect(await versions()).toEqual([]);
    });

    it('--dry-run prints the difference and stores nothing', async () => {
      const { lines } = await admin('catalogue', 'import', fileOf('changed.json', changed()), '--dry-run');
      expect(lines).toEqual([
        'Compared with the active catalogue (built-in data/titles.json):',
        '+ NYA Ny Avis (added)',
        '~ ADR customerCenterEmail: "kundesenter@adressa.no" -> "abonnement@adresseavisen.no" (contact details)',
        '1 added, 0 removed, 1 changed (1 contact detail), 0 group names changed.',
        'Dry run: nothing was stored.',
      ]);
      expect(await versions()).toEqual([]);
      expect((await titleFromNewApp('NYA')).status).toBe(404);
    });

    it('stores the import as version 1, which a newly built app serves and export writes back', async () => {
      const document = changed();
      const { lines } = await admin('catalogue', 'import', fileOf('changed.json', document));
      expect(lines.at(-1)).toBe('Stored as catalogue version 1. Each instance serves it from its next start; to roll it out now: kubectl -n minside rollout restart deployment/minside');
      const [stored] = await versions();
      expect(stored).toMatchObject({ version: 1, source: 'import changed.json', document });
      expect(stored?.changes).toContain('+ NYA Ny Avis (added)');

      const adr = await titleFromNewApp('ADR');
      expect(adr).toMatchObject({ version: 1, status: 200, body: { customerCenterEmail: 'abonnement@adresseavisen.no' } });
      expect(await titleFromNewApp('NYA')).toMatchObject({ status: 200, body: { titleCode: 'NYA', name: 'Ny Avis' } });
      expect(JSON.parse((await admin('catalogue', 'export')).raw)).toEqual(document);

      // The same file again changes nothing and stores nothing.
      expect((await admin('catalogue', 'import', fileOf('changed.json', document))).lines).toEqual(['Compared with the active catalogue (database version 1):', 'No changes. Nothing was stored.']);
      expect(await versions()).toHaveLength(1);
    });

    it("contacts set changes one title's phone and e-mail as the next version, no longer a placeholder", async () => {
      const { lines } = await admin('contacts', 'set', 'var', '--phone', '+47 35 00 00 00', '--email', 'kundesenter@varden.no');
      expect(lines).toEqual([
        'Compared with the active catalogue (database version 1):',
        `~ VAR customerCenterPhoneNumber: ${JSON.stringify(defaultCatalogue.byTitleCode('VAR').customerCenterPhoneNumber)} -> "+47 35 00 00 00" (contact details)`,
        '~ VAR contactIsPlaceholder: true -> false (contact details)',
        '0 added, 0 removed, 1 changed (2 contact details), 0 group names changed.',
        'Stored as catalogue version 2. Each instance serves it from its next start; to roll it out now: kubectl -n minside rollout restart deployment/minside',
      ]);
      expect(await titleFromNewApp('VAR')).toMatchObject({
        version: 2,
        body: { customerCenterPhoneNumber: '+47 35 00 00 00', customerCenterEmail: 'kundesenter@varden.no', contactIsPlaceholder: false },
      });
      // The rest of version 1 is carried over.
      expect((await titleFromNewApp('ADR')).body).toMatchObject({ customerCenterEmail: 'abonnement@adresseavisen.no' });
      expect((await admin('catalogue', 'versions')).lines).toEqual([
        expect.stringMatching(/^ {3}2 2026-11-21T12:00:00\.000Z contacts set VAR \(active\) {2}0 added, 0 removed, 1 changed/),
        expect.stringMatching(/^ {3}1 2026-11-21T12:00:00\.000Z import changed\.json {2}1 added/),
      ]);
    });

    it.each([
      [['set', 'XYZ', '--phone', '72 50 00 00'], 'Unknown title code XYZ'],
      [['set', 'ADR', '--email', 'ikke-en-adresse'], /titles\[\d+\] \(ADR\): field "customerCenterEmail" must be an e-mail address, got "ikke-en-adresse"/],
      [['set', 'ADR', '--phone', '12'], /\(ADR\): field "customerCenterPhoneNumber" must be a phone number/],
      [['set', 'ADR'], 'Say what to change'],
      [['set'], 'Give one title code.'],
      [['remove', 'ADR'], 'Unknown contacts command remove.'],
    ])('contacts %j is refused and stores nothing', async (args, message) => {
      const before = await versions();
      await expect(admin('contacts', ...args)).rejects.toThrow(message);
      expect(await versions()).toEqual(before);
    });

    it('a later import drops a title nothing uses; export --version writes an older one for a rollback', async () => {
      const document = JSON.parse((await admin('catalogue', 'export')).raw) as { titles: RawTitle[] };
      document.titles = document.titles.filter((entry) => entry['titleCode'] !== 'NYA');
      const { lines } = await admin('catalogue', 'import', fileOf('without-nya.json', document));
      expect(lines).toContain('- NYA Ny Avis (removed)');
      expect((await titleFromNewApp('NYA')).status).toBe(404);
      const out = join(dir, 'v1.json');
      await admin('catalogue', 'export', out, '--version', '1');
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(changed());
      await expect(admin('catalogue', 'export', '--version', '99')).rejects.toThrow('No stored catalogue version 99.');
    });
  });

  describe('gdpr', () => {
    const PORTAL = 'http://adresseavisen.localhost:3000';
    const dir = mkdtempSync(join(tmpdir(), 'admin-gdpr-'));
    const requestsOf = async (email: string) => {
      const [user] = await test.database.db.select().from(appUser).where(eq(appUser.email, email));
      return test.database.db.select().from(dataRequest).where(eq(dataRequest.userId, user!.id));
    };
    const jsonIn = (zip: Uint8Array) => {
      const files = unzipSync(zip);
      expect(Object.keys(files).sort()).toEqual(['LESMEG.txt', 'minside-data.json']);
      const { exportedAt, ...data } = JSON.parse(strFromU8(files['minside-data.json']!)) as Record<string, unknown>;
      expect(exportedAt).toBe(NOW.toISOString());
      return data;
    };

    it('export writes the same archive as the self-service export and records it as the customer centre’s', async () => {
      // Signed in first: a login records where the profile's fields came from, and both exports should see it.
      const browser = await signIn(test, PORTAL, 'ung@minside.test');
      const out = join(dir, 'ung.zip');
      const { lines } = await admin('gdpr', 'export', 'UNG@minside.test', '--out', out);
      expect(lines[0]).toMatch(new RegExp(`^Data export of ung@minside\\.test written to ${out.replace(/[.\\/]/g, '\\$&')} \\(\\d+ bytes`));
      const file = jsonIn(new Uint8Array(readFileSync(out)));
      expect(file['profile']).toMatchObject({ email: 'ung@minside.test' });
      const [request] = await requestsOf('ung@minside.test');
      expect(request).toMatchObject({ kind: 'export', status: 'ready', details: { requestedBy: 'customerCentre' } });

      // The self-service export, asked for now, holds the same data (aside from its own request row and the session).
      const created = (await browser.request('POST', `${PORTAL}/api/privacy/export`, { json: {} })).json<{ id: string }>();
      const [own] = await test.database.db.select().from(dataRequest).where(eq(dataRequest.id, created.id));
      const self = jsonIn(new Uint8Array(own!.archive!));
      const withoutRequests = ({ dataRequests: _requests, sessions: _sessions, ...rest }: Record<string, unknown>) => rest;
      expect(withoutRequests(self)).toEqual(withoutRequests(file));
      expect(file['dataRequests']).toEqual([{ kind: 'export', status: 'pending', requestedAt: NOW.toISOString(), completedAt: null }]);
      expect(self['dataRequests']).toHaveLength(2);
      expect(Object.keys(self).sort()).toEqual(Object.keys(file).sort());
    });

    it.each([
      [['export', 'nobody@minside.test'], 'No subscriber with e-mail nobody@minside.test.'],
      [['export', '40000001', '--out', '/nonexistent-dir/x.zip'], /Cannot write \/nonexistent-dir\/x\.zip: .* Nothing was stored\./],
      [['export'], 'Give one e-mail address or account number.'],
      [['erase', 'Kari'], 'Give an e-mail address or an account number'],
      [['forget', 'papir@minside.test'], 'Unknown gdpr command forget.'],
    ])('%j is refused and stores nothing', async (args, message) => {
      const before = await test.database.db.select().from(dataRequest);
      await expect(admin('gdpr', ...args)).rejects.toThrow(message);
      expect(await test.database.db.select().from(dataRequest)).toEqual(before);
    });

    it('export never writes over an existing file', async () => {
      const out = join(dir, 'existing.zip');
      writeFileSync(out, 'not mine');
      const before = await test.database.db.select().from(dataRequest);
      await expect(admin('gdpr', 'export', 'papir@minside.test', '--out', out)).rejects.toThrow(`Cannot write ${out}`);
      expect(readFileSync(out, 'utf8')).toBe('not mine');
      expect(await test.database.db.select().from(dataRequest)).toEqual(before);
    });

    it('erase without --confirm shows what would happen and changes nothing', async () => {
      const snapshot = async () => ({
        user: await test.database.db.select().from(appUser).where(eq(appUser.email, 'slett@minside.test')),
        subscriptions: await test.database.db.select().from(subscription).where(eq(subscription.ariaAccountNo, 40_000_014)),
        requests: await test.database.db.select().from(dataRequest),
        changes: await test.database.db.select().from(subscriptionChange),
        mail: await test.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'slett@minside.test')),
      });
      const before = await snapshot();
      const lines: string[] = [];
      const context = { app: test.app, db: test.database.db, config: test.config, catalogue: defaultCatalogue, now: () => NOW, print: (line: string) => lines.push(line), write: () => {} };
      await expect(adminCommands['gdpr']!.run(context, ['erase', '40000014'])).rejects.toThrow('Nothing was done. Run again with --confirm');
      expect(lines[0]).toBe('Erasing slett@minside.test (account 40000014):');
      expect(lines[1]).toBe('  subscriptions that end now: ADR Digital [ACTIVE]');
      expect(lines[2]).toMatch(/^ {2}kept without name for bookkeeping \(5 years, ADR 015\): \d+ invoices/);
      expect(await snapshot()).toEqual(before);
    });

    it('erase --confirm does what the self-service deletion does, at once, and the change log names the customer centre', async () => {
      const [user] = await test.database.db.select().from(appUser).where(eq(appUser.email, 'slett@minside.test'));
      const { code, lines } = await admin('gdpr', 'erase', 'slett@minside.test', '--confirm');
      expect(code).toBe(0);
      expect(lines.at(-1)).toMatch(/^Erased at the customer centre's request \(data request [0-9a-f-]+\)\.$/);

      const [erased] = await test.database.db.select().from(appUser).where(eq(appUser.id, user!.id));
      expect(erased).toMatchObject({ email: `${user!.id}@slettet.invalid`, givenName: '', familyName: '', identitySub: `erased:${user!.id}` });
      expect(await test.database.db.select().from(idpAccount).where(eq(idpAccount.id, user!.identitySub))).toEqual([]);
      const [request] = await test.database.db
        .select()
        .from(dataRequest)
        .where(and(eq(dataRequest.userId, user!.id), eq(dataRequest.kind, 'erasure')));
      expect(request).toMatchObject({ status: 'completed', details: { requestedBy: 'customerCentre', cancelledSubscriptions: ['Digital'] } });
      const [own] = await test.database.db.select().from(subscription).where(eq(subscription.ariaAccountNo, 40_000_014));
      const log = await test.database.db.select().from(subscriptionChange).where(eq(subscriptionChange.subscriptionId, own!.id));
      expect(log.filter((row) => row.kind === 'cancelled').map((row) => [row.actor, row.actorUserId])).toEqual([['customerCentre', null]]);
      // Bookkeeping stays: the account is still there, under the pseudonymised user.
      expect(await test.database.db.select({ userId: account.userId }).from(account).where(eq(account.ariaAccountNo, 40_000_014))).toEqual([{ userId: user!.id }]);
      await expect(signIn(test, PORTAL, 'slett@minside.test')).rejects.toThrow();
    });

    it('refuses a second erasure or an export of an erased person, changing nothing', async () => {
      const before = await test.database.db.select().from(dataRequest);
      await expect(admin('gdpr', 'erase', '40000014', '--confirm')).rejects.toThrow(
        /^The personal data of 40000014 was erased on 2026-11-21T12:00:00\.000Z; only pseudonymised bookkeeping is left\. Nothing was done\.$/,
      );
      await expect(admin('gdpr', 'export', '40000014', '--out', join(dir, 'erased.zip'))).rejects.toThrow('was erased');
      await expect(admin('gdpr', 'erase', 'slett@minside.test', '--confirm')).rejects.toThrow('No subscriber with e-mail slett@minside.test.');
      expect(await test.database.db.select().from(dataRequest)).toEqual(before);
      expect(
        await test.database.db
          .select()
          .from(subscriptionChange)
          .where(sql`${subscriptionChange.at} > ${NOW}`),
      ).toEqual([]);
    });
  });

  it('run-job refuses an unknown job in English', async () => {
    await expect(admin('run-job', 'no-such-job')).rejects.toThrow('Unknown job no-such-job.');
  });
});
