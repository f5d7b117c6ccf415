import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '../fixtures.ts';
import { adresseavisen, apiCall, signInAtProvider } from './support.ts';

// Issue 25 "A subscriber never wonders what happens to their paper or their money", items 2,
// 4, 5 and 14, acted out by demo subscribers (README "Demo users"). The server runs on the real
// clock: every date here is read from the portal itself (the session, the invoices, the title's
// publication calendar), never written into the test. ferie@ and tidligere@ belong to this
// journey alone; papir@ is only read.

const months = ['januar', 'februar', 'mars', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'desember'];
/** "2026-03-05" → "5. mars 2026", as the portal writes dates in prose. */
function longDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${day}. ${months[(month ?? 1) - 1]} ${year}`;
}
const weekdayDate = new Intl.DateTimeFormat('nb-NO', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const weekdayDayMonth = new Intl.DateTimeFormat('nb-NO', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
/** "tirsdag 1. desember 2026", as the delivery pages write dates. */
const weekdayLong = (iso: string) => weekdayDate.format(new Date(`${iso}T00:00:00Z`));
/** "mandag 7. desember". */
const dayAndMonth = (iso: string) => weekdayDayMonth.format(new Date(`${iso}T00:00:00Z`));
function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
const isoWeekday = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay() || 7;
/** "2026-12-01" → "01122026", typed into a date field's segments (dd.mm.åååå). */
const typed = (iso: string) => iso.split('-').reverse().join('');
const shown = (iso: string) => iso.split('-').reverse().join('.');

async function signIn(page: Page, email: string, pathname: string): Promise<void> {
  await page.goto(adresseavisen(pathname));
  await signInAtProvider(page, email);
  await expect(page).toHaveURL(adresseavisen(pathname));
}

interface SessionBody {
  subscription: { ariaAccountNo: number; currentPeriodEnd: string; instStatusCode: number };
}

async function session(page: Page): Promise<SessionBody> {
  const response = await apiCall(page, '/api/session?titleCode=ADR');
  expect(response.status).toBe(200);
  return response.body as SessionBody;
}

/** Types a date into the React Aria date field labelled `label`. */
async function typeDate(page: Page, label: string, iso: string): Promise<void> {
  await page.getByRole('spinbutton', { name: `dag, ${label}` }).click();
  await page.keyboard.type(typed(iso));
  await expect(page.getByRole('group', { name: label, exact: true })).toContainText(shown(iso));
}

test.describe('25.2 one rule for the last day with access and the renewal day', () => {
  test('papir: the paid period, the cancel page and the home page agree to the day', async ({ page }) => {
    await signIn(page, 'papir@minside.test', '/');
    const { subscription } = await session(page);
    const renewal = subscription.currentPeriodEnd;

    // The paid invoices say which day the paid period ends.
    const invoices = ((await apiCall(page, `/api/invoice/${subscription.ariaAccountNo}`)).body as { invoices: { periodFrom: string; periodTo: string }[] }).invoices;
    const paidThrough = invoices
      .filter((invoice) => invoice.periodTo < renewal)
      .map((invoice) => invoice.periodTo)
      .sort()
      .at(-1);
    expect(paidThrough, 'the invoice of the running period').toBe(addDays(renewal, -1));
    // ... and the next period starts on the renewal day.
    expect(invoices.some((invoice) => invoice.periodFrom === renewal)).toBe(true);

    const summary = page.getByRole('region', { name: 'Komplett', exact: true });
    await expect(summary).toContainText(`Neste fornyelse${longDate(renewal)}`);

    await page.goto(adresseavisen('/avslutt-abonnement'));
    await expect(page.getByText(`løper ut perioden du har betalt for, til og med ${longDate(paidThrough ?? '')}.`)).toBeVisible();
    await expect(page.getByText(`til og med ${longDate(renewal)}`)).toHaveCount(0);
  });
});

test.describe('25.4 an expired subscription includes nothing any more', () => {
  test('tidligere: the home page shows what it had, without ticks, and the way back', async ({ page }) => {
    await signIn(page, 'tidligere@minside.test', '/');
    const { subscription } = await session(page);
    const summary = page.getByRole('region', { name: 'Komplett', exact: true });
    await expect(summary.getByText('Utløpt')).toBeVisible();

    await expect(summary.getByRole('heading', { name: 'Dette er inkludert' })).toHaveCount(0);
    await expect(summary.getByRole('heading', { name: 'Dette hadde du' })).toBeVisible();
    await expect(summary).toContainText('Abonnementet er ikke aktivt, så du har ikke tilgang til dette nå.');
    for (const feature of ['Plussaker', 'eAvisen', 'Papiravisen']) {
      const item = summary.getByRole('listitem').filter({ has: page.getByText(feature, { exact: true }) });
      await expect(item).toContainText(`${feature}: hadde du, ikke tilgang nå.`);
    }
    await expect(summary.getByText(/: inkludert\./)).toHaveCount(0);
    await expect(summary.getByText('✓')).toHaveCount(0);
    await expect(summary).toContainText(`Hadde tilgang til og med${longDate(addDays(subscription.currentPeriodEnd, -1))}`);

    // The way back, beside it.
    await expect(page.getByRole('heading', { level: 2, name: `Vi savner deg! Abonnementet ditt varte til og med ${longDate(addDays(subscription.currentPeriodEnd, -1))}` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start abonnementet igjen' })).toBeVisible();
  });
});

test.describe('25.5 no outage that is not there, no placeholder text', () => {
  test('/maintenance says Min Side is up while it is, and leads on', async ({ page }) => {
    await page.goto(adresseavisen('/maintenance'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Min Side er oppe');
    await expect(page.getByText('Det pågår ikke noe vedlikehold nå. Alt på Min Side fungerer som vanlig.')).toBeVisible();
    await expect(page.getByText(/utilgjengelig|nede for vedlikehold|Vi jobber med Min Side/)).toHaveCount(0);
    await page.getByRole('link', { name: 'Kundeservice', exact: true }).last().click();
    await expect(page).toHaveURL(adresseavisen('/kundeservice'));
  });

  test('/kundeservice shows the title’s phone and e-mail from the catalogue, with no disclaimer', async ({ page }) => {
    await page.goto(adresseavisen('/kundeservice'));
    const title = (await apiCall(page, '/api/title/ADR')).body as { customerCenterPhoneNumber: string; customerCenterEmail: string };
    const contact = page.getByRole('region', { name: 'Kontakt oss' });
    await expect(contact.getByRole('link', { name: title.customerCenterPhoneNumber })).toHaveAttribute('href', `tel:+47${title.customerCenterPhoneNumber.replaceAll(' ', '')}`);
    await expect(contact.getByRole('link', { name: title.customerCenterEmail })).toHaveAttribute('href', `mailto:${title.customerCenterEmail}`);
    await expect(page.getByRole('main')).not.toContainText(/foreløpig|ikke bekreftet/i);
  });

  const placeholderText = [/foreløpige? og ikke bekreftet/i, /lorem ipsum/i, /\bTODO\b/, /\bFIXME\b/, /plassholder/i, /\bdummy text\b/i, /kommer snart/i];

  test('the built pages and bundles hold no placeholder text', async ({ page }) => {
    const dist = path.resolve(import.meta.dirname, '../../apps/web/dist');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.(html|js|css|json|svg|txt|webmanifest)$/.test(name)) files.push(file);
      }
    };
    walk(dist);
    expect(files.filter((file) => file.endsWith('.js')).length, 'the web build is there (npm run build)').toBeGreaterThan(0);
    const found = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return placeholderText.filter((pattern) => pattern.test(text)).map((pattern) => `${path.relative(dist, file)}: ${String(pattern)}`);
    });
    expect(found).toEqual([]);

    // And the public pages as a visitor reads them (content pages come from the server).
    for (const pathname of ['/kundeservice', '/maintenance', '/vilkaar', '/vilkaar/bedrift', '/personvern', '/cookie-policy', '/nye-priser', '/student']) {
      await page.goto(adresseavisen(pathname));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText('Henter informasjon …')).toHaveCount(0);
      const text = await page.locator('body').innerText();
      for (const pattern of placeholderText) expect(text, `${pathname} ${String(pattern)}`).not.toMatch(pattern);
    }
  });
});

test.describe('25.14 a vacation stop may end on any day', () => {
  interface Calendar {
    nextPossibleDeliveryDay: string;
    publicationDays: string[];
  }
  interface Change {
    id: string;
    type: string;
    fromDate: string;
    toDate: string | null;
    resumesOn: string | null;
  }
  const changesOf = async (page: Page) => ((await apiCall(page, '/api/delivery/changes?titleCode=ADR')).body as { changes: Change[] }).changes;

  test('ferie: a stop ending on a Sunday is taken, and the page says when the paper comes again', async ({ page }) => {
    await signIn(page, 'ferie@minside.test', '/endre-avislevering');
    // A retry starts clean: this journey owns ferie@'s changes.
    for (const change of await changesOf(page)) {
      const removed = await apiCall(page, `/api/delivery/changes/${change.id}?titleCode=ADR`, { method: 'DELETE', json: {} });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    }
    await page.reload();

    const calendar = (await apiCall(page, '/api/delivery/calendar?titleCode=ADR')).body as Calendar;
    const issueDays = new Set(calendar.publicationDays);
    // Two weeks out: the first day without a paper that is a Sunday, and the issue before it.
    let end = addDays(calendar.nextPossibleDeliveryDay, 14);
    while (isoWeekday(end) !== 7 || issueDays.has(end)) end = addDays(end, 1);
    const from = calendar.publicationDays.filter((day) => day < end && day >= calendar.nextPossibleDeliveryDay).at(-1) ?? '';
    // When it comes again: the title's first issue after the last day, from its own calendar.
    const resumes = calendar.publicationDays.find((day) => day > end) ?? '';
    expect(from).not.toBe('');

    await expect(page.getByRole('radio', { name: /Stopp avisen/ })).toBeChecked();
    await typeDate(page, 'Fra og med', from);
    await typeDate(page, 'Til og med', end);
    await expect(page.getByText('Det kommer ingen avis denne dagen')).toHaveCount(0);
    await expect(page.getByText(`Avisen kommer igjen ${dayAndMonth(resumes)}.`)).toBeVisible();

    await page.getByRole('button', { name: 'Se over endringen' }).click();
    await expect(page.getByRole('heading', { name: 'Se over før du bekrefter' })).toBeFocused();
    await expect(page.getByText(`${weekdayLong(from)} – ${weekdayLong(end)}`)).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: `Avisen kommer igjen ${dayAndMonth(resumes)}.` })).toBeVisible();
    await page.getByRole('button', { name: 'Bekreft endringen' }).click();

    await expect(page.getByText(`Endringen er registrert. Avisen kommer igjen ${dayAndMonth(resumes)}.`)).toBeVisible();
    const card = page.getByRole('list', { name: 'Dine endringer' }).getByRole('article', { name: `Stopp avisen: ${weekdayLong(from)} – ${weekdayLong(end)}` });
    await expect(card).toContainText(`Avisen kommer igjen ${dayAndMonth(resumes)}.`);
    const [stop] = (await changesOf(page)).filter((change) => change.type === 'STOP');
    expect(stop).toMatchObject({ fromDate: from, toDate: end, resumesOn: resumes });

    // Bad input still gets a Norwegian answer and a stable code: a stop must start on a day with a paper.
    const refused = await apiCall(page, '/api/delivery/changes?titleCode=ADR', { method: 'POST', json: { type: 'STOP', fromDate: end, toDate: addDays(end, 7), address: null } });
    expect(refused).toMatchObject({ status: 422, body: { code: 'NOT_AN_ISSUE_DAY', message: 'Det kommer ingen avis denne dagen. Velg en dag med avis.' } });
    const backwards = await apiCall(page, '/api/delivery/changes?titleCode=ADR', { method: 'POST', json: { type: 'STOP', fromDate: resumes, toDate: end, address: null } });
    expect(backwards).toMatchObject({ status: 422, body: { code: 'INVALID_PERIOD', message: 'Sluttdatoen kan ikke være før startdatoen.' } });

    // Issue 25.10: the home page says what is going on with the paper, and the way back is one click.
    await page.getByRole('link', { name: 'Tilbake til oversikten' }).click();
    await expect(page).toHaveURL(adresseavisen('/'));
    const delivery = page.getByRole('region', { name: 'Levering', exact: true });
    await expect(delivery).toContainText('Innherredsveien 21');
    await expect(delivery).toContainText(`Avisen stoppes fra ${dayAndMonth(from)} og kommer igjen ${dayAndMonth(resumes)}.`);
    await delivery.getByRole('link', { name: 'Se eller endre' }).click();
    await expect(page).toHaveURL(adresseavisen('/endre-avislevering'));

    await card.getByRole('button', { name: 'Slett' }).click();
    await card.getByRole('button', { name: 'Ja, slett' }).click();
    await expect(page.getByText('Endringen er slettet.')).toBeVisible();
    expect(await changesOf(page)).toEqual([]);

    // 25.7: both changes are confirmed by e-mail from Adresseavisen, with the dates and a reference.
    const { subscription } = await session(page);
    await page.goto(adresseavisen('/_dev/mail'));
    const inbox = page.getByRole('article').filter({ hasText: 'Til ferie@minside.test' });
    await expect(inbox.filter({ hasText: 'Adresseavisen: stopp av avisen er registrert' }).first()).toContainText(`Papiravisen stoppes fra og med ${weekdayLong(from)} til og med ${weekdayLong(end)}`);
    await expect(inbox.filter({ hasText: 'Adresseavisen: stopp av avisen er slettet' }).first()).toContainText('Avisen kommer som vanlig.');
    const outbox = (await apiCall(page, '/_dev/mail.json')).body as { from: string; to: string; subject: string; text: string; html: string | null }[];
    const placed = outbox.find((mail) => mail.to === 'ferie@minside.test' && mail.subject === 'Adresseavisen: stopp av avisen er registrert' && mail.text.includes(weekdayLong(from)));
    expect(placed?.from).toMatch(/^"Adresseavisen" </);
    expect(placed?.text).toContain('Hei Frida!');
    expect(placed?.text).toContain(`Avisen kommer igjen ${dayAndMonth(resumes)}.`);
    expect(placed?.text).toMatch(/Registrert \d{1,2}\. \p{L}+ \d{4} kl\. \d{2}\.\d{2}\./u);
    expect(placed?.text).toContain(`Oppgi kundenummer ${subscription.ariaAccountNo}.`);
    expect(placed?.html).toContain(`Papiravisen stoppes fra og med ${weekdayLong(from)}`);
  });
});
