/**
 * The landing page: what a person sees instead of the Vipps MobilePay app. One small
 * self-contained HTML page per payment or agreement (no scripts, no external resources), whose
 * buttons post the decision back; the answer is a 303 to the merchant's return URL.
 */
import type { Amount } from '../contract/common.ts';
import type { Agreement } from '../contract/recurring.ts';

export type LandingAction = 'approve' | 'reject' | 'expire';

export const LANDING_PATH = '/simulator/landing';

/** No scripts, nothing from elsewhere; inline styles and the empty data: icon only. */
export const LANDING_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

// Vipps MobilePay's own pages write amounts and times their way; the simulator depends on no Min Side
// package (it stands for Vipps's service), so these are not @minside/domain's formatters.
function formatAmount({ currency, value }: { currency: string; value: number }): string {
  return new Intl.NumberFormat('nb-NO', { style: 'currency', currency }).format(value / 100);
}

const UNIT: Record<Agreement['interval']['unit'], { word: string; neuter: boolean }> = {
  DAY: { word: 'dag', neuter: false },
  WEEK: { word: 'uke', neuter: false },
  MONTH: { word: 'måned', neuter: false },
  YEAR: { word: 'år', neuter: true },
};

function intervalText({ unit, count }: Agreement['interval']): string {
  const { word, neuter } = UNIT[unit];
  const each = neuter ? 'hvert' : 'hver';
  return count === 1 ? `${each} ${word}` : `${each} ${count}. ${word}`;
}

/** The payment's state as the payer reads it, and the tone of its pill. */
const PAYMENT_STATE: Record<string, { text: string; tone: Tone }> = {
  CREATED: { text: 'Venter på svar', tone: 'open' },
  AUTHORIZED: { text: 'Godkjent', tone: 'done' },
  ABORTED: { text: 'Avvist', tone: 'ended' },
  EXPIRED: { text: 'Utløpt', tone: 'ended' },
  TERMINATED: { text: 'Avbrutt av brukerstedet', tone: 'ended' },
};

const AGREEMENT_STATUS: Record<string, { text: string; tone: Tone }> = {
  PENDING: { text: 'Venter på svar', tone: 'open' },
  ACTIVE: { text: 'Aktiv', tone: 'done' },
  STOPPED: { text: 'Stoppet', tone: 'ended' },
  EXPIRED: { text: 'Utløpt', tone: 'ended' },
};

type Tone = 'open' | 'done' | 'ended';

const osloClock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** "00.20" on the Oslo clock: Min Side's time style (Språkrådet, a full stop; this package has no domain to import it from). */
function osloTime(at: Date): string {
  const part = (type: 'hour' | 'minute') => osloClock.formatToParts(at).find((p) => p.type === type)?.value ?? '';
  return `${part('hour')}.${part('minute')}`;
}

/**
 * One frame for every page: Vipps MobilePay's orange, and a "Simulator" badge and notice that
 * no one can miss, so the page is never mistaken for the real one. Styles inline (LANDING_CSP).
 */
