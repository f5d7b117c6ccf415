import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../fixtures.ts';
import { adresseavisen, apiCall, errorSummary, operatorCall, signInAtProvider, varden } from './support.ts';

// Issue 5 "Paper delivery" as papir@minside.test (ADR, paper + digital) and
// digital@minside.test, through the real UI and API. The server runs on the real clock, so
// every date is taken from the portal's own publication calendar.

interface Calendar {
  today: string;
  nextPossibleDeliveryDay: string;
  publicationDays: string[];
}

interface ComplaintOptions {
  today: string;
  days: string[];
  reported: { day: string; code: string }[];
  notices: { day: string; message: string }[];
}

const weekdayDate = new Intl.DateTimeFormat('nb-NO', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const weekdayDayMonth = new Intl.DateTimeFormat('nb-NO', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
/** "tirsdag 1. desember 2026", as the delivery pages write dates. */
const longDate = (iso: string) => weekdayDate.format(new Date(`${iso}T00:00:00Z`));
const dayAndMonth = (iso: string) => weekdayDayMonth.format(new Date(`${iso}T00:00:00Z`));
/** "2026-12-01" → "01122026", typed into a date field's segments (dd.mm.åååå). */
const typed = (iso: string) => iso.split('-').reverse().join('');
const shown = (iso: string) => iso.split('-').reverse().join('.');

async function signIn(page: Page, email: string, path: string): Promise<void> {
  await page.goto(adresseavisen(path));
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(adresseavisen(path));
}

async function calendar(page: Page): Promise<Calendar> {
  const response = await apiCall(page, '/api/delivery/calendar?titleCode=ADR');
  expect(response.status).toBe(200);
  return response.body as Calendar;
}

/** Types a date into the React Aria date field labelled `label`. */
async function typeDate(page: Page, label: string, iso: string): Promise<void> {
  const day = page.getByRole('spinbutton', { name: `dag, ${label}` });
  await day.click();
  await page.keyboard.type(typed(iso));
  await expect(page.getByRole('group', { name: label, exact: true })).toContainText(shown(iso));
}

test('papir places, lists, changes and cancels a vacation stop next month', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/endre-avislevering');
  const { publicationDays, today } = await calendar(page);
  const [year, month] = today.split('-').map(Number);
  const nextMonth = `${month === 12 ? (year ?? 0) + 1 : year}-${String(month === 12 ? 1 : (month ?? 0) + 1).padStart(2, '0')}`;
  const days = publicationDays.filter((day) => day.startsWith(nextMonth));
  const [from, , , to, , changedTo] = days as [string, string, string, string, string, string];

  await expect(page.getByRole('radio', { name: /Stopp avisen/ })).toBeChecked();
  await typeDate(page, 'Fra og med', from);
  await typeDate(page, 'Til og med', to);
  await page.getByRole('button', { name: 'Se over endringen' }).click();

  // Before confirming: exactly which issues, the digital access, the price.
  await expect(page.getByRole('heading', { name: 'Se over før du bekrefter' })).toBeFocused();
  const issues = page.getByRole('list', { name: 'Aviser som berøres' }).getByRole('listitem');
  await expect(issues).toHaveCount(days.indexOf(to) - days.indexOf(from) + 1);
  await expect(page.getByText('Den digitale tilgangen din fortsetter som før')).toBeVisible();
  await expect(page.getByText('Prisen er den samme: aviser som stoppes, blir ikke godskrevet.')).toBeVisible();
  await page.getByRole('button', { name: 'Bekreft endringen' }).click();

  await expect(page.getByText('Endringen er registrert.')).toBeVisible();
  const list = page.getByRole('list', { name: 'Dine endringer' });
  const card = list.getByRole('article', { name: `Stopp avisen: ${longDate(from)} – ${longDate(to)}` });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Planlagt');
  await expect(card).toContainText('4 aviser');

  // Change the end date.
  await card.getByRole('button', { name: 'Endre' }).click();
  await expect(page.getByRole('heading', { name: 'Endre', exact: true })).toBeVisible();
  await typeDate(page, 'Til og med', changedTo);
  await page.getByRole('button', { name: 'Se over endringen' }).click();
  await expect(page.getByRole('list', { name: 'Aviser som berøres' }).getByRole('listitem')).toHaveCount(6);
  await page.getByRole('button', { name: 'Bekreft endringen' }).click();
  await expect(page.getByText('Endringen er oppdatert.')).toBeVisible();
  const changed = list.getByRole('article', { name: `Stopp avisen: ${longDate(from)} – ${longDate(changedTo)}` });
  await expect(changed).toContainText('6 aviser');

  // A stop overlapping it is refused with a clear message.
  await typeDate(page, 'Fra og med', to);
  await typeDate(page, 'Til og med', changedTo);
  await page.getByRole('button', { name: 'Se over endringen' }).click();
  await page.getByRole('button', { name: 'Bekreft endringen' }).click();
  await expect(page.getByRole('alert')).toHaveText('Du har allerede en endring i denne perioden. Endre eller slett den først.');

  // Cancel it.
  await changed.getByRole('button', { name: 'Slett' }).click();
  await changed.getByRole('button', { name: 'Ja, slett' }).click();
  await expect(page.getByText('Endringen er slettet.')).toBeVisible();
  await expect(list.getByRole('article', { name: /^Stopp avisen/ })).toHaveCount(0);
  const left = ((await apiCall(page, '/api/delivery/changes?titleCode=ADR')).body as { changes: { type: string }[] }).changes;
  expect(left.filter((change) => change.type === 'STOP')).toEqual([]);
});

test('a date past the cutoff gets the next-possible-day message, and the form offers that day', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/endre-avislevering');
  const { today, nextPossibleDeliveryDay } = await calendar(page);
  await typeDate(page, 'Fra og med', today);
  await page.getByRole('checkbox', { name: 'Til jeg gir beskjed' }).check();
  await page.getByRole('button', { name: 'Se over endringen' }).click();
  // At the field and in the error summary, which takes the focus (issue 25.12).
  await expect(errorSummary(page)).toBeFocused();
  await expect(errorSummary(page).getByRole('link')).toHaveText([`Fristen for å endre leveringen denne dagen har gått ut. Første mulige dag er ${longDate(nextPossibleDeliveryDay)}.`]);

  await page.getByRole('button', { name: `Bruk ${dayAndMonth(nextPossibleDeliveryDay)}` }).click();
  await expect(page.getByRole('group', { name: 'Fra og med', exact: true })).toContainText(shown(nextPossibleDeliveryDay));
  await page.getByRole('button', { name: 'Se over endringen' }).click();
  await expect(page.getByRole('heading', { name: 'Se over før du bekrefter' })).toBeVisible();
  await expect(page.getByText(`Fra og med ${longDate(nextPossibleDeliveryDay)}, til du gir beskjed`)).toBeVisible();
  // Not confirmed: nothing is stored.
  await page.getByRole('button', { name: 'Tilbake' }).click();
});

