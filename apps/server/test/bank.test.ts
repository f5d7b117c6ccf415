import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, kidFor, manualClock, osloNoonOf, osloToday, readKid, systemClock, type Invoice } from '@minside/domain';
import { bankFileText, parseBankFile, writeAvtaleGiroMandates, writeOcrGiro, type OcrTransactionInput } from '@minside/bank-files';
import { defaultCatalogue } from '@minside/titles';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { insertInvoice } from '../src/modules/billing/issue-invoice.ts';
import { answerAtVipps, netbankPayment as paidInNetbank, signIn as signInAs } from './support.ts';

// Issue 21: the bank's files are the only word that moves money. An OCR Giro file settles the
// invoice its KID names, once; a file that breaks the layout is refused whole and changes nothing;
// AvtaleGiro mandates are confirmed by the bank's mandate file, claims go out in the claim file, and
// the OCR file's draw on the mandate's KID pays the claimed invoice.

const PORTAL = 'http://adresseavisen.localhost:3000';
const OPERATOR_TOKEN = 'b'.repeat(40);
const NETS = '00008080';
const UNIT = '71000001';
const accounts = { papir: 40_000_001, varden: 40_000_013 } as const;
const adr = defaultCatalogue.byTitleCode('ADR');

describe.each(testDatabases)('bank rails ($name)', ({ name }) => {
  let test: TestApp;
  let bankDir: string;
  let transmission = 1_000;
  // The app's clock: the claim run writes only today's file, so the tests move it to the run's day.
  const clock = manualClock(systemClock());
  const today = osloToday(clock());
  const clockAt = (date: string) => clock.set(osloNoonOf(date));

  beforeAll(async () => {
    bankDir = mkdtempSync(path.join(tmpdir(), 'minside-bank-'));
    test = await buildTestApp(name, { seed: true, now: clock, config: { operatorToken: OPERATOR_TOKEN, bankFilesDir: bankDir } });
  });
  afterAll(async () => {
    await test.close();
    rmSync(bankDir, { recursive: true, force: true });
  });

  const upload = (text: string, contentType = 'text/plain; charset=iso-8859-1') =>
    test.app.inject({ method: 'POST', url: '/api/operator/bank-files', headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': contentType }, payload: Buffer.from(text, 'latin1') });

  /** An OCR Giro transmission from Nets to us, with one assignment on the title's agreement. */
  const ocrFile = async (transactions: OcrTransactionInput[], agreement = adr.bank) => {
    transmission += 1;
    return bankFileText(
      writeOcrGiro({
        transmissionNumber: String(transmission).padStart(7, '0'),
        dataRecipient: UNIT,
        netsDate: today,
        assignments: [{ agreementId: agreement.ocrAgreementId, assignmentNumber: String(transmission).padStart(7, '0'), account: agreement.creditorAccount, netsDate: today, transactions }],
      }),
    );
  };
  /** A netbank payment settled today, paid yesterday unless `bankDate` says otherwise. */
  const netbankPayment = (kid: string, amount: number, bankDate = addDays(today, -1)) => paidInNetbank(kid, amount, today, { bankDate });
  const invoicesOf = async (email: string, accountNo: number) => {
    const browser = await signInAs(test, PORTAL, email);
    const response = await browser.request('GET', `${PORTAL}/api/invoice/${accountNo}`);
    expect(response.status, response.body).toBe(200);
    return response.json<{ invoices: Invoice[] }>().invoices;
  };
  const ledger = async () => {
    const [row] = await test.database.rows<{ payments: string; files: string; transactions: string; paid: string }>(
      sql`select (select count(*) from payment) as payments, (select count(*) from bank_file) as files, (select count(*) from bank_transaction) as transactions, (select count(*) from invoice where paid_at is not null) as paid`,
    );
    return row;
  };

  it('a netbank payment with the invoice KID marks exactly that invoice paid, once, with the bank’s date', async () => {
    const unpaid = (await invoicesOf('papir@minside.test', accounts.papir)).find((row) => row.status !== 'PAID');
    if (!unpaid) throw new Error('papir has an unpaid invoice in the seed');
    expect(readKid(unpaid.kid, adr.bank)).toEqual({ kind: 'invoice', serial: unpaid.ariaInvoiceNo });
    const file = await ocrFile([netbankPayment(unpaid.kid, unpaid.amountOre, '2026-01-15'), netbankPayment(kidFor('invoice', 99_999_999, adr.bank), 12_300)]);

    const imported = await upload(file);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toEqual({
      kind: 'ocr-giro',
      transmissionNumber: String(transmission).padStart(7, '0'),
      transactions: 2,
      settled: 1,
      duplicate: false,
      unmatched: [{ kid: kidFor('invoice', 99_999_999, adr.bank), amountOre: 12_300, reason: 'UNKNOWN_KID' }],
      unmatchedCount: 1,
    });
    const after = (await invoicesOf('papir@minside.test', accounts.papir)).find((row) => row.ariaInvoiceNo === unpaid.ariaInvoiceNo);
    expect(after).toMatchObject({ status: 'PAID', settledBy: 'BANKGIRO', paidAt: '2026-01-15T11:00:00.000Z', payable: false });
    // The payer gets a receipt (issue 23), once, with the bank's date and a link to the invoice on Min Side.
    const receipts = await test.database.rows<{ text: string }>(
      sql`select text from mail_outbox where to_address = 'papir@minside.test' and subject like ${`%kvittering for betaling av faktura ${unpaid.ariaInvoiceNo}`}`,
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain('Betalt 15. januar 2026 i nettbanken.');
    expect(receipts[0]?.text).toContain('/fakturaoversikt');

    // The same transmission again: nothing changes, and the answer says so.
    const before = await ledger();
    const again = await upload(file);
    expect(again.json()).toMatchObject({ duplicate: true, settled: 1, transactions: 2 });
    expect(await ledger()).toEqual(before);

    // Paying a closed invoice again does not pay it twice: it waits for a person.
    const twice = await upload(await ocrFile([netbankPayment(unpaid.kid, unpaid.amountOre)]));
    expect(twice.json()).toMatchObject({ settled: 0, unmatched: [{ kid: unpaid.kid, amountOre: unpaid.amountOre, reason: 'INVOICE_CLOSED' }] });
    const payments = await test.database.rows<{ n: string }>(sql`select count(*) as n from payment where aria_invoice_no = ${unpaid.ariaInvoiceNo} and status = 'CAPTURED' and provider = 'bank'`);
    expect(Number(payments[0]?.n)).toBe(1);
    // And no receipt for the payment that is not taken as paying it.
    expect(await test.database.rows(sql`select id from mail_outbox where subject like ${`%kvittering for betaling av faktura ${unpaid.ariaInvoiceNo}`}`)).toHaveLength(1);
  });

  it('partial, over-payment, a reversal and another title’s account are each recorded and listed for a person', async () => {
    const [invoice] = await test.database.rows<{ aria_invoice_no: number; kid: string; amount_ore: number }>(
      sql`select aria_invoice_no, kid, amount_ore from invoice join subscription on subscription.id = invoice.subscription_id where title_code = 'ADR' and paid_at is null and amount_ore > 1000 order by aria_invoice_no limit 1`,
    );
    if (!invoice) throw new Error('an unpaid ADR invoice');
    const half = Math.floor(invoice.amount_ore / 2);
    expect((await upload(await ocrFile([netbankPayment(invoice.kid, half)]))).json()).toMatchObject({ settled: 0, unmatched: [] });
    const rest = invoice.amount_ore - half;
    expect((await upload(await ocrFile([netbankPayment(invoice.kid, rest + 500)]))).json()).toMatchObject({ settled: 1, unmatched: [{ kid: invoice.kid, amountOre: 500, reason: 'OVERPAYMENT' }] });
    expect((await test.database.rows<{ paid: boolean }>(sql`select paid_at is not null as paid from invoice where aria_invoice_no = ${invoice.aria_invoice_no}`))[0]?.paid).toBe(true);

    // The bank reverses the first part: the invoice is open again.
    const reversal = await upload(await ocrFile([{ ...netbankPayment(invoice.kid, half), transactionType: 18, sign: '-', partialSettlementNumber: 0, debitAccount: '00000000000' }]));
    expect(reversal.json(), reversal.body).toMatchObject({ settled: 0, unmatched: [] });
    expect((await test.database.rows<{ paid: boolean }>(sql`select paid_at is not null as paid from invoice where aria_invoice_no = ${invoice.aria_invoice_no}`))[0]?.paid).toBe(false);

    // An ADR KID paid to another title's agreement: not settled, listed.
    const other = defaultCatalogue.byTitleCode('VAR').bank;
    const wrong = await upload(await ocrFile([netbankPayment(invoice.kid, 100)], other));
    expect(wrong.json()).toMatchObject({ settled: 0, unmatched: [{ kid: invoice.kid, amountOre: 100, reason: 'WRONG_ACCOUNT' }] });

    // The day's settlement report: every amount the bank reported, placed or not, and each file's rows add up to its end record.
    const report = await test.app.bank.settlement(today);
    expect(report.bankFiles.length).toBeGreaterThanOrEqual(5);
    for (const file of report.bankFiles) expect(file.importedOre, file.transmissionNumber).toBe(file.endRecordOre);
    const bankLines = report.lines.filter((line) => line.channel === 'OCR_GIRO' || line.channel === 'BANK_REVERSAL' || line.channel === 'AVTALEGIRO');
    const [fromFiles] = await test.database.rows<{ net: string }>(sql`select sum(amount_ore)::text as net from bank_transaction where settled_on = ${today}`);
    expect(bankLines.reduce((sum, line) => sum + line.amountOre, 0)).toBe(Number(fromFiles?.net));
    expect(report.lines.find((line) => line.titleCode === 'ADR' && line.channel === 'BANK_REVERSAL')).toMatchObject({ transactions: 1, amountOre: -half });
    expect(report.lines.find((line) => line.titleCode === 'VAR' && line.channel === 'OCR_GIRO')).toMatchObject({ unplacedOre: 100 });
    const csv = await test.app.inject({ method: 'GET', url: `/api/operator/bank-files/settlement?date=${today}`, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('dato,avis,kanal,antall,beløp_øre,beløp_kr,uplassert_øre');
    expect(csv.body).toContain('(stemmer)');
    expect(csv.body).not.toContain('STEMMER IKKE');

    const listed = await test.app.inject({ method: 'GET', url: '/api/operator/bank-files/reconciliation', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(listed.statusCode).toBe(200);
    expect(listed.json<{ items: { reason: string }[] }>().items.map((item) => item.reason)).toEqual(expect.arrayContaining(['UNKNOWN_KID', 'INVOICE_CLOSED', 'OVERPAYMENT', 'WRONG_ACCOUNT']));
  });

  it('refuses a malformed file whole, naming the line and field, changes nothing and quarantines it', async () => {
    const [invoice] = await test.database.rows<{ kid: string; amount_ore: number }>(sql`select kid, amount_ore from invoice where paid_at is null and amount_ore > 0 order by aria_invoice_no limit 1`);
    const good = await ocrFile([netbankPayment(invoice?.kid ?? '', invoice?.amount_ore ?? 1)]);
    const lines = good.split('\n');
    const before = await ledger();
    for (const [broken, message] of [
      [[...lines.slice(0, 2), (lines[2] ?? '').slice(0, 79), ...lines.slice(3)].join('\n'), 'Linje 3: posten har 79 tegn, ikke 80'],
      [lines.slice(0, -2).join('\n'), 'Linje'],
      [good.replace(/^NY000010/, 'NY000011'), 'Linje 1'],
      // Something after the end record: refused whole too, not applied up to the end record (the review found that).
      [`${good}NY0000${'0'.repeat(72)}\n`, `Linje ${lines.length}`],
    ] as const) {
      const refused = await upload(broken);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json()).toMatchObject({ code: 'BANK_FILE_INVALID' });
      expect(refused.json<{ message: string }>().message).toContain(message);
    }
    expect(await ledger()).toEqual(before);
    expect(readdirSync(path.join(bankDir, 'quarantine')).filter((file) => file.endsWith('.error.txt'))).toHaveLength(4);
    // Not a bank file at all, or no operator: no 500, nothing stored.
    expect((await upload('hei')).statusCode).toBe(422);
    expect((await test.app.inject({ method: 'POST', url: '/api/operator/bank-files', headers: { 'content-type': 'text/plain' }, payload: good })).statusCode).toBe(401);
    expect(await ledger()).toEqual(before);
  });

  it('AvtaleGiro: pending until the mandate file confirms it, claimed in the claim file, paid only by the OCR draw, and a deleted mandate falls back to giro', async () => {
    const browser = await signInAs(test, 'http://varden.localhost:3000', 'varden@minside.test');
    const chosen = await browser.request('PUT', 'http://varden.localhost:3000/api/subscription/paymentMethod', {
      json: { ariaAccountNo: accounts.varden, titleCode: 'VAR', method: 'AVTALEGIRO', idempotencyKey: randomUUID() },
    });
    expect(chosen.status, chosen.body).toBe(200);
    const varden = defaultCatalogue.byTitleCode('VAR');
    const { avtaleGiro } = chosen.json<{ result: string; paymentMethod: { avtaleGiro: { kid: string; payeeName: string; status: string } } }>().paymentMethod;
    expect(chosen.json()).toMatchObject({ result: 'PENDING_BANK_CONFIRMATION' });
    expect(avtaleGiro).toMatchObject({ payeeName: varden.name, status: 'PENDING' });
    expect(readKid(avtaleGiro.kid, varden.bank)?.kind).toBe('mandate');

    // The bank's mandate file: the payer confirmed it in the netbank.
    const mandates = (registrationType: 0 | 1 | 2) => {
      transmission += 1;
      return writeAvtaleGiroMandates({
        transmissionNumber: String(transmission).padStart(7, '0'),
        dataRecipient: UNIT,
        netsDate: today,
        assignments: [{ assignmentNumber: String(transmission).padStart(7, '0'), account: varden.bank.avtaleGiroAccount, transactions: [{ registrationType, kid: avtaleGiro.kid, notify: true }] }],
      });
    };
    const confirmed = await upload(await bankFileText(mandates(1)));
    expect(confirmed.json(), confirmed.body).toMatchObject({ kind: 'avtalegiro-mandates', transactions: 1, unmatched: [] });
    const shown = await browser.request('GET', `http://varden.localhost:3000/api/subscription/${accounts.varden}/VAR/paymentMethod`);
    expect(shown.json()).toMatchObject({ method: 'AVTALEGIRO', avtaleGiro: { kid: avtaleGiro.kid, status: 'ACTIVE' } });

    // An unpaid invoice due inside the bank's window is claimed once, on the mandate's KID.
    // varden's newest-numbered invoice (the older quarter) is unpaid, as it is in the seed (an overdue giro).
    await test.database.rows(sql`update invoice set paid_at = null, settled_by = null where aria_invoice_no = (select max(aria_invoice_no) from invoice where subscription_id = 'demo-varden-var')`);
    const [claimable] = await test.database.rows<{ aria_invoice_no: number; amount_ore: number; due_on: string }>(
      sql`select aria_invoice_no, amount_ore, to_char(due_on, 'YYYY-MM-DD') as due_on from invoice where subscription_id = 'demo-varden-var' and paid_at is null and amount_ore > 0 order by due_on desc limit 1`,
    );
    if (!claimable) throw new Error('varden has an unpaid invoice');
    const runDate = addDays(claimable.due_on, -5);
    const getClaims = () => test.app.inject({ method: 'GET', url: `/api/operator/bank-files/avtalegiro-claims?date=${runDate}`, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    // Reading is not running: before the day's run there is no file, and the GET makes none.
    expect((await getClaims()).json()).toMatchObject({ code: 'BANK_CLAIMS_NOT_WRITTEN' });
    expect(await test.database.rows(sql`select 1 from avtalegiro_claim`)).toEqual([]);
    clockAt(runDate);
    expect(await test.app.bank.claims(runDate)).toMatchObject({ claims: 1, cancellations: 0 });
    const claims = await getClaims();
    expect(claims.statusCode, claims.body).toBe(200);
    const parsed = await parseBankFile(claims.body);
    expect(parsed.kind).toBe('avtalegiro-claims');
    expect(parsed.start).toMatchObject({ dataTransmitter: UNIT, dataRecipient: NETS });
    const claimed = parsed.assignments.flatMap((assignment) => assignment.transactions);
    expect(claimed).toContainEqual(expect.objectContaining({ type: 'avtalegiro-claim', kid: avtaleGiro.kid, amount: claimable.amount_ore, dueDate: claimable.due_on, transactionType: 21 }));
    expect(claims.body).toContain(`Faktura ${claimable.aria_invoice_no}`);
    // The same day again gives the same file; no invoice is claimed twice.
    const rerun = await test.app.bank.claims(runDate);
    expect(readFileSync(rerun.path ?? '', 'latin1')).toBe(claims.body);
    expect((await getClaims()).body).toBe(claims.body);
    // A run killed while it wrote the file (the day's row still WRITING, the file half there): the next run writes the same bytes.
    const outbox = path.join(bankDir, 'outbox');
    const [written] = readdirSync(outbox);
    rmSync(path.join(outbox, written ?? ''));
    await test.database.rows(sql`update bank_file set status = 'WRITING' where direction = 'OUT' and nets_date = ${runDate}`);
    const afterCrash = await test.app.bank.claims(runDate);
    expect(readFileSync(afterCrash.path ?? '', 'latin1')).toBe(claims.body);
    expect((await test.database.rows<{ n: string }>(sql`select count(*)::text as n from avtalegiro_claim where aria_invoice_no = ${claimable.aria_invoice_no}`))[0]?.n).toBe('1');
    expect(existsSync(path.join(bankDir, 'outbox'))).toBe(true);

    // Nothing is paid on the due date without the bank: the renewal job no longer draws AvtaleGiro.
    clockAt(claimable.due_on);
    await test.app.billingJobs.runRenewals();
    expect((await test.database.rows<{ paid: boolean }>(sql`select paid_at is not null as paid from invoice where aria_invoice_no = ${claimable.aria_invoice_no}`))[0]?.paid).toBe(false);

    // The OCR file's AvtaleGiro draw (type 15) on the mandate's KID pays it.
    const draw = await upload(await ocrFile([{ ...netbankPayment(avtaleGiro.kid, claimable.amount_ore, claimable.due_on), transactionType: 15 }], varden.bank));
    expect(draw.json(), draw.body).toMatchObject({ settled: 1, unmatched: [] });
    expect((await test.database.rows<{ settled_by: string }>(sql`select settled_by from invoice where aria_invoice_no = ${claimable.aria_invoice_no}`))[0]?.settled_by).toBe('AVTALEGIRO');
    // The payer gets the draw's receipt (issue 23), once: the same draw again below is no payment of it.
    const drawReceipts = async () => test.database.rows<{ text: string }>(sql`select text from mail_outbox where subject like ${`%kvittering for betaling av faktura ${claimable.aria_invoice_no}`}`);
    expect((await drawReceipts()).map((mail) => mail.text.includes('med AvtaleGiro'))).toEqual([true]);
    const paidState = async () => (await test.database.rows<{ paid: boolean }>(sql`select paid_at is not null as paid from invoice where aria_invoice_no = ${claimable.aria_invoice_no}`))[0]?.paid;

    // The same draw again is for the same claim, already paid: a person looks; no other invoice is settled by it.
    const again = await upload(await ocrFile([{ ...netbankPayment(avtaleGiro.kid, claimable.amount_ore, claimable.due_on), transactionType: 15 }], varden.bank));
    expect(again.json()).toMatchObject({ settled: 0, unmatched: [{ kid: avtaleGiro.kid, amountOre: claimable.amount_ore, reason: 'INVOICE_CLOSED' }] });
    expect(await drawReceipts()).toHaveLength(1);
    // The bank reverses the draw: it finds the paid claim's payment, and the invoice is open again.
    const reversedDraw = await upload(
      await ocrFile(
        [{ ...netbankPayment(avtaleGiro.kid, claimable.amount_ore, claimable.due_on), transactionType: 18, sign: '-', partialSettlementNumber: 0, debitAccount: '00000000000' }],
        varden.bank,
      ),
    );
    expect(reversedDraw.json(), reversedDraw.body).toMatchObject({ settled: 0, unmatched: [] });
    expect(await paidState()).toBe(false);
    // A reversed draw is no draw: the invoice is the payer's to pay again, not "drawn by the bank".
    const vardenInvoices = await browser.request('GET', `http://varden.localhost:3000/api/invoice/${accounts.varden}`);
    const reopened = vardenInvoices.json<{ invoices: Invoice[] }>().invoices.find((row) => row.ariaInvoiceNo === Number(claimable.aria_invoice_no));
    expect(reopened).toMatchObject({ avtaleGiroDrawOn: null, payable: true });
    // Issue 25.6: the list says the draw failed and offers to pay it.
    expect(reopened).toMatchObject({ collection: 'AVTALEGIRO_FAILED', scheduledDrawOn: null });

    // Set aside for giro, then deleted at the bank: choosing AvtaleGiro again waits for a new confirmation, it does not come back ACTIVE.
    const giro = await browser.request('PUT', 'http://varden.localhost:3000/api/subscription/paymentMethod', {
      json: { ariaAccountNo: accounts.varden, titleCode: 'VAR', method: 'BANKGIRO', idempotencyKey: randomUUID() },
    });
    expect(giro.status).toBe(200);
    expect((await upload(await bankFileText(mandates(2)))).json()).toMatchObject({ transactions: 1, unmatched: [] });
    const chosenAgain = await browser.request('PUT', 'http://varden.localhost:3000/api/subscription/paymentMethod', {
      json: { ariaAccountNo: accounts.varden, titleCode: 'VAR', method: 'AVTALEGIRO', idempotencyKey: randomUUID() },
    });
    expect(chosenAgain.json()).toMatchObject({ result: 'PENDING_BANK_CONFIRMATION', paymentMethod: { avtaleGiro: { kid: avtaleGiro.kid, status: 'PENDING' } } });
    expect((await upload(await bankFileText(mandates(1)))).statusCode).toBe(200);
    expect((await browser.request('GET', `http://varden.localhost:3000/api/subscription/${accounts.varden}/VAR/paymentMethod`)).json()).toMatchObject({ avtaleGiro: { status: 'ACTIVE' } });

    // The payer stops the mandate in the netbank: back to giro, and an e-mail says so.
    expect((await upload(await bankFileText(mandates(2)))).statusCode).toBe(200);
    const after = await browser.request('GET', `http://varden.localhost:3000/api/subscription/${accounts.varden}/VAR/paymentMethod`);
    expect(after.json()).toMatchObject({ method: 'INVOICE' });
    const mail = await test.database.rows<{ subject: string }>(sql`select subject from mail_outbox where subject like '%AvtaleGiro-avtalen er stoppet%'`);
    expect(mail).toHaveLength(1);
    expect(readFileSync(path.join(bankDir, 'outbox', readdirSync(path.join(bankDir, 'outbox'))[0] ?? ''), 'latin1')).toBe(claims.body);
    clock.set(systemClock());
  });

  it('a claim is withdrawn while the bank lets go, claimed again for what is open, and cannot be paid twice once the draw is certain', async () => {
    // Far from the other tests' run days: a day of its own, with an invoice of papir's AvtaleGiro subscription (mandate 1, ACTIVE in the seed) due ten days later.
    const day = addDays(today, 61);
    clockAt(day);
    const due = addDays(day, 10);
    const mandateKid = kidFor('mandate', 1, adr.bank);
    const created = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        {
          ariaAccountNo: accounts.papir,
          subscriptionId: 'demo-papir-adr',
          amountOre: 64_900,
          description: 'Komplett, testperiode',
          periodFrom: addDays(due, 1),
          periodTo: addDays(due, 30),
          dueOn: due,
        },
        clock(),
      ),
    );
    const no = created.ariaInvoiceNo;
    const claimsIn = async (path: string | null) =>
      (await parseBankFile(readFileSync(path ?? '', 'latin1'))).assignments.flatMap((assignment) => assignment.transactions).filter((t) => t.kid === mandateKid && 'dueDate' in t && t.dueDate === due);
    const shown = async () => (await invoicesOf('papir@minside.test', accounts.papir)).find((row) => row.ariaInvoiceNo === no);

    // Only today's file is made: it goes to the bank now, and its lead times count from today.
    await expect(test.app.bank.claims(addDays(day, 1))).rejects.toMatchObject({ statusCode: 409, code: 'BANK_CLAIMS_NOT_TODAY' });
    const first = await test.app.bank.claims(day);
    expect(await claimsIn(first.path)).toEqual([expect.objectContaining({ type: 'avtalegiro-claim', amount: 64_900 })]);
    expect(await shown()).toMatchObject({ status: 'UNPAID', avtaleGiroDrawOn: due, payable: true, paidOre: 0, openOre: 64_900 });
    // Issue 25.6: the bank draws it, so the list groups it as coming, not as something to pay.
    expect(await shown()).toMatchObject({ collection: 'AVTALEGIRO_SCHEDULED', scheduledDrawOn: due });

    // A part-payment in the netbank with the invoice's KID: the claim would draw too much.
    expect((await upload(await ocrFile([netbankPayment(created.kid, 20_000)]))).json()).toMatchObject({ settled: 0, unmatched: [] });
    expect(await shown()).toMatchObject({ status: 'UNPAID', paidOre: 20_000, openOre: 44_900 });
    // The next day's file withdraws it (type 93) and claims nothing for it in the same file…
    clockAt(addDays(day, 1));
    const withdrawn = await test.app.bank.claims(addDays(day, 1));
    expect(await claimsIn(withdrawn.path)).toEqual([expect.objectContaining({ type: 'avtalegiro-cancellation', amount: 64_900 })]);
    // …and the day after claims what is open.
    clockAt(addDays(day, 2));
    const again = await test.app.bank.claims(addDays(day, 2));
    expect(await claimsIn(again.path)).toEqual([expect.objectContaining({ type: 'avtalegiro-claim', amount: 44_900 })]);
    expect(await shown()).toMatchObject({ avtaleGiroDrawOn: due, payable: true, openOre: 44_900 });

    // Two days before the due date the bank no longer lets go: not payable here, and refused if tried.
    clockAt(addDays(due, -2));
    expect(await shown()).toMatchObject({ status: 'UNPAID', avtaleGiroDrawOn: due, payable: false, openOre: 44_900, collection: 'AVTALEGIRO_SCHEDULED', scheduledDrawOn: due });
    const browser = await signInAs(test, PORTAL, 'papir@minside.test');
    const refused = await browser.request('POST', `${PORTAL}/api/invoice/${no}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(refused.status, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'INVOICE_DRAWN_BY_AVTALEGIRO' });
    expect(await test.database.rows(sql`select 1 from payment where aria_invoice_no = ${no} and provider <> 'bank'`)).toEqual([]);

    // The bank's draw of what was claimed settles it.
    clockAt(due);
    const draw = await upload(await ocrFile([{ ...netbankPayment(mandateKid, 44_900, due), transactionType: 15 }]));
    expect(draw.json(), draw.body).toMatchObject({ settled: 1, unmatched: [] });
    expect(await shown()).toMatchObject({ status: 'PAID', settledBy: 'AVTALEGIRO', paidOre: 64_900, openOre: 0, avtaleGiroDrawOn: null, collection: 'PAID', scheduledDrawOn: null });
    clock.set(systemClock());
  });

  it('an approval captured too late is let go, and a claim the bank never drew gives the invoice back to the payer', async () => {
    const day = addDays(today, 91);
    clockAt(day);
    const due = addDays(day, 10);
    const created = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        {
          ariaAccountNo: accounts.papir,
          subscriptionId: 'demo-papir-adr',
          amountOre: 64_900,
          description: 'Komplett, ikke trukket',
          periodFrom: addDays(due, 1),
          periodTo: addDays(due, 30),
          dueOn: due,
        },
        clock(),
      ),
    );
    const no = created.ariaInvoiceNo;
    const shown = async () => (await invoicesOf('papir@minside.test', accounts.papir)).find((row) => row.ariaInvoiceNo === no);
    expect((await test.app.bank.claims(day)).claims).toBeGreaterThanOrEqual(1);
    expect(await shown()).toMatchObject({ avtaleGiroDrawOn: due, avtaleGiroDrawOre: 64_900, payable: true });

    // Paid with Vipps while the claim could still be withdrawn, approved at Vipps MobilePay, but every webhook is lost and the payer never comes back.
    const browser = await signInAs(test, PORTAL, 'papir@minside.test');
    const started = await browser.request('POST', `${PORTAL}/api/invoice/${no}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBe(200);
    const { paymentId, redirectUrl } = started.json<{ paymentId: string; redirectUrl: string }>();
    expect(await answerAtVipps(test, redirectUrl, 'approve', { lostWebhooks: true })).toBe(`/betal-faktura/${no}?paymentId=${paymentId}`);
    expect(await test.app.paymentProvider.lookup(paymentId)).toMatchObject({ status: 'AUTHORIZED' });
    // Reconciliation finds the approval only when the bank's draw is certain: capturing it would pay twice, so it is cancelled.
    clockAt(addDays(due, -2));
    await test.app.billingJobs.runReconciliation();
    await test.app.vippsSimulator?.flushWebhooks();
    const [payment] = await test.database.rows<{ status: string; error_code: string | null }>(sql`select status, error_code from payment where id = ${paymentId}`);
    expect(payment).toEqual({ status: 'CANCELLED', error_code: 'INVOICE_DRAWN_BY_AVTALEGIRO' });
    expect(await shown()).toMatchObject({ status: 'UNPAID', payable: false, avtaleGiroDrawOn: due });
    // At Vipps MobilePay the reservation is let go: nothing was captured, and nothing can be now.
    expect(await test.app.paymentProvider.lookup(paymentId)).toMatchObject({ status: 'CANCELLED' });
    expect(test.app.vippsSimulator?.requests.filter((request) => request.method === 'POST' && request.path === `/epayment/v1/payments/${paymentId}/capture`)).toEqual([]);

    // The bank never draws it (no cover): after its due date the invoice waits for the bank's answer…
    clockAt(addDays(due, 2));
    expect(await shown()).toMatchObject({ status: 'OVERDUE', payable: false, avtaleGiroDrawOn: due, collection: 'AVTALEGIRO_AWAITING_BANK', scheduledDrawOn: due });
    // …and when none came in the days a draw can take, it is the payer's to pay again: a failed draw, "Betal nå" (issue 25.6).
    clockAt(addDays(due, 6));
    expect(await shown()).toMatchObject({ status: 'OVERDUE', payable: true, avtaleGiroDrawOn: null, avtaleGiroDrawOre: null, openOre: 64_900, collection: 'AVTALEGIRO_FAILED', scheduledDrawOn: null });
    const retried = await (await signInAs(test, PORTAL, 'papir@minside.test')).request('POST', `${PORTAL}/api/invoice/${no}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(retried.status, retried.body).toBe(200);
    clock.set(systemClock());
  });

  it('issue 25.6: an unpaid invoice on a confirmed mandate is the bank’s to draw while a claim reaches it in time; one the bank will not claim, and a giro one, are the payer’s', async () => {
    const at = (dueInDays: number, description: string) =>
      test.database.db.transaction((tx) => {
        const due = addDays(today, dueInDays);
        return insertInvoice(
          tx,
          defaultCatalogue,
          'ADR',
          { ariaAccountNo: accounts.papir, subscriptionId: 'demo-papir-adr', amountOre: 64_900, description, periodFrom: addDays(due, 1), periodTo: addDays(due, 30), dueOn: due },
          clock(),
        );
      });
    const later = await at(30, 'Komplett, trekkes senere');
    const lastClaimDay = await at(4, 'Komplett, siste kravdag');
    const tooLate = await at(3, 'Komplett, for sent for banken');
    const papir = await invoicesOf('papir@minside.test', accounts.papir);
    const of = (no: number) => papir.find((row) => row.ariaInvoiceNo === no);
    // Not yet claimed: the bank draws it on its due date (the claim goes 4–14 days before).
    expect(of(later.ariaInvoiceNo)).toMatchObject({ status: 'UNPAID', collection: 'AVTALEGIRO_SCHEDULED', scheduledDrawOn: addDays(today, 30), avtaleGiroDrawOn: null });
    expect(of(lastClaimDay.ariaInvoiceNo)).toMatchObject({ collection: 'AVTALEGIRO_SCHEDULED', scheduledDrawOn: addDays(today, 4) });
    // Due too soon for any claim run: the bank never sees it, so the payer pays it.
    expect(of(tooLate.ariaInvoiceNo)).toMatchObject({ status: 'UNPAID', collection: 'DUE', scheduledDrawOn: null, payable: true });
    // varden pays by giro: an unpaid invoice of theirs is the payer's, due (not alarming) until its due date.
    const giro = await test.database.db.transaction((tx) => {
      const due = addDays(today, 200);
      return insertInvoice(
        tx,
        defaultCatalogue,
        'VAR',
        {
          ariaAccountNo: accounts.varden,
          subscriptionId: 'demo-varden-var',
          amountOre: 189_900,
          description: 'Papir + digital, neste år',
          periodFrom: addDays(due, 1),
          periodTo: addDays(due, 90),
          dueOn: due,
        },
        clock(),
      );
    });
    const browser = await signInAs(test, 'http://varden.localhost:3000', 'varden@minside.test');
    const varden = (await browser.request('GET', `http://varden.localhost:3000/api/invoice/${accounts.varden}`)).json<{ invoices: Invoice[] }>().invoices;
    expect(varden.find((row) => row.ariaInvoiceNo === giro.ariaInvoiceNo)).toMatchObject({ status: 'UNPAID', collection: 'DUE', scheduledDrawOn: null, payable: true });
  });

  it('pay-now asks only for what is still open after a part-payment', async () => {
    // Due beyond the claim window: not at the bank, so the subscriber may pay it here.
    const due = addDays(today, 40);
    const created = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        { ariaAccountNo: accounts.papir, subscriptionId: 'demo-papir-adr', amountOre: 64_900, description: 'Komplett, delbetalt', periodFrom: addDays(due, 1), periodTo: addDays(due, 30), dueOn: due },
        clock(),
      ),
    );
    expect((await upload(await ocrFile([netbankPayment(created.kid, 10_000)]))).json()).toMatchObject({ settled: 0, unmatched: [] });
    const browser = await signInAs(test, PORTAL, 'papir@minside.test');
    const started = await browser.request('POST', `${PORTAL}/api/invoice/${created.ariaInvoiceNo}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBe(200);
    const [asked] = await test.database.rows<{ amount_ore: number }>(sql`select amount_ore from payment where aria_invoice_no = ${created.ariaInvoiceNo} and provider <> 'bank'`);
    expect(asked?.amount_ore).toBe(54_900);
  });
});
