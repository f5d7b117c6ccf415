import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, deleteSubscriptionResponseSchema, formatKroner, kidFor, osloToday, systemClock, type Invoice } from '@minside/domain';
import { parseBankFile } from '@minside/bank-files';
import { defaultCatalogue } from '@minside/titles';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import type { TestBrowser } from './browser.ts';
import { signIn, vippsClientOf, vippsOf } from './support.ts';

// A subscription cancelled after the next period's invoice was issued (the renewal job issues it
// RENEWAL_LEAD_DAYS before the period ends) does not pay for a period it will not have: the invoice
// is credited in full through the one crediting function (ADR 026) — not payable, not charged on its
// due date, withdrawn from the bank's AvtaleGiro claims, refunded at the provider when it was
// already taken — and an undone cancellation gets the period billed again, once. All of it as the
// subscriber does it, over the real server and its jobs, with the clock moved day by day.

const DAY = 24 * 60 * 60 * 1000;
const PORTAL = 'http://adresseavisen.localhost:3000';
const VARDEN = 'http://varden.localhost:3000';
const OPERATOR_TOKEN = 'c'.repeat(40);
const accounts = { papir: 40_000_001, digital: 40_000_002, ung: 40_000_003, varden: 40_000_013 } as const;
const subscriptions = { papir: 'demo-papir-adr', digital: 'demo-digital-adr', ung: 'demo-ung-adr', varden: 'demo-varden-var' } as const;
/** ung@'s Vipps agreement (seed-billing.ts), restored into the embedded simulator at start. */
const UNG_AGREEMENT = 'agr_DemoUng1';

interface InvoiceRow {
  no: number;
  period_from: string;
  amount_ore: number;
  due_on: string;
  paid_at: Date | null;
  settled_by: string | null;
}

