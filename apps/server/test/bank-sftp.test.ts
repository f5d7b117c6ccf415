import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, kidFor, manualClock, osloNoonOf, osloToday, systemClock } from '@minside/domain';
import { bankFileText, writeOcrGiro, type OcrTransactionInput } from '@minside/bank-files';
import { defaultCatalogue } from '@minside/titles';
import { loadConfig, type BankSftpConfig } from '../src/config.ts';
import { sha256Of } from '../src/modules/bank/archive.ts';
import { exchangeBankFiles } from '../src/modules/bank/exchange.ts';
import { createSftpTransport } from '../src/modules/bank/transport.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { freePort } from './server-process.ts';
import { netbankPayment as paidInNetbank } from './support.ts';

// Issue 21: the bank's files travel over SFTP in production. Debian's OpenSSH server runs on
// loopback for this file (`npm test` installs openssh-server first, scripts/ensure-debian-tool.mjs);
// without it the file fails rather than skips, so the SFTP path is never silently untested.
// The server's folders are Nets' from their side: their /outbound is our inbox, /inbound our outbox.

const SSHD = '/usr/sbin/sshd';
const SSH_KEYGEN = '/usr/bin/ssh-keygen';
const UNIT = '71000001';
const adr = defaultCatalogue.byTitleCode('ADR');

interface Sshd {
  dir: string;
  port: number;
  user: string;
  userKey: string;
  /** The host key's SHA-256 fingerprint as ssh-keygen prints it: `SHA256:…`. */
  fingerprint: string;
  /** Another key's fingerprint: what a server in the middle would show. */
  wrongFingerprint: string;
  remoteIn: string;
  remoteOut: string;
  child: ChildProcess;
  output: () => string;
}

let sshd: Sshd | undefined;

function keygen(args: string[]): string {
  return execFileSync(SSH_KEYGEN, args, { encoding: 'utf8' });
}

function fingerprintOf(publicKey: string): string {
  const match = /(SHA256:\S+)/.exec(keygen(['-l', '-E', 'sha256', '-f', publicKey]));
  if (!match?.[1]) throw new Error(`no fingerprint for ${publicKey}`);
  return match[1];
}

async function startSshd(): Promise<Sshd> {
  for (const [binary, pkg] of [
    [SSHD, 'openssh-server'],
    [SSH_KEYGEN, 'openssh-client'],
  ] as const) {
    if (!existsSync(binary)) {
      throw new Error(`${binary} is missing: the bank SFTP test runs Debian's ${pkg}. \`npm test\` installs it as root; otherwise run 'sudo apt-get install -y ${pkg}'.`);
    }
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'minside-sftp-'));
  keygen(['-q', '-t', 'ed25519', '-N', '', '-C', 'minside-test-host', '-f', path.join(dir, 'host_key')]);
  keygen(['-q', '-t', 'ed25519', '-N', '', '-C', 'minside-test-user', '-f', path.join(dir, 'user_key')]);
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'user_key.pub')), { mode: 0o600 });
  const remoteIn = path.join(dir, 'remote', 'outbound');
  const remoteOut = path.join(dir, 'remote', 'inbound');
  mkdirSync(remoteIn, { recursive: true });
  mkdirSync(remoteOut, { recursive: true });
  const port = await freePort();
  const user = userInfo().username;
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_key')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${user}`,
      'Subsystem sftp internal-sftp',
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  // sshd started as root wants its privilege separation folder (the Debian service creates it at boot).
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  let output = '';
  const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sshd did not start listening within 10 s:\n${output}`)), 10_000);
    const check = () => {
      if (/Server listening on 127\.0\.0\.1 port/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sshd exited with ${code} before listening:\n${output}`));
    });
    check();
  });
  return {
    dir,
    port,
    user,
    userKey: path.join(dir, 'user_key'),
    fingerprint: fingerprintOf(path.join(dir, 'host_key.pub')),
    wrongFingerprint: fingerprintOf(path.join(dir, 'user_key.pub')),
    remoteIn,
    remoteOut,
    child,
    output: () => output,
  };
}

beforeAll(async () => {
  sshd = await startSshd();
});

