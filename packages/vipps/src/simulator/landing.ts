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

export function formatAmount({ currency, value }: { currency: string; value: number }): string {
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

const PAYMENT_STATE: Record<string, string> = {
  CREATED: 'Venter på svar',
  AUTHORIZED: 'Godkjent',
  ABORTED: 'Avvist',
  EXPIRED: 'Utløpt',
  TERMINATED: 'Avbrutt av brukerstedet',
};

const AGREEMENT_STATUS: Record<string, string> = {
  PENDING: 'Venter på svar',
  ACTIVE: 'Aktiv',
  STOPPED: 'Stoppet',
  EXPIRED: 'Utløpt',
};

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="nb">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} – Vipps MobilePay (simulator)</title>
<style>
body { font-family: system-ui, sans-serif; background: #f4f1ee; color: #1d1d1b; margin: 0; padding: 0 1rem; }
main { max-width: 26rem; margin: 2rem auto; background: #fff; border-radius: 1rem; padding: 1.5rem; }
h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
.simulator { color: #ff5b24; font-weight: 600; margin: 0 0 1rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .5rem 1rem; }
dt { color: #555; }
dd { margin: 0; }
form { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: 1.5rem; }
button { font: inherit; border: 0; border-radius: 2rem; padding: .75rem 1.25rem; cursor: pointer; }
button[value=approve] { background: #ff5b24; color: #fff; }
button[value=reject] { background: #e4e0dc; }
button[value=expire] { background: none; text-decoration: underline; }
button:focus-visible { outline: 3px solid #1d1d1b; outline-offset: 2px; }
.card { margin-top: 1rem; padding: .75rem 1rem; border: 1px solid #d8d3ce; border-radius: .75rem; }
.card p { margin: 0 0 .25rem; }
.card .number { font-variant-numeric: tabular-nums; letter-spacing: .05em; }
.muted { color: #555; font-size: .9rem; }
</style>
</head>
<body>
<main>
<p class="simulator">Vipps MobilePay (simulator)</p>
${content}
</main>
</body>
</html>
`;
}

function rows(entries: ReadonlyArray<readonly [string, string | undefined]>): string {
  return `<dl>${entries
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
    .map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('')}</dl>`;
}

function buttons(field: 'reference' | 'agreementId', id: string): string {
  return `<form method="post" action="${LANDING_PATH}">
<input type="hidden" name="${field}" value="${escapeHtml(id)}">
<button type="submit" name="action" value="approve">Godkjenn</button>
<button type="submit" name="action" value="reject">Avvis</button>
<button type="submit" name="action" value="expire">La utløpe</button>
</form>`;
}

export interface PaymentLanding {
  msn: string;
  reference: string;
  amount: Amount;
  paymentDescription: string | undefined;
  state: string;
  /** WALLET: the Vipps app; CARD: a card form at the provider (here: a test card, no real data). */
  paymentMethod: 'WALLET' | 'CARD';
}

export function paymentPage(payment: PaymentLanding): string {
  const open = payment.state === 'CREATED';
  return page(
    'Betaling',
    `<h1>Betal ${escapeHtml(formatAmount(payment.amount))}</h1>
${rows([
  ['Brukersted', payment.msn],
  ['Beløp', formatAmount(payment.amount)],
  ['Beskrivelse', payment.paymentDescription],
  ['Referanse', payment.reference],
  ['Betalingsmåte', payment.paymentMethod === 'CARD' ? 'Betalingskort' : 'Vipps'],
  ['Status', PAYMENT_STATE[payment.state] ?? payment.state],
])}
${open && payment.paymentMethod === 'CARD' ? cardForm() : ''}
${open ? buttons('reference', payment.reference) : '<p>Betalingen kan ikke lenger endres.</p>'}`,
  );
}

/** Where the real service shows its card form: in the simulator a test card, nothing to type and nothing kept. */
function cardForm(): string {
  return `<div class="card" aria-label="Kort">
<p>Testkort (Visa)</p>
<p class="number">4925 0000 0000 0004 · 12/30 · 123</p>
<p class="muted">Simulatoren tar ikke imot ekte kortnummer: «Godkjenn» betaler med testkortet.</p>
</div>`;
}

export function agreementPage(msn: string, agreement: Agreement): string {
  const price =
    agreement.pricing.type === 'LEGACY'
      ? `${formatAmount({ currency: agreement.pricing.currency, value: agreement.pricing.amount })} ${intervalText(agreement.interval)}`
      : `Inntil ${formatAmount({ currency: agreement.pricing.currency, value: agreement.pricing.suggestedMaxAmount })} ${intervalText(agreement.interval)}`;
  const open = agreement.status === 'PENDING';
  return page(
    'Avtale',
    `<h1>${escapeHtml(agreement.productName)}</h1>
${rows([
  ['Brukersted', msn],
  ['Pris', price],
  ['Beskrivelse', agreement.productDescription ?? undefined],
  ['Avtale', agreement.id],
  ['Status', AGREEMENT_STATUS[agreement.status] ?? agreement.status],
])}
${open ? buttons('agreementId', agreement.id) : '<p>Avtalen kan ikke lenger endres.</p>'}`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