/** What the tests read of the app's database and mail, and the subscriber's calls. */
function support(get: () => TestApp) {
  const rows = <T>(query: SQL) => get().database.rows<T>(query);
  return {
    invoicesOf: (subscriptionId: string) =>
      rows<InvoiceRow>(
        sql`select aria_invoice_no::int as no, period_from::text as period_from, amount_ore, due_on::text as due_on, paid_at, settled_by from invoice where subscription_id = ${subscriptionId} order by aria_invoice_no`,
      ),
    creditNotesOf: (ariaInvoiceNo: number) =>
      rows<{ number: number; source: string; reason: string; settlement: string }>(
        sql`select number::int as number, source, content -> 'credits' ->> 'reason' as reason, content -> 'credits' ->> 'settlement' as settlement from billing_document where kind = 'CREDIT_NOTE' and aria_invoice_no = ${ariaInvoiceNo} order by number`,
      ),
    renewalPayments: (subscriptionId: string) =>
      rows<{ id: string; status: string; no: number; amount_ore: number; error_code: string | null }>(
        sql`select id, status, aria_invoice_no::int as no, amount_ore, error_code from payment where subscription_id = ${subscriptionId} and purpose = 'RENEWAL' order by created_at, id`,
      ),
    mailsTo: (to: string) => rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = ${to} order by created_at`),
    billingDocumentsOf: (ariaAccountNo: number) =>
      rows<{ number: number; kind: string }>(sql`select number::int as number, kind from billing_document where aria_account_no = ${ariaAccountNo} order by number`),
    async cancel(browser: TestBrowser, ariaAccountNo: number, titleCode = 'ADR', portal = PORTAL) {
      const response = await browser.request('DELETE', `${portal}/api/deleteSubscription`, { json: { ariaAccountNo, titleCode, actionType: 'CANCELLATION', reasonCode: 'PRICE' } });
      expect(response.status, response.body).toBe(200);
      return deleteSubscriptionResponseSchema.parse(response.json());
    },
    async undo(browser: TestBrowser, ariaAccountNo: number) {
      const response = await browser.request('POST', `${PORTAL}/api/subscription/${ariaAccountNo}/ADR/undo-cancellation`, { json: {} });
      expect(response.status, response.body).toBe(200);
    },
    async listed(browser: TestBrowser, ariaAccountNo: number, portal = PORTAL) {
      const response = await browser.request('GET', `${portal}/api/invoice/${ariaAccountNo}`);
      expect(response.status, response.body).toBe(200);
      return response.json<{ invoices: Invoice[] }>().invoices;
    },
    async creditNotesListed(browser: TestBrowser, ariaAccountNo: number, portal = PORTAL) {
      const response = await browser.request('GET', `${portal}/api/invoice/${ariaAccountNo}/credit-notes`);
      expect(response.status, response.body).toBe(200);
      return response.json<{ creditNotes: { number: number; ariaInvoiceNo: number; issuedOn: string; amountOre: number }[] }>().creditNotes;
    },
  };
}

describe.each(testDatabases)('cancelling credits the invoice of the period the subscriber will not have ($name)', ({ name }) => {
  let test: TestApp;
  let bankDir: string;
  let offsetDays = 0;
  const now = () => new Date(systemClock().getTime() + offsetDays * DAY);
  const seededToday = osloToday(systemClock());
  const today = () => osloToday(now());
  const at = (day: number) => {
    offsetDays = day;
    expect(today()).toBe(addDays(seededToday, day));
  };
  beforeAll(async () => {
    bankDir = mkdtempSync(path.join(tmpdir(), 'minside-cancel-bank-'));
    test = await buildTestApp(name, { seed: true, now, config: { operatorToken: OPERATOR_TOKEN, bankFilesDir: bankDir } });
  });
  afterAll(async () => {
    await test.close();
    rmSync(bankDir, { recursive: true, force: true });
  });
  const { invoicesOf, creditNotesOf, renewalPayments, mailsTo, billingDocumentsOf, cancel, undo, listed, creditNotesListed } = support(() => test);
  const renewTwiceAtOnceAndAgain = async () => {
    await Promise.all([test.app.billingJobs.runRenewals(), test.app.billingJobs.runRenewals()]);
    await test.app.billingJobs.runRenewals();
  };
  /** Vipps MobilePay takes the charges due today, and its webhooks reach the app. */
  const vippsChargesDue = async () => {
    await vippsOf(test).processCharges();
    await vippsOf(test).flushWebhooks();
  };

  /** ung's period ends in 5 days (Vipps agreement): the next period begins then. */
  const ungPeriod = addDays(seededToday, 5);
  const ungInvoicesForPeriod = async () => (await invoicesOf(subscriptions.ung)).filter((row) => row.period_from === ungPeriod);
  let firstUngInvoice = 0;

  it('a Vipps subscriber cancels after the next period was invoiced: the invoice is credited in full, not payable, and the cancellation says so', async () => {
    at(0);
    await test.app.billingJobs.runRenewals();
    const [issued] = await ungInvoicesForPeriod();
    if (!issued) throw new Error('the renewal job issued no invoice for ung’s next period');
    expect(issued).toMatchObject({ paid_at: null, due_on: addDays(ungPeriod, -2), amount_ore: 9_900 });
    firstUngInvoice = issued.no;

    const ung = await signIn(test, PORTAL, 'ung@minside.test');
    const cancelled = await cancel(ung, accounts.ung);
    expect(cancelled.creditedInvoices).toEqual([{ ariaInvoiceNo: issued.no, outcome: 'credited' }]);

    // Credited in full with a credit note in the invoices' series, settled by it: nothing to pay.
    const notes = await creditNotesOf(issued.no);
    expect(notes).toEqual([{ number: expect.any(Number), source: `cancel:${issued.no}`, reason: 'Abonnementet er sagt opp.', settlement: expect.stringContaining('Du skal ikke betale den.') }]);
    expect((await ungInvoicesForPeriod())[0]).toMatchObject({ settled_by: 'CREDIT' });
    const shown = (await listed(ung, accounts.ung)).find((row) => row.ariaInvoiceNo === issued.no);
    expect(shown).toMatchObject({ status: 'PAID', settledBy: 'CREDIT', payable: false, openOre: 0 });
    expect(await creditNotesListed(ung, accounts.ung)).toContainEqual({ number: notes[0]?.number, ariaInvoiceNo: issued.no, issuedOn: today(), amountOre: 9_900 });

    // The cancellation's confirmation says it, and the credit note is mailed.
    const mails = await mailsTo('ung@minside.test');
    expect(mails.find((mail) => mail.subject.includes('oppsigelsen er registrert'))?.text).toContain(`Faktura ${issued.no} for neste periode blir kreditert, så du skal ikke betale den.`);
    expect(mails.some((mail) => mail.subject.includes(`kreditnota ${notes[0]?.number} for faktura ${issued.no}`))).toBe(true);
  });

  it('AvtaleGiro: a claim already at the bank is withdrawn in the next claim file, and never claimed again', async () => {
    at(0);
    // papir's next invoice (the seed's, unpaid, due in 10 days) goes to the bank in today's claim file.
    const papirPeriod = addDays(seededToday, 12);
    const [next] = (await invoicesOf(subscriptions.papir)).filter((row) => row.period_from === papirPeriod);
    if (!next) throw new Error('papir has no invoice for the next period in the seed');
    const mandateKid = kidFor('mandate', 1, defaultCatalogue.byTitleCode('ADR').bank);
    const transactionsFor = async (file: string | null) =>
      file === null
        ? []
        : (await parseBankFile(readFileSync(file, 'latin1'))).assignments
            .flatMap((assignment) => assignment.transactions)
            .filter((t) => t.kid === mandateKid && 'dueDate' in t && t.dueDate === next.due_on);
    const claimed = await test.app.bank.claims(today());
    expect(await transactionsFor(claimed.path)).toEqual([expect.objectContaining({ type: 'avtalegiro-claim', amount: next.amount_ore })]);

    const papir = await signIn(test, PORTAL, 'papir@minside.test');
    const cancelled = await cancel(papir, accounts.papir);
    expect(cancelled.creditedInvoices).toEqual([{ ariaInvoiceNo: next.no, outcome: 'credited' }]);
    expect(await creditNotesOf(next.no)).toMatchObject([{ source: `cancel:${next.no}` }]);
    expect((await listed(papir, accounts.papir)).find((row) => row.ariaInvoiceNo === next.no)).toMatchObject({ status: 'PAID', settledBy: 'CREDIT', payable: false, avtaleGiroDrawOn: null });

    // Tomorrow's file takes the claim back (type 93, ADR 024), and no later file claims it.
    at(1);
    expect(await transactionsFor((await test.app.bank.claims(today())).path)).toEqual([expect.objectContaining({ type: 'avtalegiro-cancellation', amount: next.amount_ore })]);
    at(2);
    expect(await transactionsFor((await test.app.bank.claims(today())).path)).toEqual([]);
  });

  it('nothing is charged for the credited invoice on its due date or after', async () => {
    for (const day of [2, 3, 4]) {
      at(day);
      await renewTwiceAtOnceAndAgain();
      await vippsChargesDue();
    }
    expect(await renewalPayments(subscriptions.ung)).toEqual([]);
    expect((await ungInvoicesForPeriod()).map((row) => row.no)).toEqual([firstUngInvoice]);
  });

  it('cancel undone: the next renewal run bills the period again, with exactly one new invoice; cancelled again before Vipps takes its charge, the charge is cancelled there', async () => {
    at(4);
    const ung = await signIn(test, PORTAL, 'ung@minside.test');
    await undo(ung, accounts.ung);
    await renewTwiceAtOnceAndAgain();
    const periodInvoices = await ungInvoicesForPeriod();
    expect(periodInvoices.map((row) => row.no)).toHaveLength(2);
    const [, again] = periodInvoices;
    if (!again) throw new Error('no new invoice for the period after the undo');
    // Due today (its own due date has passed): Vipps MobilePay has been given the charge for it.
    expect(again).toMatchObject({ paid_at: null, due_on: today(), amount_ore: 9_900 });
    const [charge] = await renewalPayments(subscriptions.ung);
    expect(charge).toMatchObject({ status: 'PENDING', no: again.no });
    expect(await vippsClientOf(test, now).recurring.getCharge(UNG_AGREEMENT, charge?.id ?? '')).toMatchObject({ status: 'PENDING' });

    // Cancelled again before Vipps MobilePay takes it: the charge is cancelled there, the invoice credited.
    const cancelled = await cancel(ung, accounts.ung);
    expect(cancelled.creditedInvoices).toEqual([{ ariaInvoiceNo: again.no, outcome: 'credited' }]);
    expect(await renewalPayments(subscriptions.ung)).toMatchObject([{ status: 'CANCELLED', no: again.no }]);
    expect(await vippsClientOf(test, now).recurring.getCharge(UNG_AGREEMENT, charge?.id ?? '')).toMatchObject({ status: 'CANCELLED' });
    await renewTwiceAtOnceAndAgain();
    await vippsChargesDue();
    expect((await renewalPayments(subscriptions.ung)).map((row) => row.status)).toEqual(['CANCELLED']);
    expect(await ungInvoicesForPeriod()).toHaveLength(2);
  });

  it('a cancellation before the next invoice is issued changes nothing in billing', async () => {
    at(4);
    // digital's period ends in 20 days: its next invoice is issued on day 6.
    const before = { invoices: await invoicesOf(subscriptions.digital), documents: await billingDocumentsOf(accounts.digital) };
    const digital = await signIn(test, PORTAL, 'digital@minside.test');
    const cancelled = await cancel(digital, accounts.digital);
    expect(cancelled.creditedInvoices).toEqual([]);
    expect(await invoicesOf(subscriptions.digital)).toEqual(before.invoices);
    expect(await billingDocumentsOf(accounts.digital)).toEqual(before.documents);
    const confirmation = (await mailsTo('digital@minside.test')).find((mail) => mail.subject.includes('oppsigelsen er registrert'));
    expect(confirmation?.text).not.toContain('kreditert');
    at(6);
    await renewTwiceAtOnceAndAgain();
    expect(await invoicesOf(subscriptions.digital)).toEqual(before.invoices);
  });

  it('giro: the credited invoice is not payable by its pay-link and does not go overdue', async () => {
    // varden (quarterly, giro) ends in 44 days: its invoice is issued on day 30, due on day 42.
    at(30);
    const vardenPeriod = addDays(seededToday, 44);
    await test.app.billingJobs.runRenewals();
    const [issued] = (await invoicesOf(subscriptions.varden)).filter((row) => row.period_from === vardenPeriod);
    if (!issued) throw new Error('no renewal invoice for varden');
    const invoiceMail = (await mailsTo('varden@minside.test')).find((mail) => mail.subject.includes(`faktura ${issued.no}`));
    const link = /http:\/\/varden\.localhost:3000(\/betaling\?token=\S+)/.exec(invoiceMail?.text ?? '')?.[1];
    if (!link) throw new Error('the invoice e-mail has no pay-link');
    const token = decodeURIComponent(new URL(`http://x${link}`).searchParams.get('token') ?? '');

    const cancelled = await cancel(await signIn(test, VARDEN, 'varden@minside.test', 'VAR'), accounts.varden, 'VAR', VARDEN);
    expect(cancelled.creditedInvoices).toEqual([{ ariaInvoiceNo: issued.no, outcome: 'credited' }]);
    expect(await creditNotesOf(issued.no)).toMatchObject([{ source: `cancel:${issued.no}` }]);
    for (const day of [42, 43]) {
      at(day);
      await test.app.billingJobs.runRenewals();
      const shown = (await listed(await signIn(test, VARDEN, 'varden@minside.test', 'VAR'), accounts.varden, VARDEN)).find((row) => row.ariaInvoiceNo === issued.no);
      expect(shown).toMatchObject({ status: 'PAID', settledBy: 'CREDIT', payable: false, collection: 'PAID' });
      const details = await test.app.inject({ method: 'GET', url: `/api/paylink/${encodeURIComponent(token)}` });
      expect(details.json()).toMatchObject({ ariaInvoiceNo: issued.no, status: 'PAID', payable: false });
    }
  });
});