test('the date picker greys out days without a paper', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/endre-avislevering');
  await page.getByRole('button', { name: 'Velg dato i kalender: Fra og med' }).click();
  const dialog = page.getByRole('dialog', { name: 'Fra og med' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Neste måned' }).click();
  // Every Sunday of the month is unavailable (ADR prints Monday to Saturday).
  const sundays = dialog.locator('[role="gridcell"] [data-unavailable]').filter({ hasText: /^\d+$/ });
  expect(await sundays.count()).toBeGreaterThanOrEqual(4);
  await page.keyboard.press('Escape');
});

test('the address form shows the three SPEC messages when empty, looks up the town and registers a move', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/leveringsadresse');
  const current = page.getByRole('region', { name: 'Nåværende adresse' });
  await expect(current).toContainText('Kongens gate 14B');
  await expect(current).toContainText('7011 Trondheim');

  await page.getByRole('button', { name: 'Lagre ny adresse' }).click();
  // The error summary takes the focus and lists the three SPEC messages, each a link to its field (issue 25.12).
  const summary = errorSummary(page);
  await expect(summary).toBeFocused();
  for (const message of ['Navn er påkrevd på leveringsadresse', 'Adresse er påkrevd', 'Gatenummer er påkrevd']) {
    await expect(summary.getByRole('link', { name: message, exact: true })).toBeVisible();
  }
  await expect(page.getByLabel('Navn', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Postnummer').fill('5003');
  await expect(page.getByLabel('Poststed')).toHaveValue('Bergen');
  await page.getByLabel('Postnummer').fill('0000');
  await expect(page.getByText('Vi finner ikke dette postnummeret. Sjekk at det er riktig.')).toBeVisible();

  const { publicationDays, nextPossibleDeliveryDay } = await calendar(page);
  const moveDay = publicationDays.find((day) => day > nextPossibleDeliveryDay && day.endsWith('-15')) ?? publicationDays[20] ?? nextPossibleDeliveryDay;
  await page.getByLabel('Navn', { exact: true }).fill('Kari Nordmann');
  await page.getByLabel('Adresse', { exact: true }).fill('Bryggen');
  await page.getByLabel('Gatenummer').fill('3');
  await page.getByLabel('Postnummer').fill('5003');
  await expect(page.getByLabel('Poststed')).toHaveValue('Bergen');
  await typeDate(page, 'Gjelder fra', moveDay);
  await page.getByRole('button', { name: 'Lagre ny adresse' }).click();
  await expect(page.getByText(`Den nye adressen er registrert og gjelder fra ${longDate(moveDay)}.`)).toBeVisible();
  const upcoming = page.getByRole('region', { name: 'Kommende adresse' });
  await expect(upcoming).toContainText(`Fra og med ${longDate(moveDay)}`);
  await expect(upcoming).toContainText('5003 Bergen');

  await upcoming.getByRole('button', { name: 'Slett adresseendringen' }).click();
  await expect(page.getByText('Adresseendringen er slettet.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Kommende adresse' })).toHaveCount(0);
});

test('a complaint for the latest paper produces a receipt, and the same one again is refused', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/tilbakemelding');
  const options = (await apiCall(page, '/api/delivery/complaints/options?titleCode=ADR')).body as ComplaintOptions;
  // Yesterday's paper, or the latest before it when yesterday had none (not reported yet: a retry may follow a run).
  const day = options.days.find((d) => d < options.today && !options.reported.some((r) => r.day === d && r.code === 'MISSING'));
  expect(day).toBeDefined();
  const label = `${dayAndMonth(day ?? '')}`;

  await page.getByRole('radio', { name: 'Avisen kom ikke' }).check();
  await page.getByRole('checkbox', { name: label }).check();
  await page.getByRole('radio', { name: 'Få abonnementet forlenget med én dag per avis' }).check();
  await page.getByRole('button', { name: 'Send inn' }).click();

  await expect(page.getByRole('heading', { name: 'Takk, vi har fått beskjeden' })).toBeVisible();
  await expect(page.getByText(/Saksnummer: RK-\d+/)).toBeVisible();

  // The same day and code again: the form says it is reported, and the server refuses it.
  await page.getByRole('button', { name: 'Meld fra om noe annet' }).click();
  await page.getByRole('radio', { name: 'Avisen kom ikke' }).check();
  await expect(page.getByRole('checkbox', { name: label })).toBeDisabled();
  const again = await page.evaluate(
    async (body) => {
      const response = await fetch('/api/delivery/complaints?titleCode=ADR', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { code: string; message: string } };
    },
    { code: 'MISSING', days: [day], remedy: 'EXTENSION' },
  );
  expect(again).toEqual({ status: 409, body: { code: 'COMPLAINT_DUPLICATE', message: 'Du har allerede meldt fra om dette for denne dagen.' } });

  // "Damaged" needs a short text.
  await page.getByRole('radio', { name: 'Avisen var skadet' }).check();
  await page.getByRole('button', { name: 'Send inn' }).click();
  await expect(page.getByRole('textbox', { name: /Beskriv kort hva som var galt/ })).toHaveAccessibleDescription('Beskriv kort hva som var galt');
});

