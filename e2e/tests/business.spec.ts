import { expect, test } from '../fixtures.ts';
import { adresseavisen, errorSummary, signInAtProvider } from './support.ts';

// Issue 8 business admin as admin@firma.test (company domain firma.test): a pasted list
// with a foreign-domain address, a duplicate and a malformed address sends only the valid
// ones and names the others; the list is searched and the new people removed in bulk.

test('the admin pastes a list: only valid company addresses are sent, the others are named', async ({ page }) => {
  await page.goto(adresseavisen('/administrer-bedrift'));
  await signInAtProvider(page, 'admin@firma.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Administrer bedriftsabonnement' })).toBeVisible();

  const run = Date.now().toString(36);
  const kari = `kari.${run}@firma.test`;
  const per = `per.${run}@firma.test`;
  const foreign = `ola.${run}@annet.no`;
  await page.getByLabel('E-postadresser').fill(`${kari}, ${per}\n${foreign}; ${kari.toUpperCase()} ikke-en-adresse`);
  await page.getByRole('button', { name: 'Send invitasjoner' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'sendt' })).toHaveText('2 invitasjoner er sendt.');
  const notSent = page.getByRole('alert');
  await expect(notSent).toContainText('Noen e-postadresser ble ikke sendt:');
  await expect(notSent.getByRole('listitem')).toHaveText([
    `${foreign}: Adressen hører ikke til bedriftens domene.`,
    `${kari.toUpperCase()}: Adressen står flere ganger i listen. Vi sender bare én invitasjon.`,
    'ikke-en-adresse: Vennligst skriv en gyldig e-postadresse',
  ]);

  const sentTo = await page.evaluate(async () => {
    const response = await fetch('/_dev/mail.json', { credentials: 'same-origin' });
    return ((await response.json()) as { to: string }[]).map((mail) => mail.to);
  });
  expect(sentTo).toEqual(expect.arrayContaining([kari, per]));
  expect(sentTo.filter((to) => to.includes(run))).toHaveLength(2);

  await page.getByLabel('Søk etter e-post').fill(run);
  const rows = page.getByRole('row').filter({ hasText: run });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Sendt');
  await page.getByLabel('Velg alle som vises').check();
  await page.getByRole('button', { name: 'Fjern valgte (2)' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'fjernet' })).toHaveText('2 personer er fjernet.');
  await expect(rows).toHaveCount(0);
});

test('a subscriber who is no business admin is told the page is for admins', async ({ page }) => {
  await page.goto(adresseavisen('/administrer-bedrift'));
  await signInAtProvider(page, 'familie@minside.test');
  await expect(page.getByRole('alert')).toHaveText('Bare administratorer av et bedriftsabonnement kan administrere ansatte.');
});

