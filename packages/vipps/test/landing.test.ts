import { beforeAll, describe, expect, it } from 'vitest';
import type { VippsClient } from '../src/index.ts';
import { closeRigsAfterAll, shopUrl, startRig, unique } from './support.ts';
import type { Rig } from './support.ts';

// The landing page is what a person sees instead of the Vipps MobilePay app: it must read like the
// provider's page (the merchant, the amount, three answers in Norwegian) and never pass for the
// real one.

closeRigsAfterAll();

let rig: Rig;
let client: VippsClient;

beforeAll(async () => {
  rig = await startRig({ merchantNames: { '123456': 'Min Side (demo)' } });
  client = rig.client();
});

async function landing(url: string): Promise<{ html: string; headers: Headers }> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  return { html: await page.text(), headers: page.headers };
}

describe('the landing page', () => {
  it('names the merchant and the amount, offers three answers, and says it is a simulator', async () => {
    const reference = unique('landing');
    const created = await client.epayment.create(
      {
        amount: { currency: 'NOK', value: 64_900 },
        paymentMethod: { type: 'WALLET' },
        reference,
        returnUrl: shopUrl,
        userFlow: 'WEB_REDIRECT',
        paymentDescription: 'Faktura 80000001 – Adresseavisen',
      },
      { idempotencyKey: unique('k') },
    );
    const { html, headers } = await landing(created.redirectUrl ?? '');
    expect(html).toContain('<span class="badge">Simulator</span>');
    expect(html).toContain('Dette er en simulator');
    expect(html).toContain('Min Side (demo)');
    expect(html).toContain('Brukersted 123456');
    expect(html).toMatch(/<h1 class="amount"><span class="sr">Betal <\/span>649,00\skr<\/h1>/);
    expect(html).toContain('Faktura 80000001 – Adresseavisen');
    // The payment expires five minutes after it was made (09:00 UTC is 10:00 in Oslo in March).
    expect(html).toContain('Venter på svar · utløper kl. 10.05');
    for (const [action, label] of [
      ['approve', 'Godkjenn'],
      ['reject', 'Avvis'],
      ['expire', 'La utløpe'],
    ]) {
      expect(html).toContain(`<button type="submit" name="action" value="${action}">${label}</button>`);
    }
    // Self-contained: no scripts, nothing fetched from elsewhere, styles inline only.
    expect(headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'");
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|https?:\/\/(?!minside)/);
  });

  it('shows a decided payment without its buttons, and an agreement with its price and period', async () => {
    const reference = unique('decided');
    const created = await client.epayment.create(
      { amount: { currency: 'NOK', value: 29_900 }, paymentMethod: { type: 'CARD' }, reference, returnUrl: shopUrl, userFlow: 'WEB_REDIRECT' },
      { idempotencyKey: unique('k') },
    );
    expect((await landing(created.redirectUrl ?? '')).html).toContain('Testkort (Visa)');
    rig.sim.approve(reference);
    const decided = (await landing(created.redirectUrl ?? '')).html;
    expect(decided).toContain('<p class="status status-done">Godkjent</p>');
    expect(decided).not.toContain('<button');
    expect(decided).toContain('Betalingen kan ikke lenger endres');

    const agreement = await client.recurring.createAgreement(
      {
        pricing: { type: 'VARIABLE', suggestedMaxAmount: 59_800, currency: 'NOK' },
        interval: { unit: 'MONTH', count: 1 },
        merchantRedirectUrl: shopUrl,
        merchantAgreementUrl: shopUrl,
        productName: 'Digital',
      },
      { idempotencyKey: unique('k') },
    );
    const offered = (await landing(agreement.vippsConfirmationUrl)).html;
    expect(offered).toContain('Fast betaling til');
    expect(offered).toContain('<h1>Digital</h1>');
    expect(offered).toMatch(/Inntil 598,00\skr hver måned/);
    expect(offered).toContain('value="approve">Godkjenn</button>');
    expect(offered).not.toContain('Trekkes nå');

    // Bought with Vipps: the first charge is approved with the agreement, and the page says what is drawn now.
    const bought = await client.recurring.createAgreement(
      {
        pricing: { type: 'VARIABLE', suggestedMaxAmount: 59_800, currency: 'NOK' },
        interval: { unit: 'MONTH', count: 1 },
        merchantRedirectUrl: shopUrl,
        merchantAgreementUrl: shopUrl,
        productName: 'Digital',
        initialCharge: { amount: 100, description: 'Digital – Første måned for 1 kr', transactionType: 'DIRECT_CAPTURE' },
      },
      { idempotencyKey: unique('k') },
    );
    expect((await landing(bought.vippsConfirmationUrl)).html).toMatch(/<dt>Trekkes nå<\/dt><dd>1,00\skr – Digital – Første måned for 1 kr<\/dd>/);
  });
});