test('varden’s complaint credited on the next invoice gives a credit note, shown on the receipt and under Fakturaer', async ({ page }) => {
  await page.goto(varden('/tilbakemelding'));
  await signInAtProvider(page, 'varden@minside.test');
  await expect(page).toHaveURL(varden('/tilbakemelding'));
  const options = (await apiCall(page, '/api/delivery/complaints/options?titleCode=VAR')).body as ComplaintOptions & { remedies: string[] };
  expect(options.remedies).toContain('CREDIT');
  // A day not reported wet yet (a retry may follow a run), the latest first.
  const day = [...options.days].reverse().find((d) => !options.reported.some((r) => r.day === d && r.code === 'WET'));
  expect(day).toBeDefined();

  await page.getByRole('radio', { name: 'Avisen var våt' }).check();
  await page.getByRole('checkbox', { name: dayAndMonth(day ?? '') }).check();
  await page.getByRole('radio', { name: 'Få avisen godskrevet på neste faktura' }).check();
  await page.getByRole('button', { name: 'Send inn' }).click();

  await expect(page.getByRole('heading', { name: 'Takk, vi har fått beskjeden' })).toBeVisible();
  // Varden credits 25 kr per paper.
  const credited = page.getByText(/^25\s+kr trekkes fra neste faktura \(kreditnota (\d+)\)$/);
  await expect(credited).toBeVisible();
  const creditNote = /kreditnota (\d+)/.exec((await credited.textContent()) ?? '')?.[1];
  await page.getByRole('region', { name: 'Takk, vi har fått beskjeden' }).getByRole('link', { name: 'Fakturaer' }).click();
  await expect(page).toHaveURL(varden('/fakturaoversikt'));
  await expect(page.getByRole('region', { name: 'Kreditnotaer' }).getByText(`Kreditnota ${creditNote}`, { exact: true })).toBeVisible();
});

