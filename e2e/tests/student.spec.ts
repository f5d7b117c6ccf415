import { expect, test, type Page } from '../fixtures.ts';
import { adresseavisen, errorSummary, signInAtProvider } from './support.ts';

// Issue 8 student verification as ny.student@minside.test (signed up, no subscription): the
// code is read from the embedded outbox (/_dev/mail.json); a wrong code shows CODE_WRONG's
// message; the right one ends on /student-kvittering.

async function codeMailedTo(page: Page, to: string): Promise<string> {
  const mails = await page.evaluate(async () => {
    const response = await fetch('/_dev/mail.json', { credentials: 'same-origin' });
    return (await response.json()) as { to: string; text: string }[];
  });
  const code = /^(\d{6})$/m.exec(mails.find((mail) => mail.to === to)?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

test('a student verifies with the code from the mail and ends on /student-kvittering; a wrong code is refused', async ({ page }) => {
  await page.goto(adresseavisen('/student-verifisering'));
  await signInAtProvider(page, 'ny.student@minside.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Bekreft at du er student' })).toBeVisible();

  await page.getByLabel('Student-e-post').fill('jonas@gmail.com');
  await page.getByRole('button', { name: 'Send kode' }).click();
  // The server's answer is about the address: at the field, through the summary that takes the focus.
  await expect(errorSummary(page)).toBeFocused();
  await expect(errorSummary(page).getByRole('link')).toHaveText(['Du må bruke e-postadressen du har fra studiestedet ditt, for eksempel navn@stud.ntnu.no.']);

  // A fresh address per run: a retried run must not meet the first run's code.
  const studentEmail = `jonas.vik.${Date.now().toString(36)}@stud.test`;
  await page.getByLabel('Student-e-post').fill(studentEmail);
  await page.getByRole('button', { name: 'Send kode' }).click();
  await expect(page.getByRole('status')).toContainText(`Vi har sendt en kode til ${studentEmail}.`);
  await expect(page.getByRole('heading', { name: 'Skriv inn koden' })).toBeFocused();
  const code = await codeMailedTo(page, studentEmail);

  await page.getByLabel('Kode', { exact: true }).fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Bekreft og start abonnementet' }).click();
  await expect(errorSummary(page)).toBeFocused();
  await expect(errorSummary(page).getByRole('link')).toHaveText(['Koden er feil. Sjekk koden i e-posten og prøv igjen.']);

  await page.getByLabel('Kode', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Bekreft og start abonnementet' }).click();
  await expect(page).toHaveURL(adresseavisen('/student-kvittering'));
  await expect(page.getByRole('heading', { level: 1, name: 'Studentabonnementet er klart' })).toBeVisible();
  await expect(page.getByText(studentEmail)).toBeVisible();
  await expect(page.getByText('Student digital')).toBeVisible();
});

test('/student tells visitors about the student price without a login', async ({ page }) => {
  await page.goto(adresseavisen('/student'));
  await expect(page.getByRole('heading', { level: 1, name: 'Student' })).toBeVisible();
  await expect(page.getByText('99 kr')).toBeVisible();
  await expect(page.getByText('@stud.ntnu.no')).toBeVisible();
});
