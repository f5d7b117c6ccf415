import { expect, test, type Page } from '../fixtures.ts';
import { adresseavisen, apiCall, errorSummary, signInAtProvider, varden } from './support.ts';

// Issue 4 "My subscription", per demo persona (README "Demo users"): the home page, the
// cancellation with survey and retention offer, undo, reactivation and plan change, through
// the real UI and API.

const months = ['januar', 'februar', 'mars', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'desember'];
/** "2026-03-05" → "5. mars 2026", as the portal writes dates. */
function longDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day}. ${months[(month ?? 1) - 1]} ${year}`;
}
/** The last day with access: the day before the stored renewal day (issue 25.2, packages/domain paid-period.ts). */
function lastDay(renewalDay: string): string {
  const date = new Date(`${renewalDay}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return longDate(date.toISOString().slice(0, 10));
}

interface SessionBody {
  subscription: { instStatusCode: number; currentPeriodEnd: string; cancelledAt: string | null; ariaAccountNo: number; pendingChange: { planName: string; on: string } | null; ariaPlanID: string };
}

async function session(page: Page, titleCode = 'ADR'): Promise<SessionBody> {
  const response = await apiCall(page, `/api/session?titleCode=${titleCode}`);
  expect(response.status).toBe(200);
  return response.body as SessionBody;
}

async function signIn(page: Page, email: string, path = '/'): Promise<void> {
  await page.goto(adresseavisen(path));
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(adresseavisen(path));
}