describe.each(testDatabases)('cancelling credits a period already charged to a Vipps agreement ($name)', ({ name }) => {
  let test: TestApp;
  let offsetDays = 0;
  const now = () => new Date(systemClock().getTime() + offsetDays * DAY);
  const seededToday = osloToday(systemClock());
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now });
  });
  afterAll(() => test.close());
  const { invoicesOf, creditNotesOf, renewalPayments, mailsTo, cancel, undo, listed } = support(() => test);
  const renewAndLetVippsCharge = async () => {
    await Promise.all([test.app.billingJobs.runRenewals(), test.app.billingJobs.runRenewals()]);
    await vippsOf(test).processCharges();
    await vippsOf(test).flushWebhooks();
  };
  const ungPeriod = addDays(seededToday, 5);
  const forPeriod = async () => (await invoicesOf(subscriptions.ung)).filter((row) => row.period_from === ungPeriod);

  it('the charge Vipps MobilePay took is refunded there, and only on its REFUNDED is the invoice credited; undone, the period is billed again once', async () => {
    // ung's next period begins in 5 days: invoiced today, due on day 3, given to Vipps MobilePay on day 1 and taken on day 3.
    for (const day of [0, 1, 3]) {
      offsetDays = day;
      await renewAndLetVippsCharge();
    }
    const [invoice] = await forPeriod();
    if (!invoice) throw new Error('no renewal invoice for ung');
    expect(invoice).toMatchObject({ settled_by: 'VIPPS', amount_ore: 9_900 });
    const [charged] = await renewalPayments(subscriptions.ung);
    expect(charged).toMatchObject({ status: 'CAPTURED', no: invoice.no });

    const ung = await signIn(test, PORTAL, 'ung@minside.test');
    const cancelled = await cancel(ung, accounts.ung);
    expect(cancelled.creditedInvoices).toEqual([{ ariaInvoiceNo: invoice.no, outcome: 'refunded' }]);
    expect(await vippsClientOf(test, now).recurring.getCharge(UNG_AGREEMENT, charged?.id ?? '')).toMatchObject({ status: 'REFUNDED' });
    expect(await renewalPayments(subscriptions.ung)).toMatchObject([{ id: charged?.id, status: 'REFUNDED', error_code: 'INVOICE_CREDITED' }]);
    expect(await creditNotesOf(invoice.no)).toEqual([
      { number: expect.any(Number), source: `refund:${charged?.id}`, reason: 'Abonnementet er sagt opp.', settlement: 'Beløpet er betalt tilbake til deg med Vipps.' },
    ]);
    expect((await listed(ung, accounts.ung)).find((row) => row.ariaInvoiceNo === invoice.no)).toMatchObject({ payable: false });
    const confirmation = (await mailsTo('ung@minside.test')).find((mail) => mail.subject.includes('oppsigelsen er registrert'));
    expect(confirmation?.text).toContain(`Du har allerede betalt faktura ${invoice.no} for neste periode. Vi betaler ${formatKroner(9_900)} tilbake`);

    // Nothing more is issued or charged for the period, however often the jobs run.
    offsetDays = 4;
    await renewAndLetVippsCharge();
    expect(await forPeriod()).toHaveLength(1);
    expect(await renewalPayments(subscriptions.ung)).toHaveLength(1);

    // Undone: the period the refund gave back is invoiced again, once.
    await undo(await signIn(test, PORTAL, 'ung@minside.test'), accounts.ung);
    await renewAndLetVippsCharge();
    await test.app.billingJobs.runRenewals();
    const invoices = await forPeriod();
    expect(invoices).toHaveLength(2);
    expect(invoices[1]).toMatchObject({ paid_at: null, amount_ore: 9_900 });
  });
});

