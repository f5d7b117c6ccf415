import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarDaysBetween, formatLongDate, orderResponseSchema, orderSchema, osloNoonOf, osloToday, paymentRedirectSchema, systemClock, withdrawalResponseSchema } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import type { BillingDocumentContent } from '../src/modules/billing/documents/content.ts';
import { issueCreditNote } from '../src/modules/billing/documents/issue.ts';
import { insertInvoice } from '../src/modules/billing/issue-invoice.ts';
import type { Tx } from '../src/db/client.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import type { TestBrowser } from './browser.ts';
import { answerAtVipps, expectRefused, signIn as signInAs, vippsOf } from './support.ts';

// Issue 25.8: the right of withdrawal (angrerett, ADR 030). ny@ buys here and withdraws within
// 14 days: the subscription ends at once, the Vipps agreement is stopped, and the money goes back
// through the invoice-crediting machinery — refunded at Vipps MobilePay (the simulator), the credit
// note issued only on its word. After the deadline the same request is refused with the date.

const PORTAL = 'http://adresseavisen.localhost:3000';
const DAY = 24 * 60 * 60 * 1000;
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe.each(testDatabases)('right of withdrawal ($name)', ({ name }) => {
  let test: TestApp;
  // Noon in Oslo, so whole days forward never cross midnight on a daylight-saving night.
  const base = osloNoonOf(osloToday(systemClock())).getTime();
  let offsetDays = 0;
  const now = () => new Date(base + offsetDays * DAY);
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now });
  });
  afterAll(() => test.close());

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  const buy = async (browser: TestBrowser, titleCode: string, method: 'VIPPS' | 'SWEDBANK-PPG', options: { refundFault?: boolean } = {}) => {
    const created = orderSchema.parse(
      (await browser.request('POST', `${PORTAL}/api/order?titleCode=${titleCode}`, { json: { idempotencyKey: randomUUID(), ariaPlanID: `${titleCode}-DIGITAL-M` } })).json(),
    );
    const flow = paymentRedirectSchema.parse((await browser.request('POST', `${PORTAL}/api/order/${created.orderId}/payment`, { json: { method } })).json());
    await answerAtVipps(test, flow.redirectUrl, 'approve');
    const done = orderResponseSchema.parse((await browser.request('GET', `${PORTAL}/api/order/${created.orderId}`)).json());
    expect(done.order.state).toBe('fulfilled');
    if (options.refundFault) {
      // Vipps MobilePay cannot be reached to refund the card payment (429 to the call and both retries).
      vippsOf(test).faults.next('rate-limited', { count: 3, method: 'POST', pathPrefix: `/epayment/v1/payments/${flow.paymentId}/refund` });
    }
    return { orderId: created.orderId, paymentId: flow.paymentId, accountNo: done.session?.account.ariaAccountNo ?? 0 };
  };
  const withdrawal = (browser: TestBrowser, accountNo: number, titleCode: string) => `${PORTAL}/api/subscription/${accountNo}/${titleCode}/withdrawal`;
  const subscriptionOf = async (accountNo: number, titleCode: string) =>
    (
      await test.database.rows<{ id: string; inst_status_code: number; current_period_end: string }>(
        sql`select id, inst_status_code, current_period_end::text from subscription where aria_account_no = ${accountNo} and title_code = ${titleCode}`,
      )
    )[0];

  it('within 14 days: the subscription ends now, the Vipps agreement stops, the 1 kr comes back with a credit note, and the buyer is told', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { orderId, paymentId, accountNo } = await buy(ny, 'ADR', 'VIPPS');
    const today = osloToday(now());

    const before = withdrawalResponseSchema.parse((await ny.request('GET', withdrawal(ny, accountNo, 'ADR'))).json());
    expect(before).toMatchObject({ state: 'open', orderId, planName: 'Digital', agreedOn: today, paidOre: 100, withdrawnAt: null, refunds: [] });
    expect(calendarDaysBetween(today, before.deadline ?? '')).toBeGreaterThanOrEqual(14);

    const response = await ny.request('POST', withdrawal(ny, accountNo, 'ADR'), { json: {} });
    expect(response.status, response.body).toBe(200);
    const after = withdrawalResponseSchema.parse(response.json());
    expect(after).toMatchObject({ state: 'withdrawn', orderId, paidOre: 100, refunds: [{ amountOre: 100, outcome: 'refunded' }] });
    expect(after.refunds[0]?.creditNoteNumber).toEqual(expect.any(Number));

    // Ended today, no access; the change log says so.
    expect(await subscriptionOf(accountNo, 'ADR')).toMatchObject({ inst_status_code: -2, current_period_end: today });
    const session = (await ny.request('GET', `${PORTAL}/api/session?titleCode=ADR`)).json<{ subscription: { instStatusCode: number } }>();
    expect(session.subscription.instStatusCode).toBe(-2);
    const changes = await test.database.rows<{ kind: string }>(
      sql`select kind from subscription_change where subscription_id = ${(await subscriptionOf(accountNo, 'ADR'))?.id ?? ''} order by at desc limit 1`,
    );
    expect(changes[0]?.kind).toBe('withdrawn');
    // The money moved at the provider, and the payment says so only because the provider did.
    expect((await test.app.paymentEngine.load(paymentId))?.status).toBe('REFUNDED');
    // The agreement is stopped at Vipps MobilePay: nothing more is charged.
    const agreements = await test.database.rows<{ status: string }>(sql`select status from payment_agreement where subscription_id = ${(await subscriptionOf(accountNo, 'ADR'))?.id ?? ''}`);
    expect(agreements.map((agreement) => agreement.status)).toEqual(['STOPPED']);
    const mails = await test.database.rows<{ kind: string; subject: string }>(
      sql`select kind, subject from mail_outbox where to_address = 'ny@minside.test' and kind in ('withdrawalConfirmation', 'creditNote')`,
    );
    expect(mails.map((mail) => mail.kind).sort()).toEqual(['creditNote', 'withdrawalConfirmation']);

    // Again: the same withdrawal, nothing refunded twice.
    const again = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'ADR'), { json: {} })).json());
    expect(again).toEqual(after);
    const notes = await test.database.rows(sql`select 1 from billing_document where kind = 'CREDIT_NOTE' and aria_account_no = ${accountNo}`);
    expect(notes).toHaveLength(1);
  });

  it('a refund the provider does not confirm stays open (nothing marked refunded) until the job hears REFUNDED', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { paymentId, accountNo } = await buy(ny, 'VAR', 'SWEDBANK-PPG', { refundFault: true });
    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'VAR'), { json: {} })).json());
    expect(after).toMatchObject({ state: 'withdrawn', refunds: [{ amountOre: 100, outcome: 'pending', creditNoteNumber: null }] });
    expect((await test.app.paymentEngine.load(paymentId))?.status).toBe('CAPTURED');
    expect(await subscriptionOf(accountNo, 'VAR')).toMatchObject({ inst_status_code: -2 });

    expect(await test.app.withdrawals.retryRefunds()).toEqual({ withdrawals: 1, settled: 1 });
    const settled = withdrawalResponseSchema.parse((await ny.request('GET', withdrawal(ny, accountNo, 'VAR'))).json());
    expect(settled.refunds).toEqual([expect.objectContaining({ outcome: 'refunded', creditNoteNumber: expect.any(Number) })]);
    expect((await test.app.paymentEngine.load(paymentId))?.status).toBe('REFUNDED');
    expect(await test.app.withdrawals.retryRefunds()).toEqual({ withdrawals: 0, settled: 0 });
  });

  it('a complaint credit set off against an invoice of the agreement: the card gets what it paid, the credit is not promised to a next invoice that never comes', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'FVN', 'VIPPS');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'FVN'))?.id ?? '';
    // Arranged as the complaint and the renewal run leave it: 25 kr credited "på neste faktura" on an
    // invoice of an earlier period, then set off against a 99 kr invoice of this agreement, of which
    // 74 kr was paid with Vipps.
    const earlier = new Date(now().getTime() - 40 * DAY);
    const { creditNote, next } = await test.database.db.transaction(async (tx) => {
      const old = await insertInvoice(
        tx,
        defaultCatalogue,
        'FVN',
        {
          ariaAccountNo: accountNo,
          subscriptionId,
          amountOre: 9_900,
          description: 'Digital',
          periodFrom: addDays(today, -60),
          periodTo: addDays(today, -31),
          dueOn: addDays(today, -60),
          paidAt: earlier,
        },
        earlier,
      );
      const number = await issueCreditNote(tx, defaultCatalogue, {
        ariaInvoiceNo: old.ariaInvoiceNo,
        amountOre: 2_500,
        reason: 'Reklamasjon RK-999001: én avis som ikke kom som den skulle',
        settlement: 'Beløpet trekkes fra neste faktura.',
        source: `complaint:RK-999001:${old.ariaInvoiceNo}`,
        at: earlier,
      });
      await tx.execute(sql`insert into credit_set_off (id, credit_note_number, subscription_id, amount_ore, created_at) values (${randomUUID()}, ${number}, ${subscriptionId}, 2500, ${earlier})`);
      const issued = await insertInvoice(
        tx,
        defaultCatalogue,
        'FVN',
        { ariaAccountNo: accountNo, subscriptionId, amountOre: 9_900, description: 'Digital', periodFrom: addDays(today, 3), periodTo: addDays(today, 33), dueOn: addDays(today, 3) },
        now(),
        { setOffWaitingCredit: true },
      );
      return { creditNote: number, next: issued };
    });
    expect(next.setOffOre).toBe(2_500);
    const started = await ny.request('POST', `${PORTAL}/api/invoice/${next.ariaInvoiceNo}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBeLessThan(300);
    await answerAtVipps(test, started.json<{ redirectUrl: string }>().redirectUrl, 'approve');
    const [captured] = await test.database.rows<{ amount_ore: number }>(sql`select amount_ore from payment where aria_invoice_no = ${next.ariaInvoiceNo} and status = 'CAPTURED'`);
    expect(captured?.amount_ore).toBe(7_400);

    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'FVN'), { json: {} })).json());
    // What is owed back is the 1 kr and the 99 kr invoice; to the card only what the card paid, and the credit by the customer centre.
    expect(after).toMatchObject({ state: 'withdrawn', paidOre: 10_000 });
    expect(after.refunds).toEqual([
      expect.objectContaining({ amountOre: 100, outcome: 'refunded' }),
      expect.objectContaining({ ariaInvoiceNo: next.ariaInvoiceNo, amountOre: 7_400, outcome: 'refunded' }),
      expect.objectContaining({ amountOre: 2_500, outcome: 'manual', creditNoteNumber: creditNote }),
    ]);
    const [refund] = await test.database.rows<{ status: string; amount_ore: number }>(sql`select status, amount_ore from payment where aria_invoice_no = ${next.ariaInvoiceNo}`);
    expect(refund).toEqual({ status: 'REFUNDED', amount_ore: 7_400 });

    // The confirmation says what goes where: 75 kr to the means of payment, 25 kr from the customer centre.
    const [mail] = await test.database.rows<{ text: string }>(
      sql`select text from mail_outbox where to_address = 'ny@minside.test' and kind = 'withdrawalConfirmation' and idempotency_key = ${`withdrawal:${after.orderId}`}`,
    );
    const text = plain(mail?.text ?? '');
    expect(moneyParagraphs(text)).toEqual([
      `Vi betaler tilbake 75 kr med samme betalingsmiddel som du brukte, senest ${plain(formatLongDate(addDays(today, 14)))}. Du får en kreditnota på e-post når pengene er sendt.`,
      'Av det du skulle betale, ble 25 kr dekket av en kreditnota du hadde til gode. Det beløpet kan ikke trekkes fra en ny faktura når abonnementet er avsluttet, så kundeservice betaler det tilbake til kontoen din og tar kontakt med deg for å få kontonummeret.',
    ]);
    expect(text).not.toContain('100 kr');

    // The credit note of the 99 kr invoice promises no next invoice.
    const [note] = await test.database.rows<{ content: BillingDocumentContent }>(sql`select content from billing_document where kind = 'CREDIT_NOTE' and aria_invoice_no = ${next.ariaInvoiceNo}`);
    expect(note?.content.totals.totalOre).toBe(9_900);
    const settlement = plain(note?.content.credits?.settlement ?? '');
    expect(settlement).not.toContain('neste faktura');
    expect(settlement).toBe(
      '74,00 kr er betalt tilbake til deg med Vipps. 25,00 kr som du har til gode fra en kreditnota, kan ikke trekkes fra en ny faktura fordi abonnementet er avsluttet. Kundeservice tar kontakt med deg og betaler beløpet tilbake.',
    );
    // The credit is on the account, as ADR 026 keeps a credit still waiting when a subscription ends, for the customer centre to pay back.
    expect(await test.database.rows(sql`select amount_ore from credit_set_off where subscription_id = ${subscriptionId} and aria_invoice_no is null`)).toEqual([{ amount_ore: 2_500 }]);
    // … handed to the customer centre, in the transaction that released it: it waits for no invoice.
    expect(await test.database.rows(sql`select handed_over_at is not null as handed_over from credit_set_off where subscription_id = ${subscriptionId}`)).toEqual([{ handed_over: true }]);

    // Bought again (the same subscription row: one per account and title) before the customer centre
    // has paid the 25 kr back: the next invoice must not set it off as well, or it is paid out twice.
    await buy(ny, 'FVN', 'VIPPS');
    expect((await subscriptionOf(accountNo, 'FVN'))?.id).toBe(subscriptionId);
    const renewal = await test.database.db.transaction((tx) =>
      insertInvoice(
        tx,
        defaultCatalogue,
        'FVN',
        { ariaAccountNo: accountNo, subscriptionId, amountOre: 9_900, description: 'Digital', periodFrom: addDays(today, 30), periodTo: addDays(today, 60), dueOn: addDays(today, 30) },
        now(),
        { setOffWaitingCredit: true },
      ),
    );
    expect(renewal.setOffOre).toBe(0);
    expect(await test.database.rows(sql`select 1 from credit_set_off where aria_invoice_no = ${renewal.ariaInvoiceNo}`)).toHaveLength(0);
  });

  /** An invoice of `titleCode` inserted as the renewal run or the seed's history leaves it (paid at `at` when `paid`). */
  const invoiceOf = (
    tx: Tx,
    titleCode: string,
    accountNo: number,
    subscriptionId: string,
    amountOre: number,
    periodFrom: string,
    at: Date,
    options: { paid?: boolean; setOffWaitingCredit?: boolean } = {},
  ) =>
    insertInvoice(
      tx,
      defaultCatalogue,
      titleCode,
      { ariaAccountNo: accountNo, subscriptionId, amountOre, description: 'Digital', periodFrom, periodTo: addDays(periodFrom, 29), dueOn: periodFrom, paidAt: options.paid ? at : null },
      at,
      { setOffWaitingCredit: options.setOffWaitingCredit ?? false },
    );
  /** A delivery complaint's credit note on `ariaInvoiceNo`, its amount waiting "på neste faktura" (as documents/set-off.ts leaves it). */
  const waitingCredit = async (tx: Tx, subscriptionId: string, ariaInvoiceNo: number, amountOre: number, caseNumber: string, at: Date) => {
    const number = await issueCreditNote(tx, defaultCatalogue, {
      ariaInvoiceNo,
      amountOre,
      reason: `Reklamasjon ${caseNumber}: én avis som ikke kom som den skulle`,
      settlement: 'Beløpet trekkes fra neste faktura.',
      source: `complaint:${caseNumber}:${ariaInvoiceNo}`,
      at,
    });
    await tx.execute(sql`insert into credit_set_off (id, credit_note_number, subscription_id, amount_ore, created_at) values (${randomUUID()}, ${number}, ${subscriptionId}, ${amountOre}, ${at})`);
    return number;
  };
  const payWithVipps = async (browser: TestBrowser, ariaInvoiceNo: number) => {
    const started = await browser.request('POST', `${PORTAL}/api/invoice/${ariaInvoiceNo}/payment`, { json: { method: 'VIPPS', idempotencyKey: randomUUID() } });
    expect(started.status, started.body).toBeLessThan(300);
    await answerAtVipps(test, started.json<{ redirectUrl: string }>().redirectUrl, 'approve');
  };
  const confirmationOf = async (orderId: string | null) =>
    plain(
      (
        await test.database.rows<{ text: string }>(
          sql`select text from mail_outbox where to_address = 'ny@minside.test' and kind = 'withdrawalConfirmation' and idempotency_key = ${`withdrawal:${orderId ?? ''}`}`,
        )
      )[0]?.text ?? '',
    );
  /** The confirmation's paragraphs on the money: those after "Abonnementet er avsluttet fra i dag.", up to the footer. */
  const moneyParagraphs = (text: string) =>
    (text.split('\nAbonnementet er avsluttet fra i dag.\n')[1] ?? '')
      .split('\n--\n')[0]
      ?.split('\n\n')
      .map((paragraph) => paragraph.trim())
      .filter((paragraph) => paragraph !== '');
  /** The subscription bought again and renewed: what the next invoice sets off of a credit (nothing, once the customer centre has it). */
  const renewedAfterBuyingAgain = async (browser: TestBrowser, titleCode: string, accountNo: number, subscriptionId: string) => {
    await buy(browser, titleCode, 'VIPPS');
    expect((await subscriptionOf(accountNo, titleCode))?.id).toBe(subscriptionId);
    return test.database.db.transaction((tx) => invoiceOf(tx, titleCode, accountNo, subscriptionId, 9_900, addDays(osloToday(now()), 30), now(), { setOffWaitingCredit: true }));
  };

  it('credits still waiting when the subscription is withdrawn go to the customer centre at once: one from an earlier period is recorded, one on an invoice given back in full is not recorded twice, and no invoice sets either off', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'BLV', 'VIPPS');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'BLV'))?.id ?? '';
    const earlier = new Date(now().getTime() - 40 * DAY);
    // A 99 kr invoice of this agreement, paid with Vipps; then two complaints credited "på neste faktura",
    // neither set off yet: 25 kr of that invoice, and 10 kr of an invoice of an earlier period.
    const ofAgreement = await test.database.db.transaction((tx) => invoiceOf(tx, 'BLV', accountNo, subscriptionId, 9_900, addDays(today, 3), now()));
    await payWithVipps(ny, ofAgreement.ariaInvoiceNo);
    const { onAgreement, onEarlier, earlierInvoice } = await test.database.db.transaction(async (tx) => {
      const old = await invoiceOf(tx, 'BLV', accountNo, subscriptionId, 9_900, addDays(today, -60), earlier, { paid: true });
      return {
        earlierInvoice: old.ariaInvoiceNo,
        onEarlier: await waitingCredit(tx, subscriptionId, old.ariaInvoiceNo, 1_000, 'RK-999011', earlier),
        onAgreement: await waitingCredit(tx, subscriptionId, ofAgreement.ariaInvoiceNo, 2_500, 'RK-999012', now()),
      };
    });

    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'BLV'), { json: {} })).json());
    // The 99 kr invoice a complaint credited in part goes back in full by a person (ADR 026): that
    // gives back the 25 kr too, so it is not listed again. The 10 kr is the customer centre's to pay.
    expect(after.refunds).toEqual([
      expect.objectContaining({ amountOre: 100, outcome: 'refunded' }),
      expect.objectContaining({ ariaInvoiceNo: ofAgreement.ariaInvoiceNo, amountOre: 9_900, outcome: 'manual' }),
      { ariaInvoiceNo: earlierInvoice, amountOre: 1_000, outcome: 'manual', creditNoteNumber: onEarlier },
    ]);
    // Both handed over in the withdrawal's transaction: no invoice waits for them any more.
    const credits = await test.database.rows<{ credit_note_number: number; handed_over: boolean }>(
      sql`select credit_note_number::int as credit_note_number, handed_over_at is not null as handed_over from credit_set_off where subscription_id = ${subscriptionId} order by credit_note_number`,
    );
    expect(credits).toEqual([
      { credit_note_number: Math.min(onEarlier, onAgreement), handed_over: true },
      { credit_note_number: Math.max(onEarlier, onAgreement), handed_over: true },
    ]);
    const text = await confirmationOf(after.orderId);
    // The e-mail, written before the crediting answers, promises Vipps only the 1 kr: the 99 kr goes back by a person,
    // and the customer centre says once that it gets in touch.
    const by = plain(formatLongDate(addDays(today, 14)));
    expect(moneyParagraphs(text)).toEqual([
      `Vi betaler tilbake 1 kr med samme betalingsmiddel som du brukte, senest ${by}. Du får en kreditnota på e-post når pengene er sendt.`,
      `Av det du betalte, kan 99 kr ikke betales tilbake automatisk. Kundeservice betaler beløpet tilbake til kontoen din senest ${by}.`,
      'Du hadde dessuten 10 kr til gode fra en kreditnota som ikke var trukket fra noen faktura ennå. Kundeservice betaler det tilbake til kontoen din og tar kontakt med deg for å få kontonummeret.',
    ]);

    // Bought again: the next invoice sets off neither (the 25 kr would be paid twice, the 10 kr too).
    const renewal = await renewedAfterBuyingAgain(ny, 'BLV', accountNo, subscriptionId);
    expect(renewal.setOffOre).toBe(0);
  });

  it('an invoice of the agreement paid wholly by a complaint credit: credited, and the credit goes back through the customer centre', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'HEL', 'VIPPS');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'HEL'))?.id ?? '';
    const earlier = new Date(now().getTime() - 40 * DAY);
    // 25 kr credited on an invoice of an earlier period, set off against a 25 kr invoice of this agreement: settled by the credit alone.
    const { creditNote, earlierInvoice, next } = await test.database.db.transaction(async (tx) => {
      const old = await invoiceOf(tx, 'HEL', accountNo, subscriptionId, 9_900, addDays(today, -60), earlier, { paid: true });
      const number = await waitingCredit(tx, subscriptionId, old.ariaInvoiceNo, 2_500, 'RK-999021', earlier);
      return { creditNote: number, earlierInvoice: old.ariaInvoiceNo, next: await invoiceOf(tx, 'HEL', accountNo, subscriptionId, 2_500, addDays(today, 3), now(), { setOffWaitingCredit: true }) };
    });
    expect(next.setOffOre).toBe(2_500);
    expect(await test.database.rows(sql`select settled_by from invoice where aria_invoice_no = ${next.ariaInvoiceNo}`)).toEqual([{ settled_by: 'CREDIT' }]);

    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'HEL'), { json: {} })).json());
    // Owed back: the 1 kr and the 25 kr invoice; the 1 kr to Vipps, the credit by the customer centre.
    expect(after).toMatchObject({ state: 'withdrawn', paidOre: 2_600 });
    expect(after.refunds).toEqual([
      expect.objectContaining({ amountOre: 100, outcome: 'refunded' }),
      { ariaInvoiceNo: next.ariaInvoiceNo, amountOre: 2_500, outcome: 'cancelled', creditNoteNumber: expect.any(Number) },
      { ariaInvoiceNo: earlierInvoice, amountOre: 2_500, outcome: 'manual', creditNoteNumber: creditNote },
    ]);
    expect(await test.database.rows(sql`select amount_ore, aria_invoice_no, handed_over_at is not null as handed_over from credit_set_off where subscription_id = ${subscriptionId}`)).toEqual([
      { amount_ore: 2_500, aria_invoice_no: null, handed_over: true },
    ]);
    const text = await confirmationOf(after.orderId);
    expect(moneyParagraphs(text)).toEqual([
      `Vi betaler tilbake 1 kr med samme betalingsmiddel som du brukte, senest ${plain(formatLongDate(addDays(today, 14)))}. Du får en kreditnota på e-post når pengene er sendt.`,
      'Av det du skulle betale, ble 25 kr dekket av en kreditnota du hadde til gode. Det beløpet kan ikke trekkes fra en ny faktura når abonnementet er avsluttet, så kundeservice betaler det tilbake til kontoen din og tar kontakt med deg for å få kontonummeret.',
    ]);
    const [note] = await test.database.rows<{ content: BillingDocumentContent }>(sql`select content from billing_document where kind = 'CREDIT_NOTE' and aria_invoice_no = ${next.ariaInvoiceNo}`);
    expect(plain(note?.content.credits?.settlement ?? '')).toBe(
      'Fakturaen er kreditert i sin helhet. 25,00 kr som du har til gode fra en kreditnota, kan ikke trekkes fra en ny faktura fordi abonnementet er avsluttet. Kundeservice tar kontakt med deg og betaler beløpet tilbake.',
    );
    expect((await renewedAfterBuyingAgain(ny, 'HEL', accountNo, subscriptionId)).setOffOre).toBe(0);
  });

  it('a crash after the credit note and before the withdrawal is written loses nothing: the next run finds the refunds and the released credit', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'NID', 'VIPPS');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'NID'))?.id ?? '';
    const earlier = new Date(now().getTime() - 40 * DAY);
    // As in the test above: 25 kr set off against a 99 kr invoice of this agreement, 74 kr paid with Vipps.
    const { creditNote, earlierInvoice, next } = await test.database.db.transaction(async (tx) => {
      const old = await invoiceOf(tx, 'NID', accountNo, subscriptionId, 9_900, addDays(today, -60), earlier, { paid: true });
      const number = await waitingCredit(tx, subscriptionId, old.ariaInvoiceNo, 2_500, 'RK-999031', earlier);
      return { creditNote: number, earlierInvoice: old.ariaInvoiceNo, next: await invoiceOf(tx, 'NID', accountNo, subscriptionId, 9_900, addDays(today, 3), now(), { setOffWaitingCredit: true }) };
    });
    await payWithVipps(ny, next.ariaInvoiceNo);

    // The process dies after the credit notes committed, before the withdrawal's refunds are written.
    await test.database.db.execute(sql.raw(`create function crash_withdrawal_write() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$`));
    await test.database.db.execute(sql.raw(`create trigger crash_withdrawal_write before update on subscription_withdrawal for each row execute function crash_withdrawal_write()`));
    let crashed;
    try {
      crashed = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'NID'), { json: {} })).json());
    } finally {
      await test.database.db.execute(sql.raw(`drop trigger crash_withdrawal_write on subscription_withdrawal`));
      await test.database.db.execute(sql.raw(`drop function crash_withdrawal_write()`));
    }
    expect(crashed.refunds.map((refund) => refund.outcome)).toEqual(['pending', 'pending']);
    expect(await test.database.rows(sql`select 1 from billing_document where kind = 'CREDIT_NOTE' and aria_invoice_no = ${next.ariaInvoiceNo}`)).toHaveLength(1);

    // The job's next run: the invoices were credited by the run that died, and the credit is still the customer centre's.
    await test.app.withdrawals.retryRefunds();
    const settled = withdrawalResponseSchema.parse((await ny.request('GET', withdrawal(ny, accountNo, 'NID'))).json());
    expect(settled.refunds).toEqual([
      expect.objectContaining({ amountOre: 100, outcome: 'refunded', creditNoteNumber: expect.any(Number) }),
      { ariaInvoiceNo: next.ariaInvoiceNo, amountOre: 7_400, outcome: 'refunded', creditNoteNumber: expect.any(Number) },
      { ariaInvoiceNo: earlierInvoice, amountOre: 2_500, outcome: 'manual', creditNoteNumber: creditNote },
    ]);
    expect(await test.app.withdrawals.retryRefunds()).toEqual({ withdrawals: 0, settled: 0 });
  });

  /** An OCR giro or netbank payment as the bank import leaves it: one CAPTURED payment of provider 'bank' (a part-payment leaves the invoice unpaid). */
  const bankPayment = (accountNo: number, subscriptionId: string, ariaInvoiceNo: number, amountOre: number) =>
    test.database.db
      .execute(sql`insert into payment (id, idempotency_key, purpose, method, amount_ore, status, aria_account_no, subscription_id, aria_invoice_no, provider, provider_reference, return_url, created_at, updated_at, settled_at)
      values (${randomUUID()}, ${`bank-test:${ariaInvoiceNo}`}, 'INVOICE', 'BANKGIRO', ${amountOre}, 'CAPTURED', ${accountNo}, ${subscriptionId}, ${ariaInvoiceNo}, 'bank', ${`test:${ariaInvoiceNo}`}, '/fakturaoversikt', ${now()}, ${now()}, ${now()})`);
  /** Paid by OCR giro in full: the bank's payment, and the invoice settled by BANKGIRO. */
  const paidInTheBank = async (accountNo: number, subscriptionId: string, ariaInvoiceNo: number, amountOre: number) => {
    await bankPayment(accountNo, subscriptionId, ariaInvoiceNo, amountOre);
    await test.database.db.execute(sql`update invoice set paid_at = ${now()}, settled_by = 'BANKGIRO' where aria_invoice_no = ${ariaInvoiceNo}`);
  };
  /** An AvtaleGiro claim of the invoice sent to the bank, due on `dueOn`, on a mandate the bank has confirmed: as the claim run leaves it. */
  const claimedByAvtaleGiro = async (subscriptionId: string, ariaInvoiceNo: number, amountOre: number, dueOn: string) => {
    const kid = `test-mandate-${ariaInvoiceNo}`;
    const fileId = randomUUID();
    await test.database.db.execute(
      sql`insert into payment_agreement (id, subscription_id, method, status, provider, provider_agreement_id, created_at, updated_at) values (${randomUUID()}, ${subscriptionId}, 'AVTALEGIRO', 'ACTIVE', 'bank', ${kid}, ${now()}, ${now()})`,
    );
    await test.database.db.execute(
      sql`insert into bank_file (id, direction, kind, data_transmitter, transmission_number, data_recipient, sha256, status, created_at) values (${fileId}, 'OUT', 'avtalegiro-claims', 'test', ${fileId}, 'test', ${fileId}, 'WRITTEN', ${now()})`,
    );
    await test.database.db.execute(
      sql`insert into avtalegiro_claim (aria_invoice_no, bank_file_id, kid, amount_ore, due_on, created_at) values (${ariaInvoiceNo}, ${fileId}, ${kid}, ${amountOre}, ${dueOn}, ${now()})`,
    );
  };
  /** The order's 1 kr given back already by the customer centre (goodwill): credited in whole, it is not the withdrawal's. */
  const orderCreditedBefore = async (subscriptionId: string) => {
    const [ordered] = await test.database.rows<{ no: number }>(sql`select aria_invoice_no::int as no from invoice where subscription_id = ${subscriptionId}`);
    expect(await test.app.invoiceCrediting.creditInvoice(ordered?.no ?? 0, 'Godvilje fra kundeservice')).toMatchObject({ refunded: true });
  };
  /** The latest day the confirmation promises the money back by: 14 days from the withdrawal. */
  const refundDeadline = () => plain(formatLongDate(addDays(osloToday(now()), 14)));

  it('invoices paid in the bank or outside Min Side: the e-mail promises no refund to a means of payment, and names the customer centre with the amount', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'SNA', 'VIPPS');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'SNA'))?.id ?? '';
    await orderCreditedBefore(subscriptionId);
    // A 99 kr invoice of the agreement paid by OCR giro, and a 50 kr one marked paid with no payment here (paid outside Min Side).
    const { giro, outside } = await test.database.db.transaction(async (tx) => ({
      giro: await invoiceOf(tx, 'SNA', accountNo, subscriptionId, 9_900, addDays(today, 3), now()),
      outside: await invoiceOf(tx, 'SNA', accountNo, subscriptionId, 5_000, addDays(today, 33), now(), { paid: true }),
    }));
    await paidInTheBank(accountNo, subscriptionId, giro.ariaInvoiceNo, 9_900);

    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'SNA'), { json: {} })).json());
    expect(after).toMatchObject({ state: 'withdrawn', paidOre: 14_900 });
    expect(after.refunds).toEqual([
      expect.objectContaining({ ariaInvoiceNo: giro.ariaInvoiceNo, amountOre: 9_900, outcome: 'manual' }),
      expect.objectContaining({ ariaInvoiceNo: outside.ariaInvoiceNo, amountOre: 5_000, outcome: 'manual' }),
    ]);
    const text = await confirmationOf(after.orderId);
    expect(text).not.toContain('samme betalingsmiddel');
    expect(moneyParagraphs(text)).toEqual([
      `Kundeservice betaler tilbake 149 kr som du betalte i banken eller på annen måte, til kontoen din senest ${refundDeadline()}, og tar kontakt med deg for å få kontonummeret.`,
    ]);
  });

  it('invoices paid by card and with Vipps: the e-mail promises all of it back to the means of payment, as before', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'TRA', 'SWEDBANK-PPG');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'TRA'))?.id ?? '';
    const next = await test.database.db.transaction((tx) => invoiceOf(tx, 'TRA', accountNo, subscriptionId, 9_900, addDays(today, 3), now()));
    await payWithVipps(ny, next.ariaInvoiceNo);

    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'TRA'), { json: {} })).json());
    expect(after.refunds).toEqual([
      expect.objectContaining({ amountOre: 100, outcome: 'refunded' }),
      expect.objectContaining({ ariaInvoiceNo: next.ariaInvoiceNo, amountOre: 9_900, outcome: 'refunded' }),
    ]);
    const text = await confirmationOf(after.orderId);
    expect(text).toContain(`Vi betaler tilbake 100 kr med samme betalingsmiddel som du brukte, senest ${refundDeadline()}. Du får en kreditnota på e-post når pengene er sendt.`);
    // Nothing for the customer centre to pay back (the footer's "Kundeservice:" line is only its address).
    expect(moneyParagraphs(text)).toEqual([`Vi betaler tilbake 100 kr med samme betalingsmiddel som du brukte, senest ${refundDeadline()}. Du får en kreditnota på e-post når pengene er sendt.`]);
    expect(text).not.toContain('Kundeservice betaler');
    expect(text).not.toContain('til kontoen din');
  });

  it('one invoice paid with Vipps and one in the bank: the means of payment gets what it paid, the customer centre pays back the rest, each amount named', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'INN', 'VIPPS');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'INN'))?.id ?? '';
    const { byVipps, byGiro } = await test.database.db.transaction(async (tx) => ({
      byVipps: await invoiceOf(tx, 'INN', accountNo, subscriptionId, 9_900, addDays(today, 3), now()),
      byGiro: await invoiceOf(tx, 'INN', accountNo, subscriptionId, 4_900, addDays(today, 33), now()),
    }));
    await payWithVipps(ny, byVipps.ariaInvoiceNo);
    await paidInTheBank(accountNo, subscriptionId, byGiro.ariaInvoiceNo, 4_900);

    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'INN'), { json: {} })).json());
    expect(after).toMatchObject({ state: 'withdrawn', paidOre: 14_900 });
    expect(after.refunds).toEqual([
      expect.objectContaining({ amountOre: 100, outcome: 'refunded' }),
      expect.objectContaining({ ariaInvoiceNo: byVipps.ariaInvoiceNo, amountOre: 9_900, outcome: 'refunded' }),
      expect.objectContaining({ ariaInvoiceNo: byGiro.ariaInvoiceNo, amountOre: 4_900, outcome: 'manual' }),
    ]);
    const text = await confirmationOf(after.orderId);
    expect(moneyParagraphs(text)).toEqual([
      `Vi betaler tilbake 100 kr med samme betalingsmiddel som du brukte, senest ${refundDeadline()}. Du får en kreditnota på e-post når pengene er sendt.`,
      `Kundeservice betaler tilbake 49 kr som du betalte i banken eller på annen måte, til kontoen din senest ${refundDeadline()}, og tar kontakt med deg for å få kontonummeret.`,
    ]);
    expect(text).not.toContain('149 kr');
  });

  it('an unpaid invoice part-paid in the bank: the customer centre pays the part-payment back, and the e-mail never says there is nothing to pay back', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'NAM', 'VIPPS');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'NAM'))?.id ?? '';
    await orderCreditedBefore(subscriptionId);
    // A 99 kr invoice of the agreement of which 40 kr came in by netbank: still unpaid, so not cancelled either.
    const partly = await test.database.db.transaction((tx) => invoiceOf(tx, 'NAM', accountNo, subscriptionId, 9_900, addDays(today, 3), now()));
    await bankPayment(accountNo, subscriptionId, partly.ariaInvoiceNo, 4_000);

    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'NAM'), { json: {} })).json());
    // The page names what goes back, as the e-mail does: the 40 kr that came in, not the invoice's 99 kr.
    expect(after.refunds).toEqual([expect.objectContaining({ ariaInvoiceNo: partly.ariaInvoiceNo, amountOre: 4_000, outcome: 'manual', creditNoteNumber: null })]);
    const [stored] = await test.database.rows<{ code: string }>(sql`select refunds -> 0 ->> 'code' as code from subscription_withdrawal where order_id = ${after.orderId ?? ''}`);
    expect(stored?.code).toBe('INVOICE_PARTLY_PAID');
    const text = await confirmationOf(after.orderId);
    expect(moneyParagraphs(text)).toEqual([
      `Kundeservice betaler tilbake 40 kr som du betalte i banken eller på annen måte, til kontoen din senest ${refundDeadline()}, og tar kontakt med deg for å få kontonummeret.`,
    ]);
    expect(text).not.toContain('ingenting å betale tilbake');
  });

  it('an unpaid invoice the bank draws by AvtaleGiro too late to stop: the e-mail says so, and that the customer centre pays the draw back', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'FOF', 'VIPPS');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'FOF'))?.id ?? '';
    await orderCreditedBefore(subscriptionId);
    // A 99 kr invoice claimed at the bank, due in two days: the next claim file is too late to withdraw it.
    const drawn = await test.database.db.transaction((tx) => invoiceOf(tx, 'FOF', accountNo, subscriptionId, 9_900, addDays(today, 2), now()));
    await claimedByAvtaleGiro(subscriptionId, drawn.ariaInvoiceNo, 9_900, addDays(today, 2));

    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'FOF'), { json: {} })).json());
    expect(after.refunds).toEqual([expect.objectContaining({ ariaInvoiceNo: drawn.ariaInvoiceNo, amountOre: 9_900, outcome: 'manual', creditNoteNumber: null })]);
    const [stored] = await test.database.rows<{ code: string }>(sql`select refunds -> 0 ->> 'code' as code from subscription_withdrawal where order_id = ${after.orderId ?? ''}`);
    expect(stored?.code).toBe('INVOICE_DRAWN_BY_AVTALEGIRO');
    const text = await confirmationOf(after.orderId);
    expect(moneyParagraphs(text)).toEqual([
      `AvtaleGiro-trekket på 99 kr kan ikke lenger stoppes. Når banken har trukket beløpet, betaler kundeservice det tilbake til kontoen din senest ${refundDeadline()}, og tar kontakt med deg for å få kontonummeret.`,
    ]);
    expect(text).not.toContain('ingenting å betale tilbake');
  });

  it('a complaint credit on an invoice of the agreement, set off against another of it: given back with its invoice, and not promised a second time', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'HIF', 'VIPPS');
    const today = osloToday(now());
    const subscriptionId = (await subscriptionOf(accountNo, 'HIF'))?.id ?? '';
    // Invoice A (99 kr) paid with Vipps; a complaint credits 25 kr of it "på neste faktura", set off against
    // invoice B (99 kr), of which 74 kr is paid with Vipps.
    const first = await test.database.db.transaction((tx) => invoiceOf(tx, 'HIF', accountNo, subscriptionId, 9_900, addDays(today, 3), now()));
    await payWithVipps(ny, first.ariaInvoiceNo);
    const { creditNote, second } = await test.database.db.transaction(async (tx) => ({
      creditNote: await waitingCredit(tx, subscriptionId, first.ariaInvoiceNo, 2_500, 'RK-999041', now()),
      second: await invoiceOf(tx, 'HIF', accountNo, subscriptionId, 9_900, addDays(today, 33), now(), { setOffWaitingCredit: true }),
    }));
    expect(second.setOffOre).toBe(2_500);
    await payWithVipps(ny, second.ariaInvoiceNo);

    const after = withdrawalResponseSchema.parse((await ny.request('POST', withdrawal(ny, accountNo, 'HIF'), { json: {} })).json());
    // A goes back in full by a person (credited in part), which gives back what the 25 kr was for: no entry for the credit.
    expect(after.refunds).toEqual([
      expect.objectContaining({ amountOre: 100, outcome: 'refunded' }),
      expect.objectContaining({ ariaInvoiceNo: first.ariaInvoiceNo, amountOre: 9_900, outcome: 'manual' }),
      expect.objectContaining({ ariaInvoiceNo: second.ariaInvoiceNo, amountOre: 7_400, outcome: 'refunded' }),
    ]);
    expect(after.refunds.some((refund) => refund.creditNoteNumber === creditNote)).toBe(false);
    const text = await confirmationOf(after.orderId);
    // Vipps gets the 1 kr and the 74 kr; a person pays back A's 99 kr; the 25 kr is not promised again.
    expect(moneyParagraphs(text)).toEqual([
      `Vi betaler tilbake 75 kr med samme betalingsmiddel som du brukte, senest ${refundDeadline()}. Du får en kreditnota på e-post når pengene er sendt.`,
      `Av det du betalte, kan 99 kr ikke betales tilbake automatisk. Kundeservice betaler beløpet tilbake til kontoen din senest ${refundDeadline()} og tar kontakt med deg for å få kontonummeret.`,
    ]);
    expect(text).not.toContain('25 kr');
  });

  it('open on the deadline day; the day after refused with WITHDRAWAL_PERIOD_EXPIRED and the date, and nothing changes', async () => {
    offsetDays = 0;
    const ny = await signIn('ny@minside.test');
    const { accountNo } = await buy(ny, 'AAV', 'SWEDBANK-PPG');
    const open = withdrawalResponseSchema.parse((await ny.request('GET', withdrawal(ny, accountNo, 'AAV'))).json());
    const deadline = open.deadline ?? '';

    // Days later the session is long gone: signed in again each time.
    offsetDays = calendarDaysBetween(osloToday(new Date(base)), deadline);
    const onTheDay = await signIn('ny@minside.test');
    expect(withdrawalResponseSchema.parse((await onTheDay.request('GET', withdrawal(onTheDay, accountNo, 'AAV'))).json()).state).toBe('open');

    offsetDays += 1;
    const later = await signIn('ny@minside.test');
    const late = withdrawalResponseSchema.parse((await later.request('GET', withdrawal(later, accountNo, 'AAV'))).json());
    expect(late).toMatchObject({
      state: 'expired',
      deadline,
      message: `Fristen for å angre kjøpet gikk ut ${formatLongDate(deadline)}. Du kan fortsatt si opp abonnementet, så løper det ut perioden du har betalt for.`,
    });
    const before = await subscriptionOf(accountNo, 'AAV');
    expectRefused(await later.request('POST', withdrawal(later, accountNo, 'AAV'), { json: {} }), 409, 'WITHDRAWAL_PERIOD_EXPIRED', late.message ?? '');
    expect(await subscriptionOf(accountNo, 'AAV')).toEqual(before);
    expect(await test.database.rows(sql`select 1 from subscription_withdrawal where subscription_id = ${before?.id ?? ''}`)).toHaveLength(0);
    offsetDays = 0;
  });

  it('a subscription not bought here cannot be withdrawn (WITHDRAWAL_NOT_AVAILABLE), and another user’s is not found', async () => {
    offsetDays = 0;
    const papir = await signIn('papir@minside.test');
    const session = (await papir.request('GET', `${PORTAL}/api/session?titleCode=ADR`)).json<{ account: { ariaAccountNo: number } }>();
    const papirNo = session.account.ariaAccountNo;
    expect(withdrawalResponseSchema.parse((await papir.request('GET', withdrawal(papir, papirNo, 'ADR'))).json())).toMatchObject({ state: 'notAvailable', orderId: null });
    expectRefused(await papir.request('POST', withdrawal(papir, papirNo, 'ADR'), { json: {} }), 409, 'WITHDRAWAL_NOT_AVAILABLE');
    expect(await subscriptionOf(papirNo, 'ADR')).toMatchObject({ inst_status_code: 1 });
    const digital = await signIn('digital@minside.test');
    expectRefused(await digital.request('GET', withdrawal(digital, papirNo, 'ADR')), 404, 'NOT_FOUND');
    expectRefused(await digital.request('POST', withdrawal(digital, papirNo, 'ADR'), { json: {} }), 404, 'NOT_FOUND');
  });
});