test('papir sees paper + digital, the monthly price and AvtaleGiro, and shortcuts for paper', async ({ page }) => {
  await signIn(page, 'papir@minside.test');
  const summary = page.getByRole('region', { name: 'Komplett', exact: true });
  await expect(summary).toContainText('Papiravis og digital');
  await expect(summary.getByText('Månedlig', { exact: true })).toBeVisible();
  await expect(summary.getByText('649 kr per måned')).toBeVisible();
  await expect(summary.getByText('AvtaleGiro')).toBeVisible();
  await expect(summary.getByText('Aktivt')).toBeVisible();
  await expect(summary.getByRole('listitem').filter({ has: page.getByText('Papiravisen', { exact: true }) })).toContainText('Papiravisen: inkludert.');
  const { subscription } = await session(page);
  await expect(summary).toContainText(`Neste fornyelse${longDate(subscription.currentPeriodEnd)}`);

  const shortcuts = page.getByRole('region', { name: 'Snarveier' });
  for (const name of ['Leveringsadresse', 'Ferie og leveringsendring', 'Familiedeling', 'Endre abonnement', 'Si opp abonnementet']) {
    await expect(shortcuts.getByRole('link', { name: new RegExp(name) })).toBeVisible();
  }
  await expect(shortcuts.getByRole('link', { name: /Administrer bedrift/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Endringslogg' })).toContainText('Betalingsmåten ble endret til AvtaleGiro.');
});

test('a digital subscriber sees no paper shortcuts; a business admin gets the administration', async ({ page }) => {
  await signIn(page, 'admin@firma.test');
  const shortcuts = page.getByRole('region', { name: 'Snarveier' });
  await expect(shortcuts.getByRole('link', { name: /Administrer bedrift/ })).toBeVisible();
  await expect(shortcuts.getByRole('link', { name: /Leveringsadresse/ })).toHaveCount(0);
  await expect(shortcuts.getByRole('link', { name: /Si opp/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Bedrift digital' })).toContainText('du er administrator');
});

test('oppsagt sees the running-until date and undoes the cancellation', async ({ page }) => {
  await signIn(page, 'oppsagt@minside.test');
  const { subscription } = await session(page);
  expect(subscription.instStatusCode).toBe(2);
  const end = lastDay(subscription.currentPeriodEnd);
  await expect(page.getByRole('heading', { level: 2, name: `Abonnementet er sagt opp og løper ut ${end}` })).toBeVisible();

  await page.getByRole('link', { name: 'Angre oppsigelse' }).click();
  await expect(page).toHaveURL(adresseavisen('/angre-oppsigelse'));
  await page.getByRole('button', { name: 'Angre oppsigelsen' }).click();
  await expect(page.getByRole('status')).toContainText(`Oppsigelsen er angret. Digital fortsetter som før, og neste fornyelse er ${longDate(subscription.currentPeriodEnd)}.`);

  const after = await session(page);
  expect(after.subscription).toMatchObject({ instStatusCode: 1, cancelledAt: null });
  await page.getByRole('link', { name: 'Til Min Side' }).click();
  await expect(page.getByRole('region', { name: 'Digital', exact: true }).getByText('Aktivt')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Endringslogg' })).toContainText('Oppsigelsen ble angret.');
});

test('utlopt is offered to start again, and does', async ({ page }) => {
  await signIn(page, 'utlopt@minside.test');
  await expect(page.getByRole('region', { name: 'Digital', exact: true }).getByText('Utløpt')).toBeVisible();
  await page.getByRole('button', { name: 'Start abonnementet igjen' }).click();
  await expect(page).toHaveURL(adresseavisen('/abonnement-reaktivert'));
  await expect(page.getByRole('status')).toHaveText('Digital er i gang igjen. Du har tilgang til alt med en gang.');
  const { subscription } = await session(page);
  expect(subscription.instStatusCode).toBe(1);
  await expect(page.getByText(longDate(subscription.currentPeriodEnd))).toBeVisible();
});

test('digital cancels through the survey and the offer; the home page shows the new state', async ({ page }) => {
  await signIn(page, 'digital@minside.test');
  await page.getByRole('link', { name: /Si opp abonnementet/ }).click();
  await expect(page).toHaveURL(adresseavisen('/avslutt-abonnement'));

  // The survey insists on a reason, and on words for "Annet".
  await page.getByRole('button', { name: 'Neste' }).click();
  await expect(errorSummary(page)).toBeFocused();
  await expect(errorSummary(page).getByRole('link')).toHaveText(['Årsak er påkrevd']);
  await page.getByLabel('Annet').check();
  await page.getByRole('button', { name: 'Neste' }).click();
  await expect(errorSummary(page)).toBeFocused();
  await expect(errorSummary(page).getByRole('link')).toHaveText(['Beskrivelse er påkrevd']);
  await page.getByLabel('Det er for dyrt').check();
  await page.getByRole('button', { name: 'Neste' }).click();

  await expect(page.getByRole('heading', { name: '3 måneder for prisen av 1' })).toBeVisible();
  await page.getByRole('button', { name: 'Nei takk, fortsett oppsigelsen' }).click();
  await expect(page.getByRole('heading', { name: 'Bekreft oppsigelsen' })).toBeFocused();
  await page.getByRole('button', { name: 'Bekreft oppsigelse' }).click();

  await expect(page).toHaveURL(adresseavisen('/abonnement-avsluttet'));
  const { subscription } = await session(page);
  expect(subscription.instStatusCode).toBe(2);
  const end = lastDay(subscription.currentPeriodEnd);
  await expect(page.getByRole('status')).toContainText(`Du har tilgang som før til og med ${end}`);

  await page.getByRole('link', { name: 'Til Min Side' }).click();
  await expect(page.getByRole('region', { name: 'Digital', exact: true }).getByText('Sagt opp')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: `Abonnementet er sagt opp og løper ut ${end}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Endringslogg' })).toContainText('Årsak: Det er for dyrt.');
});

test('student takes the retention offer instead of cancelling', async ({ page }) => {
  await signIn(page, 'student@minside.test', '/avslutt-abonnement');
  const before = await session(page);
  await page.getByLabel('Jeg skal flytte').check();
  await page.getByRole('button', { name: 'Neste' }).click();
  await page.getByRole('button', { name: 'Ja takk, jeg tar tilbudet' }).click();
  await expect(page).toHaveURL(adresseavisen('/'));
  await expect(page.getByRole('status')).toContainText('Tilbudet «3 måneder for prisen av 1» er registrert.');
  const after = await session(page);
  expect(after.subscription.instStatusCode).toBe(1);
  expect(after.subscription.currentPeriodEnd > before.subscription.currentPeriodEnd).toBe(true);
  await expect(page.getByRole('region', { name: 'Student digital' })).toContainText(longDate(after.subscription.currentPeriodEnd));
});

test('ny, without a subscription, is shown how to get one', async ({ page }) => {
  await page.goto(adresseavisen('/'));
  await signInAtProvider(page, 'ny@minside.test');
  await expect(page).toHaveURL(adresseavisen('/ingen-abonnement'));
  await expect(page.getByRole('heading', { level: 1, name: 'Ingen abonnement' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Se tilbud og bestill' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Koble til abonnement/ })).toBeVisible();
});

test('familie upgrades to Komplett at once, pays the prorated difference and gets a receipt', async ({ page }) => {
  await signIn(page, 'familie@minside.test', '/endre-abonnement');
  const komplett = page.getByRole('group', { name: 'Komplett' });
  await komplett.getByRole('radio', { name: /Månedlig/ }).check();
  await expect(page.getByText(/Du har valgt Komplett, månedlig\. Gjelder fra i dag\. Du betaler \d+\skr for de \d+ dagene som er igjen av perioden\./)).toBeVisible();
  await page.getByRole('button', { name: 'Bekreft bytte' }).click();

  await expect(page).toHaveURL(adresseavisen('/receipt2'));
  await expect(page.getByText('Du har byttet til Komplett')).toBeVisible();
  const receipt = page.getByRole('region', { name: 'Kvittering' });
  await expect(receipt).toContainText('FraDigital Familie');
  await expect(receipt).toContainText(/Mellomlegg \(på neste faktura\)\d+\skr/);
  const { subscription } = await session(page);
  expect(subscription.ariaPlanID).toBe('ADR-KOMPLETT-M');

  await page.getByRole('link', { name: 'Til Min Side' }).click();
  await expect(page.getByRole('region', { name: 'Komplett', exact: true })).toContainText('649 kr per måned');
  await expect(page.getByRole('region', { name: 'Endringslogg' })).toContainText('Byttet fra Digital Familie til Komplett (månedlig).');
});

/** The announced price change of a plan, from the public price list (/nye-priser's call). */
async function announcedPrice(page: Page, titleCode: string, ariaPlanID: string): Promise<{ priceOre: number; from: string } | null> {
  const { plans } = (await apiCall(page, `/api/plans/${titleCode}`)).body as { plans: { ariaPlanID: string; nextPrice: { priceOre: number; from: string } | null }[] };
  return plans.find((plan) => plan.ariaPlanID === ariaPlanID)?.nextPrice ?? null;
}

test('papir, choosing Digital, is told what the change takes away, from the catalogue, and the price with the announced increase', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/endre-abonnement');
  const { subscription } = await session(page);
  await page
    .getByRole('group', { name: 'Digital', exact: true })
    .getByRole('radio', { name: /Månedlig/ })
    .check();
  const losses = page.getByRole('region', { name: 'Dette mister du' });
  await expect(losses).toContainText(`Fra ${longDate(subscription.currentPeriodEnd)} har Digital ikke dette, som du har i Komplett i dag:`);
  // What Komplett has and Digital has not (paper, family sharing, the partner benefit) — not what both have.
  await expect(losses.getByRole('listitem')).toHaveText([
    'Papiravisen – Avisen leveres ikke lenger på døra.',
    'Familiedeling – Du kan ikke lenger dele den digitale tilgangen med dem du bor sammen med.',
    'Partnerfordel – Strømmetjenesten fra partneren vår følger ikke lenger med.',
  ]);
  const announced = await announcedPrice(page, 'ADR', 'ADR-DIGITAL-M');
  expect(announced?.from && announced.from > subscription.currentPeriodEnd).toBe(true);
  await expect(page.getByText(new RegExp(`^Pris: 299\\skr per måned, 329\\skr fra ${longDate(announced?.from ?? '')}\\.$`))).toBeVisible();
  // An upgrade back to what papir has takes nothing away: no box.
  await page
    .getByRole('group', { name: 'Komplett' })
    .getByRole('radio', { name: /Kvartalsvis/ })
    .check();
  await expect(losses).toHaveCount(0);
});

test('varden downgrades from the period end: shown as a pending plan change on a date', async ({ page }) => {
  await page.goto(varden('/endre-abonnement'));
  await signInAtProvider(page, 'varden@minside.test');
  await expect(page).toHaveURL(varden('/endre-abonnement'));
  const { subscription: before } = await session(page, 'VAR');
  await page
    .getByRole('group', { name: 'Digital', exact: true })
    .getByRole('radio', { name: /Månedlig/ })
    .check();
  await expect(page.getByRole('region', { name: 'Dette mister du' })).toContainText('Papiravisen');
  await page.getByRole('button', { name: 'Bekreft bytte' }).click();
  await expect(page).toHaveURL(varden('/receipt2'));
  await expect(page.getByText('Byttet til Digital er bestilt')).toBeVisible();
  // Issue 25.3: the receipt's price is the one from the day the change applies, with an announced change still to come.
  const announced = await announcedPrice(page, 'VAR', 'VAR-DIGITAL-M');
  const price = announced && announced.from > before.currentPeriodEnd ? `299 kr per måned, 329 kr fra ${longDate(announced.from)}` : announced ? '329 kr per måned' : '299 kr per måned';
  await expect(page.getByRole('region', { name: 'Kvittering' })).toContainText(`Pris${price}`);
  await page.getByRole('link', { name: 'Til Min Side' }).click();
  await expect(page.getByRole('heading', { level: 2, name: `Du bytter til Digital ${longDate(before.currentPeriodEnd)}` })).toBeVisible();
  await expect(page.getByText('Endring bestilt')).toBeVisible();
});

test('Ung is closed to papir (58), with Digital offered instead; ung (25) may choose it', async ({ page, browser }) => {
  await signIn(page, 'papir@minside.test', '/endre-abonnement');
  const ung = page.getByRole('group', { name: 'Ung digital' });
  await expect(ung.getByRole('radio')).toBeDisabled();
  await expect(ung).toContainText('Ung er for deg under 34 år. Digital passer for deg i stedet.');
  await ung.getByRole('button', { name: 'Velg Digital i stedet' }).click();
  await expect(page.getByRole('group', { name: 'Digital', exact: true }).getByRole('radio', { name: /Månedlig/ })).toBeChecked();

  const context = await browser.newContext({ locale: 'nb-NO' });
  const young = await context.newPage();
  await signIn(young, 'ung@minside.test', '/endre-abonnement');
  await expect(young.getByRole('group', { name: 'Ung digital' }).getByRole('radio')).toBeEnabled();
  await expect(young.getByRole('group', { name: 'Ung digital' })).toContainText('Dette har du nå.');
  await context.close();
});

test('Digital Honnør (from 67) is closed to ung (25): shown with the reason, and the API refuses it', async ({ page }) => {
  await signIn(page, 'ung@minside.test', '/endre-abonnement');
  const honnor = page.getByRole('group', { name: 'Digital Honnør' });
  await expect(honnor).toContainText('199 kr per måned');
  await expect(honnor).toContainText('Digital Honnør gjelder for deg som er 67 år eller eldre.');
  await expect(honnor.getByRole('radio')).toBeDisabled();
  // The other plans stay open: the page is not blocked by one plan's age limit.
  await expect(page.getByRole('group', { name: 'Digital', exact: true }).getByRole('radio', { name: /Månedlig/ })).toBeEnabled();

  const { subscription: before } = await session(page);
  const refused = await apiCall(page, `/api/subscription/${before.ariaAccountNo}/ADR/plan`, { method: 'POST', json: { ariaPlanID: 'ADR-DIGITAL-HONNOR-M' } });
  expect(refused).toEqual({ status: 409, body: { code: 'PLAN_MINIMUM_AGE', message: 'Digital Honnør gjelder for deg som er 67 år eller eldre.' } });
  const { subscription: after } = await session(page);
  expect(after).toEqual(before);
});

test('/nye-priser shows old and new price and the date, to anyone', async ({ page }) => {
  await page.goto(adresseavisen('/nye-priser'));
  const table = page.getByRole('table', { name: 'Varslede prisendringer' });
  const digital = table.getByRole('row', { name: /Digital, månedlig/ });
  await expect(digital).toContainText('299 kr');
  await expect(digital).toContainText('329 kr');
  await expect(digital.getByRole('cell').last()).toHaveText(/^\d{1,2}\. \w+ \d{4}$/);
});

test('/mitt-innhold links to what the subscription gives, per feature set', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/mitt-innhold');
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText([
    'Adresseavisen på nett og i appen',
    'eAvisen',
    'Adresseavisen TV',
    'Papiravisen',
    'Familiedeling',
    'Partnerfordel',
  ]);
  await expect(page.getByRole('link', { name: 'Se video og TV' })).toHaveAttribute('href', /^https:\/\/(tv|play)\./);
  await page.getByRole('link', { name: 'Ferie og leveringsendring' }).click();
  await expect(page).toHaveURL(adresseavisen('/endre-avislevering'));
});
