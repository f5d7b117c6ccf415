import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../fixtures.ts';
import { adresseavisen, apiCall, operatorCall, signInAtProvider, varden } from './support.ts';

// Issue 6 "Invoices and payments", through the real UI, API and the embedded test payment
// provider (/_dev/pay/{id} with Godkjenn / Avbryt / Feil / Tidsavbrudd). The specs share one
// seeded server, so each journey that changes something uses a persona no other spec changes
// that way: papir's one unpaid invoice is paid only here (cancelled, failed, then approved,
// in one test so the order is fixed); ung (Vipps) switches to card; student tries a card
// the provider cannot find, which changes nothing; varden adds the only discount.

interface InvoiceBody {
  ariaInvoiceNo: number;
  kid: string;
  amountOre: number;
  status: 'PAID' | 'UNPAID' | 'OVERDUE';
}

const PAYMENT_KEYS = 'minside.paymentFlow';

/** MOD10 (Luhn), as banks check a KID: the last digit is the check digit of the rest. */
function hasValidMod10(kid: string): boolean {
  if (!/^\d{2,25}$/.test(kid)) return false;
  let sum = 0;
  [...kid.slice(0, -1)].reverse().forEach((char, index) => {
    let digit = Number(char);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  });
  return (10 - (sum % 10)) % 10 === Number(kid.at(-1));
}

async function signIn(page: Page, email: string, path: string, at: (path: string) => string = adresseavisen): Promise<void> {
  await page.goto(at(path));
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(at(path));
}

async function invoicesOf(page: Page): Promise<InvoiceBody[]> {
  const session = (await apiCall(page, '/api/session?titleCode=ADR')).body as { subscription: { ariaAccountNo: number } };
  const response = await apiCall(page, `/api/invoice/${session.subscription.ariaAccountNo}`);
  expect(response.status).toBe(200);
  return (response.body as { invoices: InvoiceBody[] }).invoices;
}

