import { sql, type SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import { addDays, nextPossibleDeliveryDay } from '@minside/domain';
import type { OcrTransactionInput } from '@minside/bank-files';
import { defaultCatalogue, type Catalogue } from '@minside/titles';
import { createVippsClient } from '@minside/vipps';
import type { VippsSimulator } from '@minside/vipps/simulator';
import { EMBEDDED_MERCHANT_SERIAL_NUMBER } from '../src/integrations/payment/embedded-vipps-simulator.ts';
import { createCalendarCache } from '../src/modules/delivery/calendars.ts';
import { DEMO_PASSWORD, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';

// What the API test files share on top of buildTestApp: a signed-in browser, the check of a
// refusal, and reads of what the app stored or mailed.

/** A browser signed in as a demo user at `portal` (the login must succeed). */
export async function signIn(test: TestApp, portal: string, email: string, titleCode = 'ADR'): Promise<TestBrowser> {
  const browser = new TestBrowser(() => injectTransport(test.app));
  const response = await login(browser, { portal, email, password: DEMO_PASSWORD, titleCode });
  expect(response.status, response.body).toBe(200);
  return browser;
}

/** A refusal: this status and `code`, and when given the exact (string) or matching (RegExp) message. Returns the body. */
export function expectRefused(response: BrowserResponse, status: number, code: string, message?: string | RegExp) {
  expect(response.status, response.body).toBe(status);
  const body = response.json<{ code: string; message: string }>();
  expect(body).toMatchObject({ code });
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}

/** The number a query selects as `n` (a count, or any one number). */
export async function countOf(test: TestApp, query: SQL): Promise<number> {
  return Number((await test.database.rows<{ n: number | string }>(query))[0]?.n);
}

/** The 6-digit code in the newest mail to `to` (by default a line of its own). */
export async function codeMailedTo(test: TestApp, to: string, pattern = /^(\d{6})$/m): Promise<string> {
  const [mail] = await test.database.rows<{ text: string }>(sql`select text from mail_outbox where to_address = ${to} order by created_at desc limit 1`);
  const code = pattern.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

/**
 * Delivery dates for fixtures, picked by the rule a test needs through the title's own
 * publication calendar (weekdays and Norwegian holidays), never by a fixed offset from today:
 * an offset lands on a Sunday or a holiday on some day of the year and the fixture breaks.
 */
export function issueDaysOf(titleCode: string, now: Date, catalogue: Catalogue = defaultCatalogue) {
  const calendar = createCalendarCache()(catalogue.byTitleCode(titleCode));
  /** The first issue that can still be changed: the first paper after the delivery cutoff. */
  const firstChangeable = nextPossibleDeliveryDay(calendar, now);
  return {
    calendar,
    firstChangeable,
    /** The `n`-th issue after `from` (0 = `from` itself when it is an issue day). */
    issueAfter(from: string, n: number): string {
      let day = calendar.nextPublicationDay(from);
      for (let index = 0; index < n; index += 1) day = calendar.nextPublicationDay(addDays(day, 1));
      return day;
    },
  };
}

/**
 * An OCR Giro netbank payment (transaction type 10) as the bank reports it, settled on `netsDate`,
 * paid the day before unless `bankDate` says otherwise: for the bank-file tests.
 */
export function netbankPayment(kid: string, amount: number, netsDate: string, more: Partial<OcrTransactionInput> = {}): OcrTransactionInput {
  return {
    transactionType: 10,
    netsDate,
    centreId: '13',
    dayCode: Number(netsDate.slice(8, 10)),
    partialSettlementNumber: 1,
    partialSettlementSerialNumber: '00001',
    sign: '0',
    amount,
    kid,
    formNumber: '0000000000',
    archiveReference: '000000001',
    bankDate: addDays(netsDate, -1),
    debitAccount: '86011117947',
    text: null,
    ...more,
  };
}

/** What the payer can answer on Vipps MobilePay's landing page: Godkjenn, Avvis, La utløpe. */
export type VippsAnswer = 'approve' | 'reject' | 'expire';

/**
 * The payer on Vipps MobilePay's landing page (the simulator embedded in the test app, npm
 * start's default): opens the page the portal sent the browser to and presses Godkjenn, Avvis or
 * La utløpe as a browser does (GET the page, POST its form), then the simulator's webhooks are
 * delivered. `lostWebhooks`: every webhook of that moment is lost (the return page and
 * reconciliation must settle it). Answers the portal path and query the payer is sent back to.
 */
export async function answerAtVipps(test: TestApp, redirectUrl: string, action: VippsAnswer, options: { lostWebhooks?: boolean } = {}): Promise<string> {
  const simulator = vippsOf(test);
  const page = new URL(redirectUrl);
  expect(page.origin, 'the portal sends the payer to Vipps MobilePay').toBe(new URL(simulator.url).origin);
  const landing = await fetch(page);
  expect(landing.status, await landing.clone().text()).toBe(200);
  const form = new URLSearchParams({ action });
  for (const name of ['reference', 'agreementId']) {
    const value = page.searchParams.get(name);
    if (value !== null) form.set(name, value);
  }
  // What was sent before the payer answered (the payment's "created") is delivered first: only the answer's webhooks are lost.
  await simulator.flushWebhooks();
  simulator.faults.webhooks.drop = options.lostWebhooks ?? false;
  try {
    const answered = await fetch(new URL('/simulator/landing', page), { method: 'POST', body: form, redirect: 'manual' });
    expect(answered.status, await answered.clone().text()).toBe(303);
    await simulator.flushWebhooks();
    const back = new URL(answered.headers.get('location') ?? '');
    return `${back.pathname}${back.search}`;
  } finally {
    simulator.faults.webhooks.drop = false;
  }
}

/** The Vipps MobilePay simulator embedded in a test app (testConfig's provider, as `npm start`'s). */
export function vippsOf(test: TestApp): VippsSimulator {
  if (!test.app.vippsSimulator) throw new Error('the test app pays through the embedded Vipps MobilePay simulator');
  return test.app.vippsSimulator;
}

/**
 * Vipps MobilePay's own view, asked as any client of its published API asks: with the keys the
 * app fetched its access token with (the embedded simulator makes them up at each start).
 */
export function vippsClientOf(test: TestApp, now: () => Date) {
  const simulator = vippsOf(test);
  const token = simulator.requests.find((request) => request.path.toLowerCase() === '/accesstoken/get');
  if (!token) throw new Error('the app has not fetched a Vipps MobilePay access token');
  return createVippsClient({
    baseUrl: simulator.url,
    clientId: token.headers['client_id'] ?? '',
    clientSecret: token.headers['client_secret'] ?? '',
    subscriptionKey: token.headers['ocp-apim-subscription-key'] ?? '',
    merchantSerialNumber: EMBEDDED_MERCHANT_SERIAL_NUMBER,
    system: { name: 'minside-test', version: '1' },
    now,
  });
}

/**
 * A PDF's text as a reader's tools extract it (pdf.js, as browsers use): one line per text line,
 * in drawing order. What a document says is checked on this, not on our own rendering input.
 */
export async function pdfText(pdf: Buffer): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise;
  const lines: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    let line = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      line += item.str;
      if (item.hasEOL) {
        lines.push(line);
        line = '';
      }
    }
    if (line) lines.push(line);
  }
  await document.destroy();
  // pdf.js gives the no-break spaces of amounts as plain spaces or as they are; one kind for the checks.
  return lines.join('\n').replace(/[\u00a0\u202f]/g, ' ');
}