function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="nb">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} – Vipps MobilePay (simulator)</title>
<style>
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 1rem; line-height: 1.45; background: #f6f3f1; color: #1d1d1b; }
.frame { max-width: 27rem; margin: 0 auto; padding: 1rem 1rem 2rem; }
.top { display: flex; align-items: center; justify-content: space-between; gap: .75rem; padding: .5rem .25rem 1rem; }
.brand { font-weight: 800; font-size: 1.375rem; letter-spacing: -.01em; color: #ff5b24; white-space: nowrap; }
.brand span { color: #1d1d1b; font-weight: 600; }
.badge { flex-shrink: 0; display: inline-flex; align-items: center; gap: .4rem; background: #1d1d1b; color: #fff; border-radius: 999px; padding: .3rem .75rem; font-size: .8125rem; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; }
.badge::before { content: ""; width: .5rem; height: .5rem; border-radius: 50%; background: #ff5b24; }
.notice { margin: 0 0 1rem; padding: .75rem 1rem; background: #fff1eb; border-left: 4px solid #ff5b24; border-radius: .5rem; font-size: .9375rem; }
.card { background: #fff; border-radius: 1.25rem; padding: 1.5rem; box-shadow: 0 1px 2px rgba(29, 29, 27, .06), 0 8px 24px rgba(29, 29, 27, .06); }
.card > :last-child { margin-bottom: 0; }
.label { margin: 0; color: #5c5a57; font-size: .875rem; }
.merchant { margin: 0 0 1.25rem; font-weight: 700; font-size: 1.125rem; }
.merchant small { display: block; font-weight: 400; font-size: .875rem; color: #5c5a57; }
h1 { margin: 0 0 .25rem; font-size: 1.5rem; line-height: 1.2; }
h1.amount { font-size: 2.5rem; font-weight: 800; letter-spacing: -.02em; font-variant-numeric: tabular-nums; }
.description { margin: 0 0 1rem; font-size: 1.0625rem; }
.status { display: inline-block; margin: 0 0 1.25rem; padding: .2rem .7rem; border-radius: 999px; font-size: .875rem; font-weight: 600; }
.status-open { background: #fff1eb; color: #8a2a00; }
.status-done { background: #e3f4ea; color: #135e33; }
.status-ended { background: #ecebea; color: #3d3b39; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .5rem 1rem; margin: 0; padding-top: 1rem; border-top: 1px solid #ecebea; font-size: .9375rem; }
dt { color: #5c5a57; }
dd { margin: 0; overflow-wrap: anywhere; }
.reference { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .8125rem; }
form { display: grid; gap: .625rem; margin-top: 1.5rem; }
button { font: inherit; font-size: 1.1875rem; font-weight: 700; border-radius: 999px; padding: .8rem 1.25rem; cursor: pointer; width: 100%; }
button[value=approve] { background: #ff5b24; color: #fff; border: 2px solid #ff5b24; }
button[value=approve]:hover { background: #e84a15; border-color: #e84a15; }
button[value=reject] { background: #fff; color: #1d1d1b; border: 2px solid #1d1d1b; }
button[value=reject]:hover { background: #f6f3f1; }
button[value=expire] { background: none; border: 0; color: #3d3b39; font-size: 1rem; font-weight: 600; text-decoration: underline; text-underline-offset: .2em; padding: .5rem; }
button:focus-visible { outline: 3px solid #1d1d1b; outline-offset: 3px; }
.help { margin: 1rem 0 0; color: #5c5a57; font-size: .875rem; }
.closed { margin: 1.25rem 0 0; }
.testcard { margin-top: 1.25rem; padding: 1rem; border-radius: .875rem; background: linear-gradient(135deg, #1d1d1b, #4a4744); color: #fff; }
.testcard p { margin: 0 0 .25rem; }
.testcard .number { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 1.0625rem; letter-spacing: .08em; }
.testcard .muted { color: #d9d6d3; font-size: .875rem; margin: .5rem 0 0; }
.foot { margin: 1.25rem 0 0; text-align: center; color: #5c5a57; font-size: .8125rem; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
</style>
</head>
<body>
<div class="frame">
<header class="top">
<span class="brand">vipps <span>MobilePay</span></span>
<span class="badge">Simulator</span>
</header>
<p class="notice"><strong>Dette er en simulator</strong>, ikke Vipps MobilePay. Ingen penger trekkes, og ingenting sendes til banken din.</p>
<main class="card">
${content}
</main>
<p class="foot">En simulator av Vipps MobilePays publiserte grensesnitt, for utvikling og test.</p>
</div>
</body>
</html>
`;
}

function status({ text, tone }: { text: string; tone: Tone }, extra?: string): string {
  return `<p class="status status-${tone}">${escapeHtml(text)}${extra === undefined ? '' : ` · ${escapeHtml(extra)}`}</p>`;
}

function rows(entries: ReadonlyArray<readonly [string, string | undefined, string?]>): string {
  return `<dl>${entries
    .filter((entry): entry is readonly [string, string, string?] => entry[1] !== undefined)
    .map(([label, value, className]) => `<dt>${escapeHtml(label)}</dt><dd${className === undefined ? '' : ` class="${className}"`}>${escapeHtml(value)}</dd>`)
    .join('')}</dl>`;
}

function buttons(field: 'reference' | 'agreementId', id: string): string {
  return `<form method="post" action="${LANDING_PATH}">
<input type="hidden" name="${field}" value="${escapeHtml(id)}">
<button type="submit" name="action" value="approve">Godkjenn</button>
<button type="submit" name="action" value="reject">Avvis</button>
<button type="submit" name="action" value="expire">La utløpe</button>
</form>
<p class="help">«Godkjenn» og «Avvis» svarer som i Vipps-appen; «La utløpe» er som om du aldri svarte.</p>`;
}

/** Who is paid: the sales unit's name where the simulator was given one, and its serial number. */
function merchantLine(label: string, msn: string, name: string | undefined): string {
  const serial = name === undefined ? '' : `<small>Brukersted ${escapeHtml(msn)}</small>`;
  return `<p class="label">${escapeHtml(label)}</p>\n<p class="merchant">${escapeHtml(name ?? `Brukersted ${msn}`)}${serial}</p>`;
}

export interface PaymentLanding {
  msn: string;
  reference: string;
  amount: Amount;
  paymentDescription: string | undefined;
  state: string;
  /** WALLET: the Vipps app; CARD: a card form at the provider (here: a test card, no real data). */
  paymentMethod: 'WALLET' | 'CARD';
  /** When a payment still waiting for an answer expires. */
  expiresAtMs?: number;
}

export function paymentPage(payment: PaymentLanding, merchantName?: string): string {
  const open = payment.state === 'CREATED';
  const state = PAYMENT_STATE[payment.state] ?? { text: payment.state, tone: 'ended' as const };
  const until = open && payment.expiresAtMs !== undefined ? `utløper kl. ${osloTime(new Date(payment.expiresAtMs))}` : undefined;
  return page(
    'Betaling',
    `${merchantLine('Betaling til', payment.msn, merchantName)}
<h1 class="amount"><span class="sr">Betal </span>${escapeHtml(formatAmount(payment.amount))}</h1>
${payment.paymentDescription === undefined ? '' : `<p class="description">${escapeHtml(payment.paymentDescription)}</p>`}
${status(state, until)}
${rows([
  ['Betalingsmåte', payment.paymentMethod === 'CARD' ? 'Betalingskort' : 'Vipps'],
  ['Referanse', payment.reference, 'reference'],
])}
${open && payment.paymentMethod === 'CARD' ? cardForm() : ''}
${open ? buttons('reference', payment.reference) : '<p class="closed">Betalingen kan ikke lenger endres. Du kan lukke denne siden.</p>'}`,
  );
}

/** Where the real service shows its card form: in the simulator a test card, nothing to type and nothing kept. */
function cardForm(): string {
  return `<div class="testcard" aria-label="Kort">
<p>Testkort (Visa)</p>
<p class="number">4925 0000 0000 0004</p>
<p>Utløper 12/30 · CVC 123</p>
<p class="muted">Simulatoren tar ikke imot ekte kortnummer: «Godkjenn» betaler med testkortet.</p>
</div>`;
}

export function agreementPage(msn: string, agreement: Agreement, merchantName?: string, initialCharge?: { amount: number; description: string }): string {
  const price =
    agreement.pricing.type === 'LEGACY'
      ? `${formatAmount({ currency: agreement.pricing.currency, value: agreement.pricing.amount })} ${intervalText(agreement.interval)}`
      : `Inntil ${formatAmount({ currency: agreement.pricing.currency, value: agreement.pricing.suggestedMaxAmount })} ${intervalText(agreement.interval)}`;
  const open = agreement.status === 'PENDING';
  return page(
    'Avtale',
    `${merchantLine('Fast betaling til', msn, merchantName)}
<h1>${escapeHtml(agreement.productName)}</h1>
<p class="description">${escapeHtml(price)}</p>
${status(AGREEMENT_STATUS[agreement.status] ?? { text: agreement.status, tone: 'ended' })}
${rows([
  ['Beskrivelse', agreement.productDescription ?? undefined],
  ['Trekkes nå', initialCharge ? `${formatAmount({ currency: agreement.pricing.currency, value: initialCharge.amount })} – ${initialCharge.description}` : undefined],
  ['Betalingsmåte', 'Vipps (fast betaling)'],
  ['Avtale', agreement.id, 'reference'],
])}
${open ? buttons('agreementId', agreement.id) : '<p class="closed">Avtalen kan ikke lenger endres her. Du kan lukke denne siden.</p>'}`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
