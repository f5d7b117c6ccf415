import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCatalogue } from '@minside/titles';
import { AdminInputError, adminCommands, type AdminContext, type SubscriberHistory } from '../src/admin/commands.ts';
import { deliveryChange, mailOutbox, subscription, titleMaintenance } from '../src/db/schema.ts';
import { REDACTED_MAIL_TEXT } from '../src/integrations/mail/index.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';

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
      await test.database.db.insert(mailOutbox).values({ id, to: 'papir@minside.test', subject: 'Kvittering', text, createdAt: NOW, sentAt: NOW, attempts: 10, lastError: 'mailbox full', nextAttemptAt: new Date(NOW.getTime() + 3_600_000) });
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
      await test.database.db.insert(deliveryChange).values({ id: 'admin-test-stop', subscriptionId: papir!.id, type: 'STOP', fromDate: '2026-12-01', toDate: '2026-12-05', status: 'active', placedAt, updatedAt: placedAt });

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

  it('run-job refuses an unknown job in English', async () => {
    await expect(admin('run-job', 'no-such-job')).rejects.toThrow('Unknown job no-such-job.');
  });
});
