import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../fixtures.ts';
import { adresseavisen, apiCall, errorSummary, operatorCall, signInAtProvider, varden } from './support.ts';

// Issue 6 "Invoices and payments" and issue 22 "Vipps MobilePay", through the real UI and API.
// The server pays as `npm start` does: the real Vipps MobilePay adapter against the simulator
// embedded in the server, whose landing page (Godkjenn / Avvis / La utløpe) stands in for the
// Vipps app and the card form. The specs share one seeded server, so each journey that changes
// something uses a persona no other spec changes that way: varden's overdue giro invoice is paid
// only here (the attempts that leave it unpaid first, in one test so the order is fixed), while
// papir's unpaid invoice, which the bank draws with AvtaleGiro, is never offered for payment;
// student (a card kept by the old test provider) switches to a Vipps agreement; ung stops the
// seeded Vipps agreement; varden adds the only discount. admin@'s unpaid invoice is paid by card,
// with the keyboard alone, in keyboard.spec.ts.

interface InvoiceBody {
  ariaInvoiceNo: number;
  kid: string;
  amountOre: number;
  dueOn: string;
  status: 'PAID' | 'UNPAID' | 'OVERDUE';
  collection: string;
  scheduledDrawOn: string | null;
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

async function invoicesOf(page: Page, titleCode = 'ADR'): Promise<InvoiceBody[]> {
  const session = (await apiCall(page, `/api/session?titleCode=${titleCode}`)).body as { subscription: { ariaAccountNo: number } };
  const response = await apiCall(page, `/api/invoice/${session.subscription.ariaAccountNo}`);
  expect(response.status).toBe(200);
  return (response.body as { invoices: InvoiceBody[] }).invoices;
}

type LandingButton = 'Godkjenn' | 'Avvis' | 'La utløpe';

/**
 * On the Vipps MobilePay simulator's landing page (what the payer sees instead of the Vipps app
 * or the card form): press one of its buttons, and land back on the portal at `returnPath`.
 */
async function atVippsMobilePay(page: Page, button: LandingButton, returnPath: RegExp): Promise<void> {
  await expect(page).toHaveURL(/\/simulator\/landing\?(reference|agreementId)=/);
  await expect(page.getByText('Dette er en simulator')).toBeVisible();
  await page.getByRole('button', { name: button, exact: true }).click();
  await expect(page).toHaveURL(returnPath);
}

/**
 * Clicks `submit` and holds the browser on the portal when it is sent to the landing page (a
 * 204 answer ends a navigation without leaving the page): what the page shows and keeps while it
 * sends the payer away can then be read. Returns the landing page's address, to go on with.
 */
async function heldOnTheWayToVipps(page: Page, submit: () => Promise<void>): Promise<string> {
  let landing: string | undefined;
  await page.route('**/simulator/landing?**', (route) => {
    landing = route.request().url();
    return route.fulfill({ status: 204 });
  });
  await submit();
  await expect.poll(() => landing).toBeDefined();
  await page.unroute('**/simulator/landing?**');
  return landing ?? '';
}

/** The first-visit consent dialog (privacy area) may cover the page: decline and go on. */
async function declineConsentWhenAsked(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Personverninnstillinger' });
  // The page may be on its way to the identity provider already: then there is nothing to decline.
  await page.addLocatorHandler(dialog, async () => {
    await dialog
      .getByRole('button', { name: 'Avslå alle' })
      .click({ timeout: 2_000 })
      .catch(() => {});
  });
}

test.beforeEach(async ({ page }) => {
  await declineConsentWhenAsked(page);
});

const paymentKeys = (page: Page) => page.evaluate((key) => window.sessionStorage.getItem(key), PAYMENT_KEYS);

test('papir: the invoice the bank draws with AvtaleGiro is coming, not overdue — no alarm, no Betal nå (issue 25.6)', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/fakturaoversikt');
  const coming = (await invoicesOf(page)).find((invoice) => invoice.status !== 'PAID');
  if (!coming) throw new Error('papir has no unpaid invoice in the seed');
  // The server says how it is paid, so the page does not guess: the bank draws it on its due date.
  expect(coming).toMatchObject({ status: 'UNPAID', collection: 'AVTALEGIRO_SCHEDULED', scheduledDrawOn: coming.dueOn });
  const day = new Intl.DateTimeFormat('nb-NO', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${coming.dueOn}T12:00:00Z`));
  const no = String(coming.ariaInvoiceNo);

  // The top says what happens, calmly: no alarm, nothing to pay.
  const summary = page.getByRole('region', { name: `Kommende – trekkes automatisk ${day}` });
  await expect(summary).toContainText('du trenger ikke gjøre noe');
  await expect(summary).toContainText('649 kr');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText(/ikke betalt|har forfalt/i)).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Betal/ })).toHaveCount(0);

  // Grouped: Kommende, then Betalt; nothing is Forfalt.
  await expect(page.getByRole('region', { name: 'Kommende (1)' })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Betalt \(\d+\)$/ })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Forfalt/ })).toHaveCount(0);
  const row = page
    .getByRole('region', { name: 'Kommende (1)' })
    .getByRole('row')
    .filter({ hasText: `Fakturanr. ${no}` });
  await expect(row).toContainText('Kommende');
  await expect(row).toContainText(`Trekkes automatisk ${day}`);
  await expect(row.getByRole('link', { name: `Betal faktura ${no}` })).toHaveCount(0);

  // The same on a phone, as a card.
  await page.setViewportSize({ width: 375, height: 800 });
  const card = page.getByRole('region', { name: 'Kommende (1)' }).getByRole('article');
  await expect(card).toContainText(`Trekkes automatisk ${day}`);
  await expect(card.getByRole('link', { name: /^Betal/ })).toHaveCount(0);
});

test('varden: the overdue giro invoice has a valid KID; Avvis by pay-link, La utløpe and Avvis at the card form leave it unpaid; Godkjenn in Vipps pays it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, 'varden@minside.test', '/fakturaoversikt', varden);
  const unpaid = (await invoicesOf(page, 'VAR')).find((invoice) => invoice.status !== 'PAID');
  if (!unpaid) throw new Error('varden has no unpaid invoice: has another spec paid it?');
  // Giro: the payer's to pay, and past its due date.
  expect(unpaid).toMatchObject({ status: 'OVERDUE', collection: 'OVERDUE' });
  const no = String(unpaid.ariaInvoiceNo);
  const returned = new RegExp(`/betal-faktura/${no}\\?paymentId=`);
  const amountAtVipps = /^Betal 1\s899,00\skr$/;
  const payWithVipps = /^Betal 1\s899\skr med Vipps$/;

  // Listed first, under Forfalt, with the KID a bank accepts (MOD10), the amount in whole kroner.
  const overdue = page.getByRole('region', { name: 'Forfalt (1)' });
  const rows = overdue.getByRole('table').getByRole('row');
  await expect(rows.nth(1)).toContainText(`Fakturanr. ${no}`);
  const row = rows.filter({ hasText: `Fakturanr. ${no}` });
  await expect(row).toContainText('Forfalt');
  await expect(row).toContainText(/1\s899\skr/);
  const shownKid = /KID\s+(\d+)/.exec(await row.innerText())?.[1] ?? '';
  expect(shownKid).toBe(unpaid.kid);
  expect(hasValidMod10(shownKid)).toBe(true);
  await expect(row.getByRole('link', { name: `PDF av faktura ${no} (åpnes i ny fane)` })).toHaveAttribute('href', new RegExp(`/api/invoice/\\d+/${no}/pdf$`));
  // The link gives the invoice as issued: a PDF, the same bytes twice (issue 23).
  const pdfHref = (await row.getByRole('link', { name: `PDF av faktura ${no} (åpnes i ny fane)` }).getAttribute('href')) ?? '';
  // Fetched by the page itself (its cookie, its host), twice, compared byte for byte.
  const pdf = await page.evaluate(async (href) => {
    const [first, second] = [await fetch(href), await fetch(href)];
    const [a, b] = [new Uint8Array(await first.arrayBuffer()), new Uint8Array(await second.arrayBuffer())];
    return { type: first.headers.get('content-type'), head: String.fromCharCode(...a.slice(0, 5)), size: a.length, same: a.length === b.length && a.every((byte, index) => byte === b[index]) };
  }, pdfHref);
  expect(pdf).toMatchObject({ type: 'application/pdf', head: '%PDF-', same: true });
  expect(pdf.size).toBeGreaterThan(10_000);
  await expect(page.getByRole('heading', { name: 'Du har 1 faktura som har forfalt' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Betal 1\s899\skr nå$/ })).toBeVisible();

  // A pay-link (as the customer centre sends by SMS) opens without signing in; Avvis in Vipps there changes nothing.
  const link = await operatorCall('/api/operator/paylink', { ariaInvoiceNo: unpaid.ariaInvoiceNo });
  expect(link.status).toBe(200);
  const anonymous = await browser.newContext();
  const payer = await anonymous.newPage();
  await declineConsentWhenAsked(payer);
  await payer.goto(varden((link.body as { path: string }).path));
  await expect(payer.getByRole('heading', { level: 1, name: 'Betaling' })).toBeVisible();
  await expect(payer.getByRole('region', { name: /Papir \+ digital/ })).toContainText(unpaid.kid);
  await expect(
    payer
      .getByRole('button', { name: 'Logg inn' })
      .or(payer.getByRole('link', { name: 'Logg inn' }))
      .first(),
  ).toBeVisible();
  await payer.getByRole('button', { name: payWithVipps }).click();
  // In Vipps: the amount and what it is for, as the merchant sent them.
  await expect(payer.getByRole('heading', { level: 1, name: amountAtVipps })).toBeVisible();
  await expect(payer.getByText(`Faktura ${no} – Varden`)).toBeVisible();
  await atVippsMobilePay(payer, 'Avvis', /\/betaling\?token=.+&paymentId=/);
  await expect(payer.getByRole('heading', { name: 'Betalingen ble avbrutt' })).toBeFocused();
  await expect(payer.getByText('Betalingen ble avbrutt. Fakturaen er ikke betalt.')).toBeVisible();
  await expect(payer.getByRole('button', { name: 'Prøv igjen' })).toBeVisible();
  expect(await paymentKeys(payer)).toBeNull();

  // Signed in: Betal → Vipps → La utløpe (never answered in the app): a clear message, and a retry.
  await row.getByRole('link', { name: `Betal faktura ${no}` }).click();
  await expect(page).toHaveURL(varden(`/betal-faktura/${no}`));
  await expect(page.getByRole('region', { name: /Papir \+ digital/ })).toContainText('Forfalt');
  await expect(page.getByRole('radio', { name: /Vipps/ })).toBeChecked();
  await page.getByRole('button', { name: payWithVipps }).click();
  await atVippsMobilePay(page, 'La utløpe', returned);
  await expect(page.getByRole('heading', { name: 'Betalingen gikk ikke gjennom' })).toBeFocused();
  await expect(page.getByText('Betalingen tok for lang tid og ble avbrutt. Prøv igjen.')).toBeVisible();
  await expect(page.getByRole('region', { name: /Papir \+ digital/ })).toContainText('Forfalt');
  expect(await paymentKeys(page)).toBeNull();

  // Card: the page says it is sending the payer on, and keeps the SPEC §3 temporary keys in
  // sessionStorage meanwhile, nothing of a card; the card form is the provider's.
  await page.getByRole('button', { name: 'Prøv igjen' }).click();
  await expect(page).toHaveURL(varden(`/betal-faktura/${no}`));
  await page.getByRole('radio', { name: /Betalingskort/ }).check();
  const cardForm = await heldOnTheWayToVipps(page, () => page.getByRole('button', { name: /^Betal 1\s899\skr med kort$/ }).click());
  await expect(page.getByRole('button', { name: 'Sender deg til betalingstjenesten …' })).toBeDisabled();
  const kept = JSON.parse((await paymentKeys(page)) ?? '{}') as Record<string, unknown>;
  expect(kept).toMatchObject({ paymentMethodId: 'SWEDBANK-PPG', invoiceDueAmount: unpaid.amountOre, invoiceNo: no, source: 'payInvoice' });
  expect(Object.keys(kept).sort()).toEqual(['agreementId', 'invoiceDueAmount', 'invoiceNo', 'paymentMethodId', 'source']);
  await page.goto(cardForm);
  await expect(page.getByRole('heading', { level: 1, name: amountAtVipps })).toBeVisible();
  await expect(page.getByText('Testkort (Visa)')).toBeVisible();
  // Avvis at the card form: cancelled, still unpaid, said plainly, with a retry.
  await atVippsMobilePay(page, 'Avvis', returned);
  await expect(page.getByRole('heading', { name: 'Betalingen ble avbrutt' })).toBeFocused();
  await expect(page.getByText('Betalingen ble avbrutt. Fakturaen er ikke betalt.')).toBeVisible();
  await expect(page.getByRole('region', { name: /Papir \+ digital/ })).toContainText('Forfalt');
  expect(await paymentKeys(page)).toBeNull();
  expect((await invoicesOf(page, 'VAR')).find((invoice) => invoice.ariaInvoiceNo === unpaid.ariaInvoiceNo)?.status).not.toBe('PAID');

  // Retry with Vipps → Godkjenn: a receipt, then Betalt in the overview.
  await page.getByRole('button', { name: 'Prøv igjen' }).click();
  await page.getByRole('radio', { name: /Vipps/ }).check();
  await page.getByRole('button', { name: payWithVipps }).click();
  await atVippsMobilePay(page, 'Godkjenn', returned);
  const receipt = page.getByRole('region', { name: 'Kvittering' });
  await expect(receipt).toContainText('Betalingen er gjennomført. Takk!');
  await expect(receipt).toContainText(/1\s899\skr/);
  await expect(receipt.getByRole('definition').filter({ hasText: /^Vipps$/ })).toBeVisible();
  await expect(receipt).toContainText(unpaid.kid);
  // A short reference to give customer service, not the payment's UUID; the time as "kl. 13.40" (issue 25.13).
  const paymentId = new URL(page.url()).searchParams.get('paymentId') ?? '';
  expect(paymentId).toMatch(/^[0-9a-f-]{36}$/);
  await expect(receipt.getByRole('definition').filter({ hasText: /^BET-[0-9A-Z]{4}-[0-9A-Z]{4}$/ })).toBeVisible();
  await expect(receipt).not.toContainText(paymentId);
  await expect(receipt.getByRole('definition').filter({ hasText: /^\d{2}\.\d{2}\.\d{4} kl\. \d{2}\.\d{2}$/ })).toBeVisible();
  expect(await paymentKeys(page)).toBeNull();
  await receipt.getByRole('link', { name: 'Til fakturaoversikten' }).click();
  const paidRow = page
    .getByRole('region', { name: /^Betalt \(\d+\)$/ })
    .getByRole('row')
    .filter({ hasText: `Fakturanr. ${no}` });
  await expect(paidRow).toContainText(/Betalt .* med Vipps/);
  await expect(page.getByRole('region', { name: /^Forfalt/ })).toHaveCount(0);
  await expect(paidRow).not.toContainText('Ikke betalt');
  await expect(paidRow.getByRole('link', { name: /Betal faktura/ })).toHaveCount(0);
  await expect(page.getByText('Alle fakturaene dine er betalt.')).toBeVisible();

  // Paying it again is refused: on the page and through the pay-link.
  await page.goto(varden(`/betal-faktura/${no}`));
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

test('student on a stored card: no card can be stored any more; Avvis in Vipps changes nothing; Godkjenn makes the Vipps agreement the method', async ({ page }) => {
  test.setTimeout(90_000);
  // An old bookmark to the card page: the card cannot be stored, and the page says where to go instead.
  await signIn(page, 'student@minside.test', '/legg-til-betalingskort');
  const current = page.getByRole('region', { name: 'Nåværende betalingsmetode' });
  await expect(current).toContainText('Betalingskort');
  await expect(current).toContainText('Visa **** **** **** 4242');
  // The card the earlier provider kept is not drawn any more, and the page says what happens instead.
  await expect(current).toContainText('Vi kan ikke lenger trekke fra dette kortet. Fakturaene kommer på e-post');
  await expect(page.getByRole('heading', { name: 'Betalingskort kan ikke lagres her' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Legg til betalingskort' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Velg betalingsmetode' }).click();

  // Vipps, AvtaleGiro or giro: no card to choose, none to replace.
  await expect(page).toHaveURL(adresseavisen('/endre-betalingsmetode'));
  const choices = page.getByRole('group', { name: 'Velg ny betalingsmetode' }).getByRole('radio');
  await expect(choices).toHaveCount(3);
  await expect(page.getByRole('radio', { name: /^Vipps/ })).toBeEnabled();
  await expect(page.getByRole('radio', { name: /^AvtaleGiro/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: /^Giro \/ eFaktura/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Betalingskort/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Bytt betalingskort' })).toHaveCount(0);

  // Vipps: the agreement is shown in Vipps with the plan and its price; Avvis there changes nothing.
  await page.getByRole('radio', { name: /^Vipps/ }).check();
  await page.getByRole('button', { name: 'Gå videre til Vipps' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Student digital' })).toBeVisible();
  await expect(page.getByText(/^Inntil 198,00\skr hver måned$/)).toBeVisible();
  await expect(page.getByText('Vipps (fast betaling)')).toBeVisible();
  // A change of method charges nothing now: the agreement has no first charge.
  await expect(page.getByRole('term').filter({ hasText: 'Trekkes nå' })).toHaveCount(0);
  await atVippsMobilePay(page, 'Avvis', /\/endre-betalingsmetode\/verify\?paymentId=/);
  await expect(page.getByRole('heading', { name: 'Endringen ble avbrutt' })).toBeFocused();
  await expect(page.getByRole('alert')).toHaveText('Endringen ble avbrutt. Betalingsmetoden er ikke endret.');
  expect(await paymentKeys(page)).toBeNull();
  await page.getByRole('link', { name: 'Prøv igjen' }).click();
  await expect(page).toHaveURL(adresseavisen('/endre-betalingsmetode'));
  await expect(current).toContainText('Betalingskort');

  // Again, and Godkjenn: the change is confirmed, and the home page shows Vipps.
  await page.getByRole('radio', { name: /^Vipps/ }).check();
  await page.getByRole('button', { name: 'Gå videre til Vipps' }).click();
  await atVippsMobilePay(page, 'Godkjenn', /\/endre-betalingsmetode\/verify\?paymentId=/);
  await expect(page.getByRole('heading', { name: 'Betalingsmetoden er endret' })).toBeFocused();
  expect(await paymentKeys(page)).toBeNull();
  await page.getByRole('link', { name: 'Til Min Side' }).click();
  await expect(page).toHaveURL(adresseavisen('/'));
  const summary = page.getByRole('region', { name: 'Student digital' });
  await expect(summary).toContainText('BetalingsmåteVipps');
  // Also what the server says, after a fresh load.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Student digital' })).toContainText('BetalingsmåteVipps');
  await page.goto(adresseavisen('/endre-betalingsmetode'));
  await expect(current).toContainText('Fast betaling med Vipps');
  await expect(current).not.toContainText('Betalingskort');
  await expect(page.getByRole('radio', { name: /Vipps \(den du har nå\)/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Stopp Vipps-avtalen' })).toBeVisible();
});

test('ung stops the Vipps agreement: asked once more, kept the first time; stopped, it is giro from then on', async ({ page }) => {
  await signIn(page, 'ung@minside.test', '/endre-betalingsmetode');
  const current = page.getByRole('region', { name: 'Nåværende betalingsmetode' });
  await expect(current).toContainText('Vipps');
  await expect(current).toContainText('Fast betaling med Vipps fra +47 ••• •• 789');
  await expect(page.getByRole('radio', { name: /Vipps \(den du har nå\)/ })).toBeDisabled();
  await expect(page.getByRole('radio', { name: /Betalingskort/ })).toHaveCount(0);

  // The first time ung changes their mind: nothing is stopped.
  const confirm = page.getByRole('region', { name: 'Stoppe Vipps-avtalen?' });
  await page.getByRole('button', { name: 'Stopp Vipps-avtalen' }).click();
  await expect(confirm).toContainText('avtalen stoppes i Vipps-appen');
  await confirm.getByRole('button', { name: 'Behold avtalen' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(current).toContainText('Fast betaling med Vipps fra +47 ••• •• 789');

  // Then for real: stopped at Vipps too, and the invoices come as giro.
  await page.getByRole('button', { name: 'Stopp Vipps-avtalen' }).click();
  await confirm.getByRole('button', { name: 'Ja, stopp avtalen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Vipps-avtalen er stoppet' })).toHaveText('Vipps-avtalen er stoppet, også i Vipps. Fakturaene kommer nå som giro med KID på e-post.');
  await expect(confirm).toHaveCount(0);
  await expect(current).toContainText('Giro / eFaktura');
  await expect(current).not.toContainText('Fast betaling med Vipps');
  await expect(page.getByRole('button', { name: 'Stopp Vipps-avtalen' })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: /Giro \/ eFaktura \(den du har nå\)/ })).toBeDisabled();
  await expect(page.getByRole('radio', { name: /^Vipps(?! \(den du har nå\))/ })).toBeEnabled();

  await page.goto(adresseavisen('/'));
  await expect(page.getByRole('region', { name: 'Ung digital' })).toContainText('BetalingsmåteFaktura');
  await page.goto(adresseavisen('/endre-betalingsmetode'));
  await expect(current).toContainText('Giro / eFaktura');
});

test('AvtaleGiro is finished in the netbank: the title, the KID and the steps, waiting for the bank until it confirms', async ({ page }) => {
  await signIn(page, 'varden@minside.test', '/endre-betalingsmetode', varden);
  // varden pays by giro; a retry after a failure half-way starts from there again.
  const reset = await apiCall(page, '/api/subscription/paymentMethod', {
    method: 'PUT',
    json: { ariaAccountNo: 40_000_013, titleCode: 'VAR', method: 'BANKGIRO', idempotencyKey: crypto.randomUUID() },
  });
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
  // The refusal is about the code: said at the field, through the summary that takes the focus.
  await expect(errorSummary(panel)).toBeFocused();
  await expect(errorSummary(panel).getByRole('link')).toHaveText(['Rabattkoden er ugyldig eller utløpt.']);
  await expect(field).toHaveAccessibleDescription(/Rabattkoden er ugyldig eller utløpt\./);
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
