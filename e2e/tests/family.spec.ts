import { expect, test, type Page } from '../fixtures.ts';
import { adresseavisen, apiCall, signInAtProvider } from './support.ts';

// Issue 8 family sharing, end to end: familie@ invites a household member, the mail shows
// up in the development outbox, ny@ accepts the link in a browser of their own, and the
// owner's remaining places drop by one; past the maximum the owner is told so.
//
// Other journeys read familie@'s sharing and expect ny@ to have no subscription, so this
// one puts everything back as it found it (withdraws what it invited, removes ny@).

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

/** The consent dialog may open over any page; decline it whenever it is in the way. */
async function declineConsentWhenAsked(page: Page): Promise<void> {
  await page.addLocatorHandler(page.getByRole('dialog', { name: 'Personvern og informasjonskapsler' }), async (dialog) => {
    await dialog.getByRole('button', { name: 'Avslå alle' }).click();
  });
}

async function remaining(page: Page): Promise<number> {
  return Number(await page.getByTestId('remaining').textContent());
}

async function invite(page: Page, email: string) {
  await page.getByLabel('E-postadresse').fill(email);
  await page.getByRole('button', { name: 'Send invitasjon', exact: true }).click();
}

test('familie invites ny, who accepts in another browser; the maximum is enforced', async ({ page, browser }) => {
  test.setTimeout(60_000);
  await declineConsentWhenAsked(page);
  await page.goto(adresseavisen('/familiedeling'));
  await signInAtProvider(page, 'familie@minside.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Familiedeling' })).toBeVisible();
  const list = page.getByRole('region', { name: 'Invitasjoner og medlemmer' });
  await expect(list.getByRole('listitem').filter({ hasText: 'familiemedlem@minside.test' })).toContainText('Aktiv');
  const before = await remaining(page);
  expect(before).toBeGreaterThan(1);

  await invite(page, 'ny@minside.test');
  await expect(page.getByRole('status').filter({ hasText: 'Invitasjonen er sendt til ny@minside.test.' })).toBeVisible();
  await expect(list.getByRole('listitem').filter({ hasText: 'ny@minside.test' })).toContainText('Invitasjon sendt');
  await expect(page.getByTestId('remaining')).toHaveText(String(before - 1));

  // The mail is in the development outbox: as a page, and as JSON to read the link from.
  await page.goto(adresseavisen('/_dev/mail'));
  await expect(page.getByRole('article').filter({ hasText: 'Til ny@minside.test' }).first()).toContainText('Per Olsen vil dele Adresseavisen med deg');
  const outbox = (await apiCall(page, '/_dev/mail.json')).body as OutboxMail[];
  const mail = outbox.find((item) => item.to === 'ny@minside.test');
  expect(mail?.html).toContain('Godta invitasjonen');
  const link = /https?:\/\/\S+\/verifiser-familiemedlem\?token=[\w-]+/.exec(mail?.text ?? '')?.[0];
  expect(link).toBeDefined();

  // ny opens the link in a browser of their own, signs in, and accepts.
  const other = await browser.newContext();
  const invitee = await other.newPage();
  await declineConsentWhenAsked(invitee);
  await invitee.goto(link ?? '');
  await signInAtProvider(invitee, 'ny@minside.test');
  // Back from the provider through /callback to the link's own address.
  await expect(invitee).toHaveURL(/\/verifiser-familiemedlem\?token=/, { timeout: 15_000 });
  await expect(invitee.getByRole('heading', { level: 2, name: 'Per Olsen vil dele Adresseavisen med deg' })).toBeVisible({ timeout: 15_000 });
  await invitee.getByRole('button', { name: 'Godta invitasjonen' }).click();
  await expect(invitee).toHaveURL(adresseavisen('/deling-akseptert'));
  await expect(invitee.getByRole('status')).toContainText('med Per Olsen');
  await other.close();

  // The owner sees ny as active; the place stays taken.
  await page.goto(adresseavisen('/familiedeling'));
  await expect(list.getByRole('listitem').filter({ hasText: 'ny@minside.test' })).toContainText('Aktiv');
  await expect(page.getByTestId('remaining')).toHaveText(String(before - 1));

  // Fill the remaining places, then one too many.
  const run = Date.now().toString(36);
  const fillers: string[] = [];
  for (let place = 0, left = await remaining(page); place < left; place++) {
    const email = `plass${place}-${run}@minside.test`;
    fillers.push(email);
    await invite(page, email);
    await expect(page.getByRole('status').filter({ hasText: `Invitasjonen er sendt til ${email}.` })).toBeVisible();
  }
  await expect(page.getByTestId('remaining')).toHaveText('0');
  await invite(page, `en-for-mye-${run}@minside.test`);
  await expect(page.getByRole('alert')).toHaveText(/^Du har nådd maksimalt antall familiemedlemmer \(\d+\)\. Fjern en invitasjon eller et medlem før du inviterer flere\.$/);

  // Put things back: withdraw the fillers, remove ny.
  for (const email of fillers) {
    await page.getByRole('button', { name: `Trekk tilbake invitasjonen til ${email}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `Invitasjonen til ${email} er trukket tilbake.` })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Fjern ny@minside.test' }).click();
  await page.getByRole('button', { name: 'Ja, fjern' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'ny@minside.test har ikke lenger tilgang gjennom abonnementet ditt.' })).toBeVisible();
  await expect(page.getByTestId('remaining')).toHaveText(String(before));
});
