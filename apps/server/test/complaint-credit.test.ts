import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, manualClock, osloToday, systemClock, type ComplaintOptions, type ComplaintReceipt, type CreditNote, type Invoice } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { insertInvoice } from '../src/modules/billing/issue-invoice.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { answerAtVipps, expectRefused, pdfText, signIn } from './support.ts';
import type { TestBrowser } from './browser.ts';

// Issue 23: a delivery complaint credited "på neste faktura" is a credit note, at once, on the
// invoice that paid for the missed papers; the amount is then set off against the next renewal
// invoice, whose document and pages show what is due after it. The sale is reduced once (by the
// note), never twice: the next invoice keeps its full amount and less is due on it.

const PORTAL = 'http://varden.localhost:3000';
/** Varden credits 25 kr per paper (the catalogue's pausedIssueCreditOre) and offers CREDIT. */
const PER_PAPER = defaultCatalogue.byTitleCode('VAR').pausedIssueCreditOre;
const VARDEN_ACCOUNT = 40_000_013;
const VARDEN_SUBSCRIPTION = 'demo-varden-var';
const QUARTER_PRICE = 189_900;
const OPERATOR = 'o'.repeat(40);
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe.each(testDatabases)('complaint credited on the next invoice ($name)', ({ name }) => {
  let test: TestApp;
  const clock = manualClock(systemClock());
  let varden: TestBrowser;

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now: clock, config: { operatorToken: OPERATOR } });
    varden = await signIn(test, PORTAL, 'varden@minside.test', 'VAR');
  });
  afterAll(() => test?.close());

  const invoices = async () => (await varden.request('GET', `${PORTAL}/api/invoice/${VARDEN_ACCOUNT}`)).json<{ invoices: Invoice[] }>().invoices;
  const pdf = async (path: string) => {
    const response = await varden.request('GET', `${PORTAL}${path}`);
    expect(response.status, response.body.slice(0, 200)).toBe(200);
    return plain(await pdfText(response.raw));
  };
  const operatorCredit = (ariaInvoiceNo: number) =>
    test.app.inject({
      method: 'POST',
      url: `/api/operator/invoice/${ariaInvoiceNo}/credit`,
      headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
      payload: { reason: 'Oppsagt' },
    });
  const creditNoteCount = async () => Number((await test.database.rows<{ n: number }>(sql`select count(*)::int as n from billing_document where kind = 'CREDIT_NOTE'`))[0]?.n);
  const waiting = async () => test.database.rows<{ amount_ore: number }>(sql`select amount_ore from credit_set_off where subscription_id = ${VARDEN_SUBSCRIPTION} and aria_invoice_no is null`);

  it('credits the missed papers with a credit note on the invoice that paid for them, and sets it off against the next invoice', async () => {
    const options = (await varden.request('GET', `${PORTAL}/api/delivery/complaints/options?titleCode=VAR`)).json<ComplaintOptions>();
    expect(options.remedies).toContain('CREDIT');
    const days = options.days.slice(0, 2);
    expect(days).toHaveLength(2);
    const [paidFor] = (await invoices()).filter((row) => row.periodFrom <= days[0]! && row.periodTo >= days[0]!);
    expect(paidFor).toBeDefined();

    const filed = await varden.request('POST', `${PORTAL}/api/delivery/complaints?titleCode=VAR`, { json: { code: 'MISSING', days, remedy: 'CREDIT' } });
    expect(filed.status, filed.body).toBe(201);
    const receipt = filed.json<ComplaintReceipt>();
    expect(receipt.credit).toEqual({ amountOre: 2 * PER_PAPER, creditNoteNumbers: [expect.any(Number)] });
    const noteNumber = receipt.credit?.creditNoteNumbers[0] ?? 0;
    expect(noteNumber).toBeGreaterThan(paidFor?.ariaInvoiceNo ?? 0);

    // The credit note: listed on Min Side, a document naming the invoice, the case and what happens to the money.
    const { creditNotes } = (await varden.request('GET', `${PORTAL}/api/invoice/${VARDEN_ACCOUNT}/credit-notes`)).json<{ creditNotes: CreditNote[] }>();
    expect(creditNotes).toContainEqual({ number: noteNumber, ariaInvoiceNo: paidFor?.ariaInvoiceNo, issuedOn: osloToday(clock()), amountOre: 2 * PER_PAPER });
    const note = await pdf(`/api/invoice/${VARDEN_ACCOUNT}/credit-notes/${noteNumber}/pdf`);
    for (const expected of [
      'Kreditnota',
      `Kreditnotanummer ${noteNumber}`,
      `Gjelder faktura ${paidFor?.ariaInvoiceNo}`,
      `Reklamasjon ${receipt.caseNumber}: 2 aviser`,
      'Beløpet trekkes fra neste faktura.',
      'Kreditert beløp 50,00 kr',
    ]) {
      expect(note, expected).toContain(expected);
    }
    const [mail] = await test.database.rows<{ subject: string; text: string }>(
      sql`select subject, text from mail_outbox where to_address = 'varden@minside.test' and subject like ${`%kreditnota ${noteNumber}%`}`,
    );
    expect(plain(mail?.text ?? '')).toContain('Vi har kreditert 50,00 kr av faktura');
    expect(plain(mail?.text ?? '')).toContain('Beløpet trekkes fra neste faktura.');
    // A paper is credited once: the same day again under another code is refused, and nothing is filed or credited.
    const notes = await creditNoteCount();
    const complaints = await test.database.rows(sql`select count(*)::int as n from delivery_complaint`);
    expectRefused(await varden.request('POST', `${PORTAL}/api/delivery/complaints?titleCode=VAR`, { json: { code: 'WET', days: [days[0]], remedy: 'CREDIT' } }), 422, 'REMEDY_NOT_OFFERED');
    expect(await creditNoteCount()).toBe(notes);
    expect(await test.database.rows(sql`select count(*)::int as n from delivery_complaint`)).toEqual(complaints);
    // Nor can the customer centre credit the whole invoice on top of the papers already credited.
    const whole = await operatorCredit(paidFor?.ariaInvoiceNo ?? 0);
    expect(whole.statusCode, whole.body).toBe(409);
    expect(whole.json()).toMatchObject({ code: 'INVOICE_PARTLY_CREDITED' });
    // Nothing was paid back and the paid invoice is as it was: the credit waits for the next invoice.
    expect(await waiting()).toEqual([{ amount_ore: 2 * PER_PAPER }]);
    expect((await invoices()).find((row) => row.ariaInvoiceNo === paidFor?.ariaInvoiceNo)).toMatchObject({ status: 'PAID', amountOre: paidFor?.amountOre, creditedOre: 0 });

    // The next quarter's invoice, issued by the renewal run two weeks before the period ends: the full
    // price (the sale), the credit note set off, less due — on the page, in the PDF and in the e-mail.
    clock.set(new Date(`${addDays(paidFor?.periodTo ?? '', -10)}T09:00:00Z`));
    varden = await signIn(test, PORTAL, 'varden@minside.test', 'VAR');
    await test.app.billingJobs.runRenewals();
    const next = (await invoices()).find((row) => row.periodFrom === addDays(paidFor?.periodTo ?? '', 1));
    expect(next).toMatchObject({ amountOre: QUARTER_PRICE, creditedOre: 2 * PER_PAPER, openOre: QUARTER_PRICE - 2 * PER_PAPER, paidOre: 0, status: 'UNPAID', payable: true });
    expect(await waiting()).toEqual([]);
    const invoicePdf = await pdf(`/api/invoice/${VARDEN_ACCOUNT}/${next?.ariaInvoiceNo}/pdf`);
    for (const expected of ['Sum inkludert mva 1 899,00 kr', `Fratrukket kreditnota ${noteNumber} −50,00 kr`, 'Å betale 1 849,00 kr', 'Beløp 1 849,00 kr']) {
      expect(invoicePdf, expected).toContain(expected);
    }
    const [issuedMail] = await test.database.rows<{ text: string }>(
      sql`select text from mail_outbox where to_address = 'varden@minside.test' and subject like ${`%ny faktura ${next?.ariaInvoiceNo}%`}`,
    );
    expect(plain(issuedMail?.text ?? '')).toContain('Å betale: 1 849,00 kr');
    // The mail's pay-link page says why less is due than the invoice's amount.
    const token = new URL(`http://x${/(\/betaling\?token=\S+)/.exec(issuedMail?.text ?? '')?.[1] ?? ''}`).searchParams.get('token') ?? '';
    const paylink = await test.app.inject({ method: 'GET', url: `/api/paylink/${encodeURIComponent(token)}` });
    expect(paylink.statusCode, paylink.body).toBe(200);
    expect(paylink.json()).toMatchObject({ amountOre: QUARTER_PRICE, creditedOre: 2 * PER_PAPER, paidOre: 0, openOre: QUARTER_PRICE - 2 * PER_PAPER, payable: true });
    // Paying it asks for what is due, not the full price.
    const started = await varden.request('POST', `${PORTAL}/api/invoice/${next?.ariaInvoiceNo}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBeLessThan(300);
    const [pending] = await test.database.rows<{ amount_ore: number }>(sql`select amount_ore from payment where aria_invoice_no = ${next?.ariaInvoiceNo ?? 0}`);
    expect(pending?.amount_ore).toBe(QUARTER_PRICE - 2 * PER_PAPER);

    // The customer centre cancels that invoice: the whole of it is credited, and the complaint's credit
    // is not used up by it — it waits for the next invoice again.
    await test.database.db.execute(sql`update payment set status = 'CANCELLED' where aria_invoice_no = ${next?.ariaInvoiceNo ?? 0} and status = 'PENDING'`);
    const cancelled = await operatorCredit(next?.ariaInvoiceNo ?? 0);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await waiting()).toEqual([{ amount_ore: 2 * PER_PAPER }]);
    const cancelNote = await pdf(`/api/invoice/${VARDEN_ACCOUNT}/credit-notes/${cancelled.json<{ creditNoteNumber: number }>().creditNoteNumber}/pdf`);
    expect(cancelNote).toContain('Kreditert beløp 1 899,00 kr');
    expect(cancelNote.replace(/\s+/g, ' ')).toContain('Beløpet du har til gode fra en kreditnota, trekkes fra neste faktura.');
    await test.database.db.execute(sql`delete from credit_set_off where subscription_id = ${VARDEN_SUBSCRIPTION}`);
  });

  it('a credit larger than the next invoice settles it, and the rest waits for the one after', async () => {
    const options = (await varden.request('GET', `${PORTAL}/api/delivery/complaints/options?titleCode=VAR`)).json<ComplaintOptions>();
    const day = options.days.find((candidate) => !options.reported.some((reported) => reported.day === candidate));
    expect(day).toBeDefined();
    const filed = await varden.request('POST', `${PORTAL}/api/delivery/complaints?titleCode=VAR`, { json: { code: 'WET', days: [day], remedy: 'CREDIT' } });
    expect(filed.status, filed.body).toBe(201);
    expect(await waiting()).toEqual([{ amount_ore: PER_PAPER }]);

    // A small invoice issued as a renewal (10 kr, for a day far from the complaint's): all of it set off,
    // settled by the credit; 15 kr still waiting.
    const later = addDays(osloToday(clock()), 60);
    const small = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'VAR',
        { ariaAccountNo: VARDEN_ACCOUNT, subscriptionId: VARDEN_SUBSCRIPTION, amountOre: 1_000, description: 'Tillegg', periodFrom: later, periodTo: later, dueOn: addDays(later, -2) },
        clock(),
        { setOffWaitingCredit: true },
      ),
    );
    expect(small.setOffOre).toBe(1_000);
    expect((await invoices()).find((row) => row.ariaInvoiceNo === small.ariaInvoiceNo)).toMatchObject({ status: 'PAID', settledBy: 'CREDIT', creditedOre: 1_000, openOre: 0, payable: false });
    expect(await waiting()).toEqual([{ amount_ore: PER_PAPER - 1_000 }]);
    const smallPdf = await pdf(`/api/invoice/${VARDEN_ACCOUNT}/${small.ariaInvoiceNo}/pdf`);
    expect(smallPdf).toContain('Fakturaen er betalt med kreditnota. Du skal ikke betale noe.');
    expect(smallPdf).not.toContain('Betalingsinformasjon');
  });

  it('an invoice paid by Vipps after a credit was set off against it, then cancelled: what was paid is refunded, the whole invoice credited, the credit waits again', async () => {
    // 15 kr waits from the test before. The period after the one the customer centre credited: rolled
    // into when it begins, and the next one invoiced by the renewal run ten days before it ends.
    const waitingOre = PER_PAPER - 1_000;
    expect(await waiting()).toEqual([{ amount_ore: waitingOre }]);
    const latest = (await invoices()).filter((row) => row.amountOre === QUARTER_PRICE).sort((a, b) => b.periodTo.localeCompare(a.periodTo))[0];
    for (const day of [addDays(latest?.periodFrom ?? '', 1), addDays(latest?.periodTo ?? '', -10)]) {
      clock.set(new Date(`${day}T09:00:00Z`));
      await test.app.billingJobs.runRenewals();
    }
    varden = await signIn(test, PORTAL, 'varden@minside.test', 'VAR');
    const next = (await invoices()).find((row) => row.periodFrom === addDays(latest?.periodTo ?? '', 1));
    expect(next).toMatchObject({ amountOre: QUARTER_PRICE, creditedOre: waitingOre, openOre: QUARTER_PRICE - waitingOre, status: 'UNPAID' });
    expect(await waiting()).toEqual([]);
    const no = next?.ariaInvoiceNo ?? 0;

    // Paid with Vipps: what was due, the price less the credit.
    const started = await varden.request('POST', `${PORTAL}/api/invoice/${no}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBeLessThan(300);
    await answerAtVipps(test, started.json<{ redirectUrl: string }>().redirectUrl, 'approve');
    expect((await invoices()).find((row) => row.ariaInvoiceNo === no)).toMatchObject({ status: 'PAID', paidOre: QUARTER_PRICE - waitingOre });

    // Cancelled before that period begins: the subscriber does not pay for a quarter they will not have.
    const cancelled = await varden.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ariaAccountNo: VARDEN_ACCOUNT, titleCode: 'VAR', actionType: 'CANCELLATION', reasonCode: 'PRICE' },
    });
    expect(cancelled.status, cancelled.body).toBe(200);
    expect(cancelled.json<{ creditedInvoices: unknown[] }>().creditedInvoices).toEqual([{ ariaInvoiceNo: no, outcome: 'refunded' }]);
    const [refund] = await test.database.rows<{ status: string; amount_ore: number }>(sql`select status, amount_ore from payment where aria_invoice_no = ${no}`);
    expect(refund).toEqual({ status: 'REFUNDED', amount_ore: QUARTER_PRICE - waitingOre });
    // The whole invoice is credited (the sale undone); the money paid went back, and the credit is not lost.
    const notes = (await varden.request('GET', `${PORTAL}/api/invoice/${VARDEN_ACCOUNT}/credit-notes`)).json<{ creditNotes: CreditNote[] }>().creditNotes.filter((row) => row.ariaInvoiceNo === no);
    expect(notes).toEqual([expect.objectContaining({ amountOre: QUARTER_PRICE })]);
    const notePdf = (await pdf(`/api/invoice/${VARDEN_ACCOUNT}/credit-notes/${notes[0]?.number}/pdf`)).replace(/\s+/g, ' ');
    expect(notePdf).toContain('Kreditert beløp 1 899,00 kr');
    expect(notePdf).toContain('1 884,00 kr er betalt tilbake til deg med Vipps. 15,00 kr som du har til gode fra en kreditnota, trekkes fra neste faktura.');
    expect(await waiting()).toEqual([{ amount_ore: waitingOre }]);
    // A second sweep finds nothing more to do.
    expect(await test.app.billingJobs.runRenewals()).toMatchObject({ invoicesCredited: 0 });
    expect(
      (await varden.request('GET', `${PORTAL}/api/invoice/${VARDEN_ACCOUNT}/credit-notes`)).json<{ creditNotes: CreditNote[] }>().creditNotes.filter((row) => row.ariaInvoiceNo === no),
    ).toHaveLength(1);
  });

  it('refuses a credit no invoice paid for, with a code, and files nothing', async () => {
    // No invoice of the subscription paid for the day (as for a period billed before Min Side's time).
    const options = (await varden.request('GET', `${PORTAL}/api/delivery/complaints/options?titleCode=VAR`)).json<ComplaintOptions>();
    const day = options.days.find((candidate) => !options.reported.some((reported) => reported.day === candidate)) ?? '';
    const [paidFor] = (await invoices()).filter((row) => row.periodFrom <= day && row.periodTo >= day);
    await test.database.db.execute(sql`update invoice set subscription_id = null where aria_invoice_no = ${paidFor?.ariaInvoiceNo ?? 0}`);
    try {
      const after = (await varden.request('GET', `${PORTAL}/api/delivery/complaints/options?titleCode=VAR`)).json<ComplaintOptions>();
      expect(after.remedies).not.toContain('CREDIT');
      const before = await test.database.rows(sql`select count(*)::int as n from delivery_complaint`);
      expectRefused(await varden.request('POST', `${PORTAL}/api/delivery/complaints?titleCode=VAR`, { json: { code: 'MISSING', days: [day], remedy: 'CREDIT' } }), 422, 'REMEDY_NOT_OFFERED');
      expect(await test.database.rows(sql`select count(*)::int as n from delivery_complaint`)).toEqual(before);
    } finally {
      await test.database.db.execute(sql`update invoice set subscription_id = ${VARDEN_SUBSCRIPTION} where aria_invoice_no = ${paidFor?.ariaInvoiceNo ?? 0}`);
    }
  });
});