/** At the test provider's hosted page: press one of its buttons, and land back on the portal. */
async function atProvider(page: Page, button: 'Godkjenn' | 'Avbryt' | 'Feil' | 'Tidsavbrudd', returnPath: RegExp): Promise<void> {
  await expect(page).toHaveURL(/\/_dev\/pay\//);
  await page.getByRole('button', { name: button, exact: true }).click();
  await expect(page).toHaveURL(returnPath);
}

/** The first-visit consent dialog (privacy area) may cover the page: decline and go on. */
async function declineConsentWhenAsked(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Personverninnstillinger' });
  // The page may be on its way to the identity provider already: then there is nothing to decline.
  await page.addLocatorHandler(dialog, async () => {
    await dialog.getByRole('button', { name: 'Avslå alle' }).click({ timeout: 2_000 }).catch(() => {});
  });
}

test.beforeEach(async ({ page }) => {
  await declineConsentWhenAsked(page);
});

const paymentKeys = (page: Page) => page.evaluate((key) => window.sessionStorage.getItem(key), PAYMENT_KEYS);

test('papir: the unpaid invoice has a valid KID; a pay-link, Feil and Avbryt leave it unpaid; Godkjenn pays it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, 'papir@minside.test', '/fakturaoversikt');
  const unpaid = (await invoicesOf(page)).find((invoice) => invoice.status !== 'PAID');
  if (!unpaid) throw new Error('papir has no unpaid invoice: has another spec paid it?');
  const no = String(unpaid.ariaInvoiceNo);

  // Listed, newest first, with the KID a bank accepts (MOD10), the amount in whole kroner.
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.nth(1)).toContainText(`Fakturanr. ${no}`);
  const row = rows.filter({ hasText: `Fakturanr. ${no}` });
  await expect(row).toContainText(/Ikke betalt|Forfalt/);
  await expect(row).toContainText('649 kr');
  const shownKid = /KID\s+(\d+)/.exec(await row.innerText())?.[1] ?? '';
  expect(shownKid).toBe(unpaid.kid);
  expect(hasValidMod10(shownKid)).toBe(true);
  await expect(row.getByRole('link', { name: `PDF av faktura ${no} (åpnes i ny fane)` })).toHaveAttribute('href', new RegExp(`/api/invoice/\\d+/${no}/pdf$`));
  await expect(page.getByRole('heading', { name: 'Du har 1 faktura som ikke er betalt' })).toBeVisible();

  // A pay-link (as the customer centre sends by SMS) opens without signing in; Avbryt there changes nothing.
  const link = await operatorCall('/api/operator/paylink', { ariaInvoiceNo: unpaid.ariaInvoiceNo });
  expect(link.status).toBe(200);
  const anonymous = await browser.newContext();
  const payer = await anonymous.newPage();
  await declineConsentWhenAsked(payer);
  await payer.goto(adresseavisen((link.body as { path: string }).path));
  await expect(payer.getByRole('heading', { level: 1, name: 'Betaling' })).toBeVisible();
  await expect(payer.getByRole('region', { name: /Komplett/ })).toContainText(unpaid.kid);
  await expect(payer.getByRole('button', { name: 'Logg inn' }).or(payer.getByRole('link', { name: 'Logg inn' })).first()).toBeVisible();
  await payer.getByRole('button', { name: 'Betal 649 kr med Vipps' }).click();
  await atProvider(payer, 'Avbryt', /\/betaling\?token=.+&paymentId=/);
  await expect(payer.getByRole('heading', { name: 'Betalingen ble avbrutt' })).toBeFocused();
  await expect(payer.getByText('Betalingen ble avbrutt. Fakturaen er ikke betalt.')).toBeVisible();
  await expect(payer.getByRole('button', { name: 'Prøv igjen' })).toBeVisible();
  expect(await paymentKeys(payer)).toBeNull();

  // Signed in: Betal → card → Feil at the provider: a clear message, and a retry.
  await row.getByRole('link', { name: `Betal faktura ${no}` }).click();
  await expect(page).toHaveURL(adresseavisen(`/betal-faktura/${no}`));
  await expect(page.getByRole('region', { name: /Komplett/ })).toContainText('Ikke betalt');
  await page.getByRole('radio', { name: /Betalingskort/ }).check();
  await page.getByRole('button', { name: 'Betal 649 kr med kort' }).click();
  await expect(page).toHaveURL(/\/_dev\/pay\//);
  // During the flow the SPEC §3 temporary keys are in sessionStorage, and nothing of a card.
  const kept = JSON.parse((await paymentKeys(page)) ?? '{}') as Record<string, unknown>;
  expect(kept).toMatchObject({ paymentMethodId: 'SWEDBANK-PPG', invoiceDueAmount: unpaid.amountOre, invoiceNo: no, source: 'payInvoice' });
  expect(Object.keys(kept).sort()).toEqual(['agreementId', 'invoiceDueAmount', 'invoiceNo', 'paymentMethodId', 'source']);
  await atProvider(page, 'Feil', new RegExp(`/betal-faktura/${no}\\?paymentId=`));
  await expect(page.getByRole('heading', { name: 'Betalingen gikk ikke gjennom' })).toBeVisible();
  await expect(page.getByText('Betalingen feilet. Prøv igjen, eller velg en annen betalingsmåte.')).toBeVisible();
  expect(await paymentKeys(page)).toBeNull();

  // Vipps → Avbryt: still unpaid, said plainly, with a retry.
  await page.getByRole('button', { name: 'Prøv igjen' }).click();
  await expect(page).toHaveURL(adresseavisen(`/betal-faktura/${no}`));
  await page.getByRole('button', { name: 'Betal 649 kr med Vipps' }).click();
  await atProvider(page, 'Avbryt', new RegExp(`/betal-faktura/${no}\\?paymentId=`));
  await expect(page.getByRole('heading', { name: 'Betalingen ble avbrutt' })).toBeFocused();
  await expect(page.getByText('Betalingen ble avbrutt. Fakturaen er ikke betalt.')).toBeVisible();
  await expect(page.getByRole('region', { name: /Komplett/ })).toContainText('Ikke betalt');
  expect((await invoicesOf(page)).find((invoice) => invoice.ariaInvoiceNo === unpaid.ariaInvoiceNo)?.status).not.toBe('PAID');

  // Retry with card → Godkjenn: a receipt, then Betalt in the overview.
  await page.getByRole('button', { name: 'Prøv igjen' }).click();
  await page.getByRole('radio', { name: /Betalingskort/ }).check();
  await page.getByRole('button', { name: 'Betal 649 kr med kort' }).click();
  await atProvider(page, 'Godkjenn', new RegExp(`/betal-faktura/${no}\\?paymentId=`));
  const receipt = page.getByRole('region', { name: 'Kvittering' });
  await expect(receipt).toContainText('Betalingen er gjennomført. Takk!');
  await expect(receipt).toContainText('649 kr');
  await expect(receipt).toContainText('Betalingskort');
  await expect(receipt).toContainText(unpaid.kid);
  expect(await paymentKeys(page)).toBeNull();
  await receipt.getByRole('link', { name: 'Til fakturaoversikten' }).click();
  const paidRow = page.getByRole('table').getByRole('row').filter({ hasText: `Fakturanr. ${no}` });
  await expect(paidRow).toContainText('Betalt');
  await expect(paidRow).not.toContainText('Ikke betalt');
  await expect(paidRow.getByRole('link', { name: /Betal faktura/ })).toHaveCount(0);
  await expect(page.getByText('Alle fakturaene dine er betalt.')).toBeVisible();

  // Paying it again is refused: on the page and through the pay-link.
  await page.goto(adresseavisen(`/betal-faktura/${no}`));
  await expect(page.getByRole('heading', { name: 'Fakturaen er allerede betalt.' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Betal \d+ kr/ })).toHaveCount(0);
  await payer.reload();
  await expect(payer.getByText('Fakturaen er allerede betalt.')).toBeVisible();
  await anonymous.close();
});