test('an operator’s delivery notice reaches papir by e-mail, on the home page that day, and in the complaint form', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/tilbakemelding');
  const options = (await apiCall(page, '/api/delivery/complaints/options?titleCode=ADR')).body as ComplaintOptions;
  // The latest paper: today's, or (on a Sunday or holiday) the one before.
  const day = options.days[0] ?? '';
  const message = `Uvær i Trøndelag: avisen kommer senere enn vanlig (${Date.now()}).`;
  const sent = await operatorCall(`/api/segment/e2e-${Date.now()}/message`, { titleCode: 'ADR', issueDate: day, postalCodes: ['7011', '7012'], message });
  expect(sent.status).toBe(201);
  expect(sent.body).toMatchObject({ created: true, notifiedNow: 1 });

  await page.goto(adresseavisen('/_dev/mail'));
  await expect(page.getByText(message).first()).toBeVisible();

  await page.goto(adresseavisen('/'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const banner = page.getByRole('region', { name: 'Om dagens avis' });
  if (day === options.today) await expect(banner).toContainText(message);
  else await expect(banner).toHaveCount(0);

  await page.goto(adresseavisen('/tilbakemelding'));
  await expect(page.getByText('Vi vet om problemer med leveringen')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: `Kjent leveringsproblem: ${message}` })).toBeVisible();
});

test('digital@minside.test sees the paper-only message on /tilbakemelding', async ({ page }) => {
  await signIn(page, 'digital@minside.test', '/tilbakemelding');
  await expect(page.getByText('Du må ha papirabonnement for å benytte denne tjenesten.', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send inn' })).toHaveCount(0);
  expect((await apiCall(page, '/api/delivery/complaints/options?titleCode=ADR')).status).toBe(403);
});

test('the delivery pages have no serious accessibility violations', async ({ page }) => {
  await signIn(page, 'papir@minside.test', '/endre-avislevering');
  for (const path of ['/endre-avislevering', '/leveringsadresse', '/tilbakemelding']) {
    await page.goto(adresseavisen(path));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Henter informasjon …')).toHaveCount(0);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${path}: ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  }
});
