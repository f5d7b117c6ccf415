import { expect, test, type Page } from '../fixtures.ts';
import { adresseavisen, apiCall, signInAtProvider } from './support.ts';

// Issue 25 items 11 and 12 as papir@minside.test: a form with errors moves the focus to its
// error summary, whose links lead to the fields; a complaint sent offline or whose answer is
// lost says so with "Prøv igjen", and the retry files it once; a slow wait shows a progress bar.
// papir's other complaint journeys (delivery.spec) use "Avisen kom ikke"; these use other codes.

interface ComplaintOptions {
  today: string;
  days: string[];
  reported: { day: string; code: string }[];
}

const weekdayDayMonth = new Intl.DateTimeFormat('nb-NO', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const dayAndMonth = (iso: string) => weekdayDayMonth.format(new Date(`${iso}T00:00:00Z`));

async function signIn(page: Page, path: string): Promise<void> {
  await page.goto(adresseavisen(path));
  await signInAtProvider(page, 'papir@minside.test');
  await expect(page).toHaveURL(adresseavisen(path));
}

/** An issue day of the last week not yet reported with `code` (a retried run may have reported one). */
async function unreportedDay(page: Page, code: string): Promise<{ day: string; reportedBefore: number }> {
  const options = (await apiCall(page, '/api/delivery/complaints/options?titleCode=ADR')).body as ComplaintOptions;
  const day = options.days.find((d) => !options.reported.some((r) => r.day === d && r.code === code));
  expect(day, `an unreported day for ${code}`).toBeDefined();
  return { day: day ?? '', reportedBefore: options.reported.length };
}

async function reportedCount(page: Page, day: string, code: string): Promise<number> {
  const options = (await apiCall(page, '/api/delivery/complaints/options?titleCode=ADR')).body as ComplaintOptions;
  return options.reported.filter((r) => r.day === day && r.code === code).length;
}

test('a complaint sent with nothing chosen puts the focus on the error summary, whose links lead to each field', async ({ page }) => {
  await signIn(page, '/tilbakemelding');
  await page.getByRole('button', { name: 'Send inn' }).click();

  const summary = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Det er noe som må rettes' }) });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link')).toHaveText(['Velg hva som var galt', 'Velg minst én dag', 'Velg hva du ønsker']);

  await summary.getByRole('link', { name: 'Velg hva som var galt' }).click();
  await expect(page.getByRole('radio', { name: 'Avisen kom ikke' })).toBeFocused();
  await summary.getByRole('link', { name: 'Velg minst én dag' }).click();
  await expect(page.getByRole('group', { name: 'Hvilke dager?' }).getByRole('checkbox').first()).toBeFocused();

  // A field put right drops out of the summary; the rest stay until they are fixed.
  await page.getByRole('radio', { name: 'Avisen var våt' }).check();
  await expect(summary.getByRole('link')).toHaveText(['Velg minst én dag', 'Velg hva du ønsker']);
});

test('the profile form (react-hook-form) gets the same summary, with the SPEC §5 message', async ({ page }) => {
  await signIn(page, '/endre-profil');
  await page.getByRole('textbox', { name: 'Fornavn' }).fill('');
  await page.getByRole('button', { name: 'Lagre endringene' }).click();

  const summary = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Det er noe som må rettes' }) });
  await expect(summary).toBeFocused();
  await summary.getByRole('link', { name: 'Fornavn er påkrevd' }).click();
  await expect(page.getByRole('textbox', { name: 'Fornavn' })).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'Fornavn' })).toHaveAccessibleDescription('Fornavn er påkrevd');
});

test('a complaint sent offline says so at once with "Prøv igjen", and the retry online files it once', async ({ page, context }) => {
  await signIn(page, '/tilbakemelding');
  const { day } = await unreportedDay(page, 'WET');
  await page.getByRole('radio', { name: 'Avisen var våt' }).check();
  await page.getByRole('checkbox', { name: dayAndMonth(day) }).check();
  await page.getByRole('radio', { name: 'Få abonnementet forlenget med én dag per avis' }).check();

  await context.setOffline(true);
  await expect(page.getByText('Du er uten nettforbindelse. Det du gjør nå, blir ikke sendt før nettet er tilbake.')).toBeVisible();
  await page.getByRole('button', { name: 'Send inn' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Du er uten nettforbindelse. Koble til internett og prøv igjen.' })).toBeVisible({ timeout: 3_000 });
  await expect(page.getByRole('button', { name: 'Send inn' })).toBeEnabled();

  await context.setOffline(false);
  await page.getByRole('button', { name: 'Prøv igjen' }).click();
  await expect(page.getByRole('heading', { name: 'Takk, vi har fått beskjeden' })).toBeVisible();
  expect(await reportedCount(page, day, 'WET')).toBe(1);
});

test('a complaint whose answer is lost is filed once: "Prøv igjen" sends the same key and gets the first receipt', async ({ page }) => {
  await signIn(page, '/tilbakemelding');
  const { day } = await unreportedDay(page, 'LATE');
  await page.getByRole('radio', { name: 'Avisen kom for sent' }).check();
  await page.getByRole('checkbox', { name: dayAndMonth(day) }).check();
  await page.getByRole('radio', { name: 'Få abonnementet forlenget med én dag per avis' }).check();

  // The first send is cut off on the way; the same request (same key and body) then reaches
  // the server on its own, as when only the answer was lost.
  const sent: { key: string; body: string; url: string }[] = [];
  await page.route('**/api/delivery/complaints?**', async (route) => {
    const request = route.request();
    sent.push({ key: (await request.headerValue('idempotency-key')) ?? '', body: request.postData() ?? '', url: request.url() });
    if (sent.length === 1) return route.abort('connectionreset');
    return route.continue();
  });
  await page.getByRole('button', { name: 'Send inn' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Kunne ikke kontakte Min Side' })).toBeVisible();
  const [lost] = sent;
  const firstReceipt = await page.evaluate(
    async ({ url, key, body }) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body });
      return (await response.json()) as { caseNumber: string };
    },
    lost ?? { url: '', key: '', body: '' },
  );
  expect(firstReceipt.caseNumber).toMatch(/^RK-\d+$/);

  await page.getByRole('button', { name: 'Prøv igjen' }).click();
  await expect(page.getByRole('heading', { name: 'Takk, vi har fått beskjeden' })).toBeVisible();
  await expect(page.getByText(`Saksnummer: ${firstReceipt.caseNumber}`)).toBeVisible();
  expect(sent).toHaveLength(3);
  expect(sent[2]?.key).toBe(lost?.key);
  expect(await reportedCount(page, day, 'LATE')).toBe(1);
});

test('a slow route change shows the progress bar until the page has its data', async ({ page }) => {
  await signIn(page, '/tilbakemelding');
  await page.route('**/api/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.getByRole('navigation', { name: 'Hovedmeny' }).getByRole('link', { name: 'Min Side' }).click();
  await expect(page.getByRole('progressbar', { name: 'Laster' })).toBeVisible();
  await expect(page).toHaveURL(adresseavisen('/'));
  await expect(page.getByRole('progressbar', { name: 'Laster' })).toBeHidden({ timeout: 15_000 });
});