afterAll(async () => {
  if (sshd) {
    const { child, dir } = sshd;
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

function server(): Sshd {
  if (!sshd) throw new Error('sshd did not start');
  return sshd;
}

/** The configuration an operator writes, read as the server reads it. */
function sftpConfig(env: Record<string, string> = {}): BankSftpConfig {
  const { port, user, userKey, fingerprint, remoteIn, remoteOut } = server();
  const config = loadConfig({
    BANK_SFTP_URL: `sftp://${user}@127.0.0.1:${port}/`,
    BANK_SFTP_PRIVATE_KEY_FILE: userKey,
    BANK_SFTP_HOST_KEY_SHA256: fingerprint,
    BANK_SFTP_INBOX: remoteIn,
    BANK_SFTP_OUTBOX: remoteOut,
    ...env,
  }).bankSftp;
  if (!config) throw new Error('BANK_SFTP_URL gave no SFTP configuration');
  return config;
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('bank SFTP configuration', () => {
  it('reads BANK_SFTP_* with Nets’ folder names as defaults, and production refuses an unverified server', () => {
    const base = { BANK_SFTP_URL: 'sftp://minside@sftp.nets.example:2222/', BANK_SFTP_PRIVATE_KEY_FILE: '/secrets/nets_key' };
    expect(loadConfig(base).bankSftp).toEqual({
      host: 'sftp.nets.example',
      port: 2222,
      username: 'minside',
      privateKeyFile: '/secrets/nets_key',
      hostKeySha256: undefined,
      inbox: '/outbound',
      outbox: '/inbound',
    });
    expect(loadConfig({}).bankSftp).toBeUndefined();
    expect(() => loadConfig({ BANK_SFTP_URL: 'sftp://sftp.nets.example/' })).toThrow(/BANK_SFTP_URL: must name the user/);
    expect(() => loadConfig({ BANK_SFTP_URL: 'sftp://a:secret@sftp.nets.example/' })).toThrow(/BANK_SFTP_URL: must not contain a password/);
    expect(() => loadConfig({ BANK_SFTP_URL: 'https://sftp.nets.example/' })).toThrow(/BANK_SFTP_URL/);
    expect(() => loadConfig({ BANK_SFTP_URL: base.BANK_SFTP_URL })).toThrow(/BANK_SFTP_PRIVATE_KEY_FILE: required when BANK_SFTP_URL is set/);
    expect(() => loadConfig({ ...base, BANK_SFTP_HOST_KEY_SHA256: 'abc' })).toThrow(/BANK_SFTP_HOST_KEY_SHA256: must be/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' }, { purpose: 'migrate' })).toThrow(/BANK_SFTP_HOST_KEY_SHA256: required in production/);
    expect(loadConfig({ ...base, BANK_SFTP_HOST_KEY_SHA256: `SHA256:${'A'.repeat(43)}` }).bankSftp?.hostKeySha256).toBe('A'.repeat(43));
  });
});

describe.each(testDatabases)('bank files over SFTP ($name)', ({ name }) => {
  let test: TestApp;
  let local: TestApp;
  let bankDir: string;
  let localDir: string;
  let transmission = 5_000;
  // The app's clock: the claim run writes only today's file, so the test moves it to the run's day.
  const clock = manualClock(systemClock());
  const today = osloToday(clock());

  beforeAll(async () => {
    // One SSH server for every database's suite: each starts with the remote folders empty.
    for (const folder of [server().remoteIn, server().remoteOut]) {
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
    }
    bankDir = mkdtempSync(path.join(tmpdir(), 'minside-bank-sftp-'));
    localDir = mkdtempSync(path.join(tmpdir(), 'minside-bank-local-'));
    test = await buildTestApp(name, { seed: true, now: clock, config: { bankFilesDir: bankDir, bankSftp: sftpConfig() } });
    local = await buildTestApp(name, { seed: true, config: { bankFilesDir: localDir } });
  }, 180_000); // Two seeded apps: on a loaded 2-core machine more than the default minute.
  afterAll(async () => {
    await test?.close();
    await local?.close();
    rmSync(bankDir, { recursive: true, force: true });
    rmSync(localDir, { recursive: true, force: true });
  });

  const netbankPayment = (kid: string, amount: number) => paidInNetbank(kid, amount, today);
  /** An OCR Giro transmission from Nets, as the bytes their server holds. */
  const ocrFile = async (transactions: OcrTransactionInput[]): Promise<Buffer> => {
    transmission += 1;
    const number = String(transmission).padStart(7, '0');
    const text = await bankFileText(
      writeOcrGiro({
        transmissionNumber: number,
        dataRecipient: UNIT,
        netsDate: today,
        assignments: [{ agreementId: adr.bank.ocrAgreementId, assignmentNumber: number, account: adr.bank.creditorAccount, netsDate: today, transactions }],
      }),
    );
    return Buffer.from(text, 'latin1');
  };
  /** A new unpaid ADR invoice (not on AvtaleGiro: those are the claim run's), as a renewal would issue it. */
  const unpaidInvoice = async (app: TestApp) => {
    const [{ next } = { next: 0 }] = await app.database.rows<{ next: number }>(sql`select (max(aria_invoice_no) + 1)::int as next from invoice`);
    const kid = kidFor('invoice', next, adr.bank);
    const amountOre = 12_300 + (next % 100) * 100;
    const inserted = await app.database.rows<{ aria_invoice_no: number }>(
      sql`insert into invoice (aria_invoice_no, aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
          select ${next}, i.aria_account_no, i.subscription_id, ${kid}, ${amountOre}, i.description, i.period_from, i.period_to, i.due_on, i.bank_account_number
          from invoice i join subscription s on s.id = i.subscription_id
          where s.title_code = 'ADR' and s.payment_method <> 'AVTALEGIRO' order by i.aria_invoice_no limit 1
          returning aria_invoice_no`,
    );
    if (inserted.length !== 1) throw new Error('the seed has an ADR subscription that is not on AvtaleGiro');
    return { aria_invoice_no: next, kid, amount_ore: amountOre };
  };
  const settled = async (app: TestApp, invoiceNo: number) =>
    (await app.database.rows<{ settled_by: string | null }>(sql`select settled_by from invoice where aria_invoice_no = ${invoiceNo}`))[0]?.settled_by ?? null;
  const ledger = async (app: TestApp) =>
    (
      await app.database.rows<{ payments: string; files: string; paid: string }>(
        sql`select (select count(*) from payment) as payments, (select count(*) from bank_file) as files, (select count(*) from invoice where paid_at is not null) as paid`,
      )
    )[0];
  const remote = (folder: string) => readdirSync(folder).sort();

  it('downloads the bank’s OCR file, imports it from the local copy, archives it and removes it from the server', async () => {
    const invoice = await unpaidInvoice(test);
    const bytes = await ocrFile([netbankPayment(invoice.kid, invoice.amount_ore)]);
    writeFileSync(path.join(server().remoteIn, 'OCR.D150126.001'), bytes);

    expect(await test.app.bank.exchange()).toEqual({ received: 1, imported: 1, duplicates: 0, quarantined: 0, sent: 0 });
    expect(await settled(test, invoice.aria_invoice_no)).toBe('BANKGIRO');
    expect(readFileSync(path.join(bankDir, 'archive', 'in', `${sha256Of(bytes)}-OCR.D150126.001`))).toEqual(bytes);
    expect(remote(server().remoteIn)).toEqual([]);
    expect(readdirSync(path.join(bankDir, 'inbox'))).toEqual([]);

    // Nothing new: nothing happens.
    const before = await ledger(test);
    expect(await test.app.bank.exchange()).toEqual({ received: 0, imported: 0, duplicates: 0, quarantined: 0, sent: 0 });
    expect(await ledger(test)).toEqual(before);
  });

  it('quarantines a broken file with its error, moves it off the server for good, and still imports the good file beside it', async () => {
    const first = await unpaidInvoice(test);
    const second = await unpaidInvoice(test);
    const good = await ocrFile([netbankPayment(second.kid, second.amount_ore)]);
    const lines = (await ocrFile([netbankPayment(first.kid, first.amount_ore)])).toString('latin1').split('\n');
    const broken = Buffer.from([...lines.slice(0, 2), (lines[2] ?? '').slice(0, 79), ...lines.slice(3)].join('\n'), 'latin1');
    // By name the broken file comes first: it must not stop the one after it.
    writeFileSync(path.join(server().remoteIn, 'OCR.A-broken'), broken);
    writeFileSync(path.join(server().remoteIn, 'OCR.B-good'), good);
    const paidBefore = await test.database.rows<{ aria_invoice_no: number | string }>(sql`select aria_invoice_no from invoice where paid_at is not null order by aria_invoice_no`);

    expect(await test.app.bank.exchange()).toEqual({ received: 2, imported: 1, duplicates: 0, quarantined: 1, sent: 0 });
    const quarantined = path.join(bankDir, 'quarantine', `${sha256Of(broken)}-OCR.A-broken`);
    expect(readFileSync(quarantined)).toEqual(broken);
    expect(readFileSync(`${quarantined}.error.txt`, 'utf8')).toContain('Linje 3: posten har 79 tegn, ikke 80');
    expect(remote(server().remoteIn)).toEqual([]);
    expect(await settled(test, first.aria_invoice_no)).toBeNull();
    expect(await settled(test, second.aria_invoice_no)).toBe('BANKGIRO');
    // PostgreSQL answers bigint as a string, PGlite as a number: compared as numbers.
    const paidAfter = await test.database.rows<{ aria_invoice_no: number | string }>(sql`select aria_invoice_no from invoice where paid_at is not null order by aria_invoice_no`);
    expect(paidAfter.map((row) => Number(row.aria_invoice_no))).toEqual([...paidBefore.map((row) => Number(row.aria_invoice_no)), Number(second.aria_invoice_no)].sort((a, b) => a - b));

    // Not imported again on the next exchange, nor quarantined again.
    expect(await test.app.bank.exchange()).toMatchObject({ received: 0, quarantined: 0 });
  });

  it('uploads the day’s AvtaleGiro claim file under a temporary name, renames it, and moves it to sent/', async () => {
    // A confirmed mandate on papir's AvtaleGiro subscription, as the bank's mandate file leaves it.
    const [subscription] = await test.database.rows<{ id: string }>(sql`select id from subscription where title_code = 'ADR' and payment_method = 'AVTALEGIRO' order by id limit 1`);
    if (!subscription) throw new Error('the seed has an ADR subscription on AvtaleGiro');
    const at = systemClock();
    await test.database.rows(
      sql`insert into payment_agreement (id, subscription_id, method, status, provider, provider_agreement_id, bank_notice, created_at, updated_at)
          values (${randomUUID()}, ${subscription.id}, 'AVTALEGIRO', 'ACTIVE', 'nets', ${kidFor('mandate', 4_242, adr.bank)}, true, ${at}, ${at})`,
    );
    const [claimable] = await test.database.rows<{ due_on: string }>(
      sql`select to_char(due_on, 'YYYY-MM-DD') as due_on from invoice where subscription_id = ${subscription.id} and paid_at is null and amount_ore > 0 order by due_on desc limit 1`,
    );
    if (!claimable) throw new Error('the AvtaleGiro subscription has an unpaid invoice');
    const runDate = addDays(claimable.due_on, -5);
    clock.set(osloNoonOf(runDate));
    const run = await test.app.bank.claims(runDate);
    if (!run.path || !run.fileName) throw new Error('the claim run wrote no file');
    const written = readFileSync(run.path);

    expect(await test.app.bank.exchange()).toEqual({ received: 0, imported: 0, duplicates: 0, quarantined: 0, sent: 1 });
    expect(remote(server().remoteOut)).toEqual([run.fileName]);
    expect(readFileSync(path.join(server().remoteOut, run.fileName))).toEqual(written);
    expect(readdirSync(path.join(bankDir, 'outbox'))).toEqual([]);
    expect(readFileSync(path.join(bankDir, 'sent', run.fileName))).toEqual(written);

    // The same day's run again writes the same file: it is not sent a second time.
    await test.app.bank.claims(runDate);
    expect(await test.app.bank.exchange()).toMatchObject({ sent: 0 });
    expect(remote(server().remoteOut)).toEqual([run.fileName]);
    expect(readdirSync(path.join(bankDir, 'outbox'))).toEqual([]);
    clock.set(systemClock());
  });

  it('refuses a server whose host key is not the configured one, and changes nothing', async () => {
    const invoice = await unpaidInvoice(test);
    const waiting = path.join(server().remoteIn, 'OCR.D-unverified');
    writeFileSync(waiting, await ocrFile([netbankPayment(invoice.kid, invoice.amount_ore)]));
    writeFileSync(path.join(bankDir, 'outbox', 'avtalegiro-waiting.txt'), 'not for a stranger\n');
    const before = await ledger(test);
    const transport = createSftpTransport({ root: bankDir, sftp: sftpConfig({ BANK_SFTP_HOST_KEY_SHA256: server().wrongFingerprint }), production: true, log: silent });

    await expect(exchangeBankFiles({ transport, root: bankDir, importPath: test.app.bank.importPath, log: silent })).rejects.toThrow(
      `offered host key ${server().fingerprint}, not BANK_SFTP_HOST_KEY_SHA256 (${server().wrongFingerprint}): refused to connect`,
    );
    expect(await ledger(test)).toEqual(before);
    expect(existsSync(waiting)).toBe(true);
    expect(readdirSync(path.join(bankDir, 'inbox'))).toEqual([]);
    expect(remote(server().remoteOut)).not.toContain('avtalegiro-waiting.txt');

    // Production never connects unverified; outside it, the configured app does with the right key.
    const unverified = createSftpTransport({ root: bankDir, sftp: { ...sftpConfig(), hostKeySha256: undefined }, production: true, log: silent });
    await expect(unverified.open()).rejects.toThrow(/BANK_SFTP_HOST_KEY_SHA256 is not set/);
    expect(await test.app.bank.exchange()).toMatchObject({ received: 1, imported: 1, sent: 1 });
    expect(await settled(test, invoice.aria_invoice_no)).toBe('BANKGIRO');
    expect(remote(server().remoteOut)).toContain('avtalegiro-waiting.txt');
  });

  it('without SFTP, imports a file dropped in BANK_FILES_DIR/inbox and moves outbox files to sent/', async () => {
    const invoice = await unpaidInvoice(local);
    const bytes = await ocrFile([netbankPayment(invoice.kid, invoice.amount_ore)]);
    mkdirSync(path.join(localDir, 'inbox'), { recursive: true });
    writeFileSync(path.join(localDir, 'inbox', 'OCR.D150126.002'), bytes);
    // Half a file still being copied in (a dot name or .partial) is left alone.
    writeFileSync(path.join(localDir, 'inbox', '.OCR.D150126.003.partial'), bytes.subarray(0, 80));
    mkdirSync(path.join(localDir, 'outbox'), { recursive: true });
    writeFileSync(path.join(localDir, 'outbox', 'claims.txt'), 'claims\n');

    expect(await local.app.bank.exchange()).toEqual({ received: 1, imported: 1, duplicates: 0, quarantined: 0, sent: 1 });
    expect(await settled(local, invoice.aria_invoice_no)).toBe('BANKGIRO');
    expect(readdirSync(path.join(localDir, 'inbox'))).toEqual(['.OCR.D150126.003.partial']);
    expect(existsSync(path.join(localDir, 'archive', 'in', `${sha256Of(bytes)}-OCR.D150126.002`))).toBe(true);
    expect(readdirSync(path.join(localDir, 'sent'))).toEqual(['claims.txt']);

    // The same file again (the bank sent it twice): a duplicate, taken out of the inbox too.
    writeFileSync(path.join(localDir, 'inbox', 'OCR.D150126.002'), bytes);
    expect(await local.app.bank.exchange()).toEqual({ received: 1, imported: 0, duplicates: 1, quarantined: 0, sent: 0 });
    expect(readdirSync(path.join(localDir, 'inbox'))).toEqual(['.OCR.D150126.003.partial']);
  });
});