test('the admin has the invoices sent as EHF: a wrong organisation number is named, the saved choice is shown and can be stopped', async ({ page }) => {
  await page.goto(adresseavisen('/administrer-bedrift'));
  await signInAtProvider(page, 'admin@firma.test');
  const ehf = page.getByRole('region', { name: 'Faktura som EHF' });
  await ehf.getByLabel('Organisasjonsnummer').fill('962 806 113');
  await ehf.getByLabel('Postnummer').fill('70');
  await ehf.getByRole('button', { name: 'Motta fakturaer som EHF' }).click();
  // Each message at its field, and all of them in the summary that takes the focus.
  await expect(errorSummary(ehf)).toBeFocused();
  await expect(errorSummary(ehf).getByRole('link')).toHaveText([
    'Organisasjonsnummeret er ikke gyldig. Sjekk at du har skrevet det riktig.',
    'Skriv inn bedriftens navn.',
    'Skriv inn fakturaadressen.',
    'Postnummeret har 4 sifre.',
    'Skriv inn poststedet.',
  ]);
  await expect(ehf.getByLabel('Organisasjonsnummer')).toHaveAccessibleDescription('Organisasjonsnummeret er ikke gyldig. Sjekk at du har skrevet det riktig.');
  await expect(ehf.getByLabel('Postnummer')).toHaveAccessibleDescription('Postnummeret har 4 sifre.');

  await ehf.getByLabel('Organisasjonsnummer').fill('962 806 112');
  await ehf.getByLabel('Bedriftens navn').fill('Firma Čuđe AS');
  await ehf.getByLabel('Fakturaadresse').fill('Kongens gate 1');
  await ehf.getByLabel('Postnummer').fill('7011');
  await ehf.getByLabel('Poststed').fill('Trondheim');
  await ehf.getByLabel('Deres referanse (valgfritt)').fill('Kostnadssted 42');
  await ehf.getByRole('button', { name: 'Motta fakturaer som EHF' }).click();
  await expect(ehf.getByRole('status')).toHaveText('Fakturaene sendes som EHF til Firma Čuđe AS, org.nr. 962 806 112.');

  // Still so after a reload: it is stored, not just shown.
  await page.reload();
  await expect(ehf.getByRole('status')).toHaveText('Fakturaene sendes som EHF til Firma Čuđe AS, org.nr. 962 806 112.');
  await ehf.getByRole('button', { name: 'Stopp EHF' }).click();
  await expect(ehf.getByRole('button', { name: 'Motta fakturaer som EHF' })).toBeVisible();
  await page.reload();
  await expect(ehf.getByLabel('Organisasjonsnummer')).toHaveValue('');
});

test('the admin resends one pending invitation, is asked to wait before sending it again, and withdraws another (issue 25.15)', async ({ page }) => {
  await page.goto(adresseavisen('/administrer-bedrift'));
  await signInAtProvider(page, 'admin@firma.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Administrer bedriftsabonnement' })).toBeVisible();
  const mailsTo = (to: string) =>
    page.evaluate(async (address) => {
      const response = await fetch('/_dev/mail.json', { credentials: 'same-origin' });
      return ((await response.json()) as { to: string; subject: string }[]).filter((mail) => mail.to === address).map((mail) => mail.subject);
    }, to);

  // The seeded pending invitation: resend and withdraw; the colleague who took theirs up has neither.
  const pending = 'ny.kollega@firma.test';
  await expect(page.getByRole('row').filter({ hasText: 'ansatt@firma.test' }).getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Trekk tilbake invitasjonen til ${pending}` })).toBeVisible();
  await page.getByRole('button', { name: `Send på nytt til ${pending}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'på nytt' })).toHaveText(`Invitasjonen er sendt på nytt til ${pending}.`);
  expect(await mailsTo(pending)).toEqual(['Du har fått tilgang til Adresseavisen gjennom jobben']);

  // Again at once: a clear message, and no second e-mail.
  await page.getByRole('button', { name: `Send på nytt til ${pending}` }).click();
  await expect(page.getByRole('alert')).toHaveText(`${pending}: Invitasjonen ble sendt for mindre enn 5 minutter siden. Vent litt før du sender den på nytt.`);
  expect(await mailsTo(pending)).toHaveLength(1);

  // A fresh invitation, withdrawn: gone from the list, and the seat is free again.
  const withdrawn = `tilbake.${Date.now().toString(36)}@firma.test`;
  await page.getByLabel('E-postadresser').fill(withdrawn);
  await page.getByRole('button', { name: 'Send invitasjoner' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'sendt.' }).first()).toBeVisible();
  const seats = page.getByRole('definition').filter({ hasText: 'ledige' });
  const seatsWithIt = await seats.innerText();
  await page.getByRole('button', { name: `Trekk tilbake invitasjonen til ${withdrawn}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'trukket tilbake' })).toHaveText(`Invitasjonen til ${withdrawn} er trukket tilbake. Lenken i e-posten virker ikke lenger.`);
  await expect(page.getByRole('row').filter({ hasText: withdrawn })).toHaveCount(0);
  await expect(seats).not.toHaveText(seatsWithIt);
});