describe.each(testDatabases)('cancelling credits a period already charged to a stored card ($name)', ({ name }) => {
  // The test provider stands in for a card-storing provider (Vipps MobilePay keeps none).
  let test: TestApp;
  let offsetDays = 0;
  const now = () => new Date(systemClock().getTime() + offsetDays * DAY);
  const seededToday = osloToday(systemClock());
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now, config: { paymentProvider: 'test', vipps: undefined } });
  });
  afterAll(() => test.close());
  const { invoicesOf, creditNotesOf, renewalPayments, mailsTo, cancel, listed } = support(() => test);

  it('the card charge is refunded at the provider — by the next renewal run when the provider did not answer at the cancellation — and nothing is charged again', async () => {
    // digital's next period begins in 20 days; invoiced on day 6, charged on its due date (day 18).
    const period = addDays(seededToday, 20);
    for (const day of [6, 18]) {
      offsetDays = day;
      await test.app.billingJobs.runRenewals();
    }
    const [invoice] = (await invoicesOf(subscriptions.digital)).filter((row) => row.period_from === period);
    if (!invoice) throw new Error('no renewal invoice for digital');
    expect(invoice).toMatchObject({ settled_by: 'SWEDBANK-PPG' });
    const [charge] = await renewalPayments(subscriptions.digital);
    expect(charge).toMatchObject({ status: 'CAPTURED', no: invoice.no });

    // The provider does not answer the refund: the cancellation stands, the refund is still to come, nothing is credited yet.
    const provider = test.app.paymentProvider;
    const refund = provider.refund.bind(provider);
    provider.refund = () => Promise.reject(new Error('the provider did not answer'));
    const digital = await signIn(test, PORTAL, 'digital@minside.test');
    try {
      const cancelled = await cancel(digital, accounts.digital);
      expect(cancelled.subscription).toMatchObject({ instStatusCode: 2 });
      expect(cancelled.creditedInvoices).toEqual([{ ariaInvoiceNo: invoice.no, outcome: 'pending' }]);
    } finally {
      provider.refund = refund;
    }
    expect(await renewalPayments(subscriptions.digital)).toMatchObject([{ status: 'CAPTURED' }]);
    expect(await creditNotesOf(invoice.no)).toEqual([]);
    expect((await mailsTo('digital@minside.test')).find((mail) => mail.subject.includes('oppsigelsen er registrert'))?.text).toContain(
      `Du har allerede betalt faktura ${invoice.no} for neste periode. Vi betaler ${formatKroner(invoice.amount_ore)} tilbake, og du får en kreditnota på e-post når pengene er sendt.`,
    );

    // The next renewal run refunds it and issues the credit note, once.
    offsetDays = 19;
    expect(await test.app.billingJobs.runRenewals()).toMatchObject({ invoicesCredited: 1 });
    expect(await renewalPayments(subscriptions.digital)).toMatchObject([{ status: 'REFUNDED', error_code: 'INVOICE_CREDITED' }]);
    expect(await creditNotesOf(invoice.no)).toMatchObject([
      { source: `refund:${charge?.id}`, reason: 'Abonnementet er sagt opp.', settlement: 'Beløpet er betalt tilbake til kortet du betalte med.' },
    ]);
    expect((await listed(await signIn(test, PORTAL, 'digital@minside.test'), accounts.digital)).find((row) => row.ariaInvoiceNo === invoice.no)).toMatchObject({ payable: false });

    for (const day of [19, 21, 25]) {
      offsetDays = day;
      expect(await test.app.billingJobs.runRenewals()).toMatchObject({ invoicesCredited: 0 });
    }
    expect(await renewalPayments(subscriptions.digital)).toHaveLength(1);
    expect(await creditNotesOf(invoice.no)).toHaveLength(1);
    expect((await invoicesOf(subscriptions.digital)).filter((row) => row.period_from === period)).toHaveLength(1);
  });
});