test('another subscriber’s invoice cannot be paid; a bad pay-link is explained', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/fakturaoversikt');
  const papirInvoice = (await invoicesOf(page))[0];
  if (!papirInvoice) throw new Error('papir has no invoices');
  await page.context().clearCookies();

  await signIn(page, 'digital@minside.test', `/betal-faktura/${papirInvoice.ariaInvoiceNo}`);
  await expect(page.getByRole('heading', { name: 'Vi fant ikke fakturaen' })).toBeVisible();
  await expect(page.getByText(papirInvoice.kid)).toHaveCount(0);
  const refused = await apiCall(page, `/api/invoice/${papirInvoice.ariaInvoiceNo}/payment`, { method: 'POST', json: { method: 'VIPPS', idempotencyKey: crypto.randomUUID() } });
  expect(refused.status).toBe(404);

  await page.goto(adresseavisen('/betaling?token=ikke-en-gyldig-lenke'));
  await expect(page.getByRole('heading', { name: 'Betalingslenken er ugyldig.' })).toBeVisible();
});

test('ung switches from Vipps to card at the provider; the home page shows the new method', async ({ page }) => {
  await signIn(page, 'ung@minside.test', '/endre-betalingsmetode');
  const current = page.getByRole('region', { name: 'Nåværende betalingsmetode' });
  await expect(current).toContainText('Vipps');
  await expect(page.getByRole('radio', { name: /Vipps \(den du har nå\)/ })).toBeDisabled();

  await page.getByRole('radio', { name: /Betalingskort/ }).check();
  await page.getByRole('button', { name: 'Gå videre og legg inn kort' }).click();
  await expect(page.getByRole('heading', { name: 'Lagre betalingskort' })).toBeVisible();
  expect(JSON.parse((await paymentKeys(page)) ?? '{}')).toMatchObject({ paymentMethodId: 'SWEDBANK-PPG', source: 'changePaymentMethod' });
  await atProvider(page, 'Godkjenn', /\/endre-betalingsmetode\/verify\?paymentId=/);
  await expect(page.getByRole('heading', { name: 'Betalingsmetoden er endret' })).toBeVisible();
  expect(await paymentKeys(page)).toBeNull();

  await page.getByRole('link', { name: 'Til Min Side' }).click();
  await expect(page).toHaveURL(adresseavisen('/'));
  const summary = page.getByRole('region', { name: 'Ung digital' });
  await expect(summary).toContainText('BetalingsmåteBetalingskort');
  // Also what the server says, after a fresh load.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Ung digital' })).toContainText('BetalingsmåteBetalingskort');
  await page.goto(adresseavisen('/endre-betalingsmetode'));
  await expect(page.getByRole('region', { name: 'Nåværende betalingsmetode' })).toContainText('Betalingskort');
  await expect(page.getByRole('region', { name: 'Nåværende betalingsmetode' })).toContainText('4242');
});

