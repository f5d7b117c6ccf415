import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, manualClock, osloToday, systemClock, type CreditNote, type Invoice } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { insertInvoice } from '../src/modules/billing/issue-invoice.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { answerAtVipps, expectRefused, pdfText, signIn } from './support.ts';
import type { TestBrowser } from './browser.ts';

// Issue 23: every invoice is a document a bookkeeper accepts (bokføringsforskriften § 5-1-1),
// issued once and never changed; crediting one issues a credit note in the same number series;
// every captured payment is receipted by e-mail. The documents are read back as text the way a
// reader's tools extract it (pdf.js), not from what we asked the renderer to draw.

const PORTAL = 'http://adresseavisen.localhost:3000';
const OPERATOR = 'o'.repeat(40);
const papir = 40_000_001;
const digital = 40_000_002;
/** 200 characters, so a cut anywhere shows. */
const longDescription =
  `Komplett med eAvis, søndagsutgave og Pluss – Áile Čuđe sin gaveperiode til hele familien i Kárášjohka, med levering før klokken sju alle hverdager og lørdager, samt tilgang til alle lokale nyheter`.padEnd(
    200,
    '.',
  );

describe.each(testDatabases)('invoices and credit notes as documents ($name)', ({ name }) => {
  let test: TestApp;
  const clock = manualClock(systemClock());
  const today = () => osloToday(clock());

  let ehfOutboxDir = '';

  beforeAll(async () => {
    ehfOutboxDir = await mkdtemp(path.join(tmpdir(), 'minside-ehf-'));
    test = await buildTestApp(name, { seed: true, now: clock, config: { operatorToken: OPERATOR, ehfOutboxDir } });
  });
  afterAll(() => test?.close());

  const issue = (ariaAccountNo: number, subscriptionId: string, amountOre: number, description = 'Komplett, testperiode', dueInDays = 14) =>
    test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'ADR',
        { ariaAccountNo, subscriptionId, amountOre, description, periodFrom: addDays(today(), 20), periodTo: addDays(today(), 49), dueOn: addDays(today(), dueInDays) },
        clock(),
      ),
    );
  const download = async (browser: TestBrowser, path: string) => {
    const response = await browser.request('GET', `${PORTAL}${path}`);
    expect(response.status, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    return response.raw;
  };
  const operatorCredit = (ariaInvoiceNo: number, reason: unknown) =>
    test.app.inject({
      method: 'POST',
      url: `/api/operator/invoice/${ariaInvoiceNo}/credit`,
      headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
      payload: { reason },
    });
  /** Mail to `to` whose subject is like `subjectLike`, its text with the no-break spaces of amounts as plain ones. */
  const mailsTo = async (to: string, subjectLike: string) =>
    (await test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = ${to} and subject like ${subjectLike} order by created_at`)).map(
      (mail) => ({
        ...mail,
        text: mail.text.replace(/\u00a0/g, ' '),
      }),
    );

  it('an invoice to a subscriber named Áile Čuđe has every field bokføringsforskriften § 5-1-1 asks for, readable as text, and the same bytes on every download', async () => {
    await test.database.db.execute(sql`update app_user set given_name = 'Áile', family_name = 'Čuđe' where email = 'papir@minside.test'`);
    const created = await issue(papir, 'demo-papir-adr', 1_234_567, longDescription);
    const browser = await signIn(test, PORTAL, 'papir@minside.test');
    const pdf = await download(browser, `/api/invoice/${papir}/${created.ariaInvoiceNo}/pdf`);
    const text = await pdfText(pdf);
    const title = defaultCatalogue.byTitleCode('ADR');
    const [address] = await test.database.rows<{ street: string; street_number: string; postal_code: string; town: string }>(
      sql`select street, street_number, postal_code, town from delivery_address where subscription_id = 'demo-papir-adr'`,
    );
    const dotted = (iso: string) => iso.split('-').reverse().join('.');
    const required: [string, string][] = [
      ['document type', 'Faktura'],
      ['invoice number', `Fakturanummer ${created.ariaInvoiceNo}`],
      ['invoice date', `Fakturadato ${dotted(today())}`],
      ["seller's name", title.seller.legalName],
      ["seller's address", `${title.seller.street}\n${title.seller.postalCode} ${title.seller.town}`],
      ["seller's organisation number with MVA", 'Org.nr. NO 962 806 112 MVA'],
      ["buyer's name", 'Áile Čuđe'],
      ["buyer's address", `${address?.street} ${address?.street_number}`],
      ["buyer's postal code and town", `${address?.postal_code} ${address?.town}`],
      ['customer number', `Kundenummer ${papir}`],
      ['period', `${dotted(addDays(today(), 20))}–`],
      ['VAT shown at zero', 'Mva 0 % 0,00 kr'],
      ['the reason it is zero', 'Nullsats for aviser, merverdiavgiftsloven § 6-2'],
      ['amount with thousands separator', '12 345,67 kr'],
      ['due date', `Forfallsdato ${dotted(addDays(today(), 14))}`],
      ['KID', `KID ${created.kid}`],
      ["the title's own account", `Kontonummer ${created.bankAccountNumber}`],
      ["the title's wordmark", title.name],
      ['customer centre', `Kundeservice: ${title.customerCenterPhoneNumber}`],
      ['customer centre e-mail', title.customerCenterEmail],
    ];
    for (const [field, expected] of required) expect(text, field).toContain(expected);
    // Not one character of the 200 lost: the description wraps, it is never cut.
    expect(text.replace(/\s+/g, ''), 'the whole description').toContain(longDescription.replace(/\s+/g, ''));
    expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    expect(pdf.toString('latin1'), 'tagged for screen readers').toContain('/MarkInfo');

    // Immutable: the job stores the bytes the download gave (the rendering is deterministic); the
    // subscriber's new name, a later download — the same document, byte for byte.
    expect(await test.app.billingDocuments.complete()).toMatchObject({ stored: expect.any(Number) });
    const [stored] = await test.database.rows<{ pdf_sha256: string }>(sql`select pdf_sha256 from billing_document where number = ${created.ariaInvoiceNo}`);
    expect(stored?.pdf_sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    await test.database.db.execute(sql`update app_user set given_name = 'Nytt', family_name = 'Navn' where email = 'papir@minside.test'`);
    clock.advance(3 * 24 * 60 * 60 * 1000);
    const again = await download(await signIn(test, PORTAL, 'papir@minside.test'), `/api/invoice/${papir}/${created.ariaInvoiceNo}/pdf`);
    expect(again.equals(pdf)).toBe(true);
    await test.database.db.execute(sql`update app_user set given_name = 'Papir', family_name = 'Hansen' where email = 'papir@minside.test'`);
  });

  it("a digital subscription's invoice says § 6-3, and someone else's invoice is a 404", async () => {
    const created = await issue(digital, 'demo-digital-adr', 29_900, 'Digital, testperiode');
    const owner = await signIn(test, PORTAL, 'digital@minside.test');
    const text = await pdfText(await download(owner, `/api/invoice/${digital}/${created.ariaInvoiceNo}/pdf`));
    expect(text).toContain('Nullsats for elektroniske nyhetstjenester, merverdiavgiftsloven § 6-3');
    expect(text).toContain('299,00 kr');
    const other = await signIn(test, PORTAL, 'papir@minside.test');
    expectRefused(await other.request('GET', `${PORTAL}/api/invoice/${digital}/${created.ariaInvoiceNo}/pdf`), 404, 'NOT_FOUND');
    expectRefused(await other.request('GET', `${PORTAL}/api/invoice/${papir}/${created.ariaInvoiceNo}/pdf`), 404, 'NOT_FOUND');
  });

  it('crediting an unpaid invoice issues a credit note in the same series: the invoice is no longer payable, the subscriber is mailed, a second credit is refused', async () => {
    const created = await issue(papir, 'demo-papir-adr', 64_900);
    const browser = await signIn(test, PORTAL, 'papir@minside.test');

    // Bad input changes nothing.
    const tooShort = await operatorCredit(created.ariaInvoiceNo, '   ');
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await operatorCredit(999_999_999, 'Reklamasjon på levering')).statusCode).toBe(404);
    const anonymous = await test.app.inject({
      method: 'POST',
      url: `/api/operator/invoice/${created.ariaInvoiceNo}/credit`,
      headers: { 'content-type': 'application/json' },
      payload: { reason: 'Reklamasjon på levering' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await test.database.rows(sql`select number from billing_document where kind = 'CREDIT_NOTE' and aria_invoice_no = ${created.ariaInvoiceNo}`)).toHaveLength(0);

    const credited = await operatorCredit(created.ariaInvoiceNo, 'Reklamasjon på levering');
    expect(credited.statusCode, credited.body).toBe(200);
    const { creditNoteNumber, refunded } = credited.json<{ creditNoteNumber: number; refunded: boolean }>();
    expect(refunded).toBe(false);
    // One series: the next number of the invoices' own sequence.
    expect(creditNoteNumber).toBeGreaterThan(created.ariaInvoiceNo);
    const next = await issue(papir, 'demo-papir-adr', 100);
    expect(next.ariaInvoiceNo).toBeGreaterThan(creditNoteNumber);

    const shown = (await browser.request('GET', `${PORTAL}/api/invoice/${papir}`)).json<{ invoices: Invoice[] }>().invoices.find((row) => row.ariaInvoiceNo === created.ariaInvoiceNo);
    expect(shown).toMatchObject({ status: 'PAID', settledBy: 'CREDIT', payable: false });
    const listed = (await browser.request('GET', `${PORTAL}/api/invoice/${papir}/credit-notes`)).json<{ creditNotes: CreditNote[] }>().creditNotes;
    expect(listed).toContainEqual({ number: creditNoteNumber, ariaInvoiceNo: created.ariaInvoiceNo, issuedOn: today(), amountOre: 64_900 });

    const text = await pdfText(await download(browser, `/api/invoice/${papir}/credit-notes/${creditNoteNumber}/pdf`));
    for (const expected of [
      'Kreditnota',
      `Kreditnotanummer ${creditNoteNumber}`,
      `Gjelder faktura ${created.ariaInvoiceNo}`,
      'Årsak: Reklamasjon på levering',
      'Du skal ikke betale den',
      'Kreditert beløp 649,00 kr',
      'Org.nr. NO 962 806 112 MVA',
      'Mva 0 %',
    ])
      expect(text).toContain(expected);

    const [mail] = await mailsTo('papir@minside.test', `%kreditnota ${creditNoteNumber}%`);
    expect(mail?.text).toContain('/fakturaoversikt');
    expect(mail?.text).toContain('649,00 kr');

    const twice = await operatorCredit(created.ariaInvoiceNo, 'Igjen, ved en feil');
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'INVOICE_ALREADY_CREDITED' });
    // Not the owner's: another account's credit note is a 404.
    const other = await signIn(test, PORTAL, 'digital@minside.test');
    expectRefused(await other.request('GET', `${PORTAL}/api/invoice/${digital}/credit-notes/${creditNoteNumber}/pdf`), 404, 'NOT_FOUND');
  });

  it('crediting an invoice paid with Vipps refunds it at Vipps first, then issues the credit note that says so; the payment was receipted', async () => {
    const created = await issue(digital, 'demo-digital-adr', 29_900);
    const browser = await signIn(test, PORTAL, 'digital@minside.test');
    const started = await browser.request('POST', `${PORTAL}/api/invoice/${created.ariaInvoiceNo}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBe(200);
    await answerAtVipps(test, started.json<{ redirectUrl: string }>().redirectUrl, 'approve');
    const [receipt, ...more] = await mailsTo('digital@minside.test', `%kvittering for betaling av faktura ${created.ariaInvoiceNo}%`);
    expect(more).toHaveLength(0);
    expect(receipt?.text).toContain('Vi har mottatt 299,00 kr');
    expect(receipt?.text).toContain('med Vipps');
    expect(receipt?.text).toContain('/fakturaoversikt');

    const credited = await operatorCredit(created.ariaInvoiceNo, 'Kunden flyttet utenlands');
    expect(credited.statusCode, credited.body).toBe(200);
    expect(credited.json()).toMatchObject({ refunded: true });
    const [paid] = await test.database.rows<{ status: string; error_code: string }>(sql`select status, error_code from payment where aria_invoice_no = ${created.ariaInvoiceNo}`);
    expect(paid).toEqual({ status: 'REFUNDED', error_code: 'INVOICE_CREDITED' });
    const { creditNoteNumber } = credited.json<{ creditNoteNumber: number }>();
    const text = await pdfText(await download(browser, `/api/invoice/${digital}/credit-notes/${creditNoteNumber}/pdf`));
    expect(text).toContain('Beløpet er betalt tilbake til deg med Vipps.');
    expect(text).toContain('Nullsats for elektroniske nyhetstjenester');
  });

  it('an invoice paid in the bank is not refunded from here: refused with a code, nothing issued', async () => {
    const created = await issue(papir, 'demo-papir-adr', 10_000);
    await test.database.db
      .execute(sql`insert into payment (id, idempotency_key, purpose, method, amount_ore, status, aria_account_no, aria_invoice_no, provider, provider_reference, return_url, created_at, updated_at, settled_at)
      values (${randomUUID()}, ${`bank-test:${created.ariaInvoiceNo}`}, 'INVOICE', 'BANKGIRO', 10000, 'CAPTURED', ${papir}, ${created.ariaInvoiceNo}, 'bank', ${`test:${created.ariaInvoiceNo}`}, '/fakturaoversikt', now(), now(), now())`);
    await test.database.db.execute(sql`update invoice set paid_at = now(), settled_by = 'BANKGIRO' where aria_invoice_no = ${created.ariaInvoiceNo}`);
    const refused = await operatorCredit(created.ariaInvoiceNo, 'Reklamasjon på levering');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'REFUND_NEEDS_BANK' });
    expect(await test.database.rows(sql`select number from billing_document where kind = 'CREDIT_NOTE' and aria_invoice_no = ${created.ariaInvoiceNo}`)).toHaveLength(0);
  });

  it('an unpaid invoice with a bank part-payment on it is not cancelled by a credit: refused, nothing issued', async () => {
    const created = await issue(papir, 'demo-papir-adr', 20_000);
    await test.database.db
      .execute(sql`insert into payment (id, idempotency_key, purpose, method, amount_ore, status, aria_account_no, aria_invoice_no, provider, provider_reference, return_url, created_at, updated_at, settled_at)
      values (${randomUUID()}, ${`bank-part:${created.ariaInvoiceNo}`}, 'INVOICE', 'BANKGIRO', 5000, 'CAPTURED', ${papir}, ${created.ariaInvoiceNo}, 'bank', ${`part:${created.ariaInvoiceNo}`}, '/fakturaoversikt', now(), now(), now())`);
    const refused = await operatorCredit(created.ariaInvoiceNo, 'Reklamasjon på levering');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'INVOICE_PARTLY_PAID' });
    expect(await test.database.rows(sql`select number from billing_document where kind = 'CREDIT_NOTE' and aria_invoice_no = ${created.ariaInvoiceNo}`)).toHaveLength(0);
    const [row] = await test.database.rows<{ paid_at: Date | null }>(sql`select paid_at from invoice where aria_invoice_no = ${created.ariaInvoiceNo}`);
    expect(row?.paid_at).toBeNull();
  });

  it('a company that chose EHF: invoices name the company by organisation number, the EHF document is downloadable and written for the access point', async () => {
    const admin = await signIn(test, PORTAL, 'admin@firma.test');
    const business = (path: string) => `${PORTAL}/api/business${path}?titleCode=ADR`;
    // Bad input: a clear Norwegian message per field, a stable code, nothing stored.
    const refused = await admin.request('PUT', business('/einvoice'), {
      json: { organizationNumber: '962806113', companyName: 'Firma AS', street: 'Kongens gate 1', postalCode: '70', town: 'Trondheim' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Organisasjonsnummeret er ikke gyldig');
    expect(refused.body).toContain('Postnummeret har 4 sifre.');
    expect((await admin.request('GET', business('/einvoice'))).json()).toEqual({ einvoice: null });
    // Only the company's administrator.
    const employee = await signIn(test, PORTAL, 'ansatt@firma.test');
    expect(
      (await employee.request('PUT', business('/einvoice'), { json: { organizationNumber: '962 806 112', companyName: 'Firma AS', street: 'Kongens gate 1', postalCode: '7011', town: 'Trondheim' } }))
        .status,
    ).toBe(403);

    const set = await admin.request('PUT', business('/einvoice'), {
      json: { organizationNumber: '962 806 112', companyName: 'Firma Čuđe AS', street: 'Kongens gate 1', postalCode: '7011', town: 'Trondheim', reference: 'Kostnadssted 42' },
    });
    expect(set.status, set.body).toBe(200);
    expect(set.json()).toEqual({
      einvoice: { organizationNumber: '962806112', companyName: 'Firma Čuđe AS', street: 'Kongens gate 1', postalCode: '7011', town: 'Trondheim', reference: 'Kostnadssted 42' },
    });

    const [{ id: subscriptionId } = { id: '' }] = await test.database.rows<{ id: string }>(sql`select id from subscription where aria_account_no = 40000006 and title_code = 'ADR'`);
    const created = await issue(40_000_006, subscriptionId, 2_990_000, 'Bedrift digital, ett år');
    const text = await pdfText(await download(admin, `/api/invoice/40000006/${created.ariaInvoiceNo}/pdf`));
    for (const expected of ['Firma Čuđe AS', 'Kongens gate 1', '7011 Trondheim', 'Org.nr. 962 806 112', 'Deres referanse Kostnadssted 42', '29 900,00 kr']) expect(text).toContain(expected);

    const ehf = await admin.request('GET', `${PORTAL}/api/invoice/40000006/documents/${created.ariaInvoiceNo}/ehf`);
    expect(ehf.status, ehf.body).toBe(200);
    expect(ehf.headers['content-type']).toContain('application/xml');
    expect(ehf.body).toContain('<cbc:EndpointID schemeID="0192">962806112</cbc:EndpointID>');
    expect(ehf.body).toContain('<cbc:PayableAmount currencyID="NOK">29900.00</cbc:PayableAmount>');
    // A person's invoice has no EHF document.
    const papirBrowser = await signIn(test, PORTAL, 'papir@minside.test');
    const personal = await issue(papir, 'demo-papir-adr', 100);
    expectRefused(await papirBrowser.request('GET', `${PORTAL}/api/invoice/${papir}/documents/${personal.ariaInvoiceNo}/ehf`), 404, 'NOT_FOUND');

    // The job writes it once for the access point.
    const first = (await test.app.ehfOutbox.deliverPending()).written;
    expect(first).toBeGreaterThanOrEqual(1);
    expect((await test.app.ehfOutbox.deliverPending()).written).toBe(0);
    const written = await readFile(path.join(ehfOutboxDir, `${created.ariaInvoiceNo}.xml`), 'utf8');
    expect(written).toBe(ehf.body);

    // Turned off: the next invoice is the admin's own again, with no EHF document.
    expect((await admin.request('DELETE', business('/einvoice'), { json: {} })).json()).toEqual({ einvoice: null });
    const after = await issue(40_000_006, subscriptionId, 100);
    expect((await admin.request('GET', `${PORTAL}/api/invoice/40000006/documents/${after.ariaInvoiceNo}/ehf`)).status).toBe(404);
  });
});