describe.each(testDatabases)('cancelling promises no refund the crediting will refuse ($name)', ({ name }) => {
  // The test provider stands in for a card-storing provider, as above.
  let test: TestApp;
  let offsetDays = 0;
  const now = () => new Date(systemClock().getTime() + offsetDays * DAY);
  const seededToday = osloToday(systemClock());
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now, config: { paymentProvider: 'test', vipps: undefined } });
  });
  afterAll(() => test.close());
  const { invoicesOf, creditNotesOf, mailsTo, cancel } = support(() => test);

  it('an invoice paid twice (the card charge and a giro in the netbank) is not promised back at the provider: a person pays it back', async () => {
    // digital's next period begins in 20 days; invoiced on day 6, charged to the card on its due date (day 18).
    const period = addDays(seededToday, 20);
    for (const day of [6, 18]) {
      offsetDays = day;
      await test.app.billingJobs.runRenewals();
    }
    const [invoice] = (await invoicesOf(subscriptions.digital)).filter((row) => row.period_from === period);
    if (!invoice) throw new Error('no renewal invoice for digital');
    expect(invoice).toMatchObject({ settled_by: 'SWEDBANK-PPG' });
    // The same amount paid again by giro in the netbank, as the bank import leaves it.
    await test.database.db
      .execute(sql`insert into payment (id, idempotency_key, purpose, method, amount_ore, status, aria_account_no, subscription_id, aria_invoice_no, provider, provider_reference, return_url, created_at, updated_at, settled_at)
      values (${`bank-twice-${invoice.no}`}, ${`bank-twice:${invoice.no}`}, 'INVOICE', 'BANKGIRO', ${invoice.amount_ore}, 'CAPTURED', ${accounts.digital}, ${subscriptions.digital}, ${invoice.no}, 'bank', ${`twice:${invoice.no}`}, '/fakturaoversikt', ${now()}, ${now()}, ${now()})`);

    const cancelled = await cancel(await signIn(test, PORTAL, 'digital@minside.test'), accounts.digital);
    // The crediting refuses it (INVOICE_PARTLY_PAID: two payments), so nothing is credited…
    expect(cancelled.creditedInvoices).toEqual([]);
    expect(await creditNotesOf(invoice.no)).toEqual([]);
    expect(await test.database.rows(sql`select status from payment where aria_invoice_no = ${invoice.no} order by provider`)).toEqual([{ status: 'CAPTURED' }, { status: 'CAPTURED' }]);
    // … and the confirmation promises no refund of it.
    const confirmation = (await mailsTo('digital@minside.test')).find((mail) => mail.subject.includes('oppsigelsen er registrert'));
    expect(confirmation?.text).toContain('Du sa opp');
    expect(confirmation?.text).not.toContain(`faktura ${invoice.no}`);
    expect(confirmation?.text).not.toContain('Vi betaler');
  });
});