test('AvtaleGiro is finished in the netbank: the title, the KID and the steps, waiting for the bank until it confirms', async ({ page }) => {
  await signIn(page, 'varden@minside.test', '/endre-betalingsmetode', varden);
  // varden pays by giro; a retry after a failure half-way starts from there again.
  const reset = await apiCall(page, '/api/subscription/paymentMethod', { method: 'PUT', json: { ariaAccountNo: 40_000_013, titleCode: 'VAR', method: 'BANKGIRO', idempotencyKey: crypto.randomUUID() } });
  expect(reset.status).toBe(200);
  await page.reload();
  await page.getByRole('radio', { name: /AvtaleGiro/ }).check();
  await expect(page.getByText('Du gjør ferdig avtalen i din egen nettbank')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Kontonummer' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Bruk AvtaleGiro' }).click();
  await expect(page.getByRole('heading', { name: 'Slik bekrefter du AvtaleGiro i nettbanken' })).toBeVisible();
  await expect(page.getByText(/Søk etter Varden/)).toBeVisible();
  const current = page.getByRole('region', { name: 'Nåværende betalingsmetode' });
  await expect(current).toContainText('Venter på bekreftelse fra banken');
  await expect(current).toContainText(/KID for avtalen: \d{10,25}/);
  // Back to giro, as varden was: nothing is left waiting at the bank.
  await page.getByRole('radio', { name: /^Giro \/ eFaktura/ }).check();
  await page.getByRole('button', { name: 'Bruk giro / eFaktura' }).click();
  await expect(current).toContainText('Giro / eFaktura');
});

test('a card the provider cannot find gives `Finner ikke kortdetaljer`', async ({ page }) => {
  await signIn(page, 'student@minside.test', '/endre-betalingsmetode');
  await page.getByRole('link', { name: 'Bytt betalingskort' }).click();
  await expect(page).toHaveURL(adresseavisen('/legg-til-betalingskort'));
  await page.getByRole('button', { name: 'Legg til betalingskort' }).click();
  await page.getByLabel('Testkort').selectOption('missing');
  await atProvider(page, 'Godkjenn', /\/legg-til-betalingskort\/verify\?paymentId=/);
  await expect(page.getByText('Finner ikke kortdetaljer', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Prøv igjen' })).toBeVisible();
  expect(await paymentKeys(page)).toBeNull();
});

test('varden adds a discount code for the next invoices; unknown and expired codes are refused', async ({ page }) => {
  await page.goto(varden('/fakturaoversikt'));
  await signInAtProvider(page, 'varden@minside.test');
  await expect(page).toHaveURL(varden('/fakturaoversikt'));
  const panel = page.getByRole('region', { name: 'Rabatt' });
  const field = panel.getByRole('textbox', { name: 'Rabattkode' });
  await panel.getByRole('button', { name: 'Bruk koden' }).click();
  await expect(field).toHaveAccessibleDescription(/Rabattkode er påkrevd/);
  await field.fill('SOMMER2020');
  await panel.getByRole('button', { name: 'Bruk koden' }).click();
  await expect(panel.getByRole('alert')).toHaveText('Rabattkoden er ugyldig eller utløpt.');
  await field.fill('velkommen20');
  await panel.getByRole('button', { name: 'Bruk koden' }).click();
  await expect(panel.getByRole('status')).toHaveText('Rabattkoden er registrert. 20 % rabatt på de tre neste fakturaene (kode VELKOMMEN20). Gjelder 3 fakturaer til.');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Rabatt' })).toContainText('20 % rabatt på de tre neste fakturaene (kode VELKOMMEN20). Gjelder 3 fakturaer til.');
  await expect(page.getByRole('region', { name: 'Rabatt' }).getByRole('textbox')).toHaveCount(0);
});

test('a failed payment-method fetch says so in the words of SPEC §8', async ({ page }) => {
  await signIn(page, 'familie@minside.test', '/');
  // The network fails on the way to the server (the server itself is not replaced).
  await page.route('**/api/subscription/*/*/paymentMethod', (route) => route.abort('failed'));
  await page.goto(adresseavisen('/endre-betalingsmetode'));
  await expect(page.getByRole('alert')).toHaveText('Det oppstod en feil ved henting av betalingsmetode.');
});

for (const width of [375, 1280]) {
  test(`the billing pages have no serious accessibility violations at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, 'familie@minside.test', '/fakturaoversikt');
    const [paid] = await invoicesOf(page);
    for (const path of ['/fakturaoversikt', `/betal-faktura/${paid?.ariaInvoiceNo ?? 0}`, '/endre-betalingsmetode', '/legg-til-betalingskort']) {
      await page.goto(adresseavisen(path));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /Henter|Sjekker/ })).toHaveCount(0);
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      expect(serious, `${path}: ${serious.map((violation) => violation.id).join(', ')}`).toEqual([]);
    }
  });
}
