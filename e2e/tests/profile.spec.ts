import { expect, test } from '../fixtures.ts';
import { adresseavisen, apiCall, errorSummary, signInAtProvider } from './support.ts';

// Issue 4 profile: /endre-profil with the SPEC §5 messages and a confirmed e-mail change,
// /kontakt with the family-sharing summary.

test('prove edits the profile; the §5 messages show next to the fields', async ({ page }) => {
  await page.goto(adresseavisen('/endre-profil'));
  await signInAtProvider(page, 'prove@minside.test');
  await expect(page.getByLabel('Fornavn')).toHaveValue('Tor');

  await page.getByLabel('Fornavn').fill('');
  await page.getByLabel('Telefon').fill('ring meg');
  await page.getByRole('button', { name: 'Lagre endringene' }).click();
  // The error summary takes the focus and links to each field (issue 25.12); the messages also stand at their fields.
  const summary = errorSummary(page);
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link')).toHaveText(['Fornavn er påkrevd', 'Telefonnummeret er ugyldig']);
  await expect(page.getByLabel('Fornavn')).toHaveAttribute('aria-invalid', 'true');
  await summary.getByRole('link', { name: 'Telefonnummeret er ugyldig' }).click();
  await expect(page.getByLabel('Telefon')).toBeFocused();

  // Looks like a number, but is none: the server says so (libphonenumber-js).
  await page.getByLabel('Fornavn').fill('Tor Erik');
  await page.getByLabel('Telefon').fill('12345');
  await page.getByRole('button', { name: 'Lagre endringene' }).click();
  await expect(errorSummary(page).getByRole('link')).toHaveText(['Telefonnummeret er ugyldig']);

  await page.getByLabel('Telefon').fill('41 23 45 67');
  await page.getByRole('button', { name: 'Lagre endringene' }).click();
  await expect(page.getByRole('status')).toHaveText('Profilen er oppdatert.');
  const session = (await apiCall(page, '/api/session?titleCode=ADR')).body as { user: { givenName: string; phoneNumber: string } };
  expect(session.user).toMatchObject({ givenName: 'Tor Erik', phoneNumber: '+4741234567' });

  await page.getByRole('link', { name: 'Min Side', exact: true }).click();
  await expect(page.getByText('Hei, Tor Erik!')).toBeVisible();
});

/** The address attempt `retry` of the e-mail change test moves ansatt@firma.test to: new on every attempt, so a retry never finds its mail or address taken. */
const changedAddress = (retry: number) => `bjorn.lie.${retry}@firma.test`;

test('an e-mail change asks for the password and is confirmed by the link sent to the new address', async ({ page }, testInfo) => {
  const target = changedAddress(testInfo.retry);
  await page.goto(adresseavisen('/endre-profil'));
  // An earlier attempt may have confirmed its change before it failed: then ansatt@ logs in with that address.
  const logins = [...Array.from({ length: testInfo.retry }, (_, attempt) => changedAddress(testInfo.retry - 1 - attempt)), 'ansatt@firma.test'];
  for (const [index, login] of logins.entries()) {
    await signInAtProvider(page, login);
    if (index === logins.length - 1) break;
    const signedIn = page.getByLabel('Ny e-postadresse');
    await expect(signedIn.or(page.getByRole('alert'))).toBeVisible();
    if (await signedIn.isVisible()) break;
  }
  await page.getByLabel('Ny e-postadresse').fill(target);
  await page.getByLabel('Passord').fill('feil-passord');
  await page.getByRole('button', { name: 'Send bekreftelse til ny adresse' }).click();
  await expect(page.getByRole('alert')).toHaveText('Passordet er feil.');

  await page.getByLabel('Passord').fill('demo1234');
  await page.getByRole('button', { name: 'Send bekreftelse til ny adresse' }).click();
  await expect(page.getByRole('status')).toContainText(`Vi har sendt en lenke til ${target}.`);

  await page.goto(adresseavisen('/_dev/mail'));
  const mail = page.getByRole('article').filter({ hasText: `Til ${target}` });
  await mail.getByRole('link', { name: /bekreft-epost=/ }).click();
  await expect(page).toHaveURL(adresseavisen('/endre-profil'));
  await expect(page.getByRole('status').first()).toHaveText(`E-postadressen er endret til ${target}. Bruk den når du logger inn.`);
  await expect(page.getByText(`Du logger inn med ${target}.`)).toBeVisible();
});

test('/kontakt shows the contact information and who the subscription is shared with', async ({ page }) => {
  await page.goto(adresseavisen('/kontakt'));
  await signInAtProvider(page, 'familie@minside.test');
  const contact = page.getByRole('region', { name: 'Kontaktinformasjon' });
  await expect(contact).toContainText('Per Olsen');
  await expect(contact).toContainText('945 67 890');
  const sharing = page.getByRole('region', { name: 'Familiedeling' });
  await expect(sharing).toContainText('Du deler abonnementet med 1 av 4 mulige. 1 invitasjon venter på svar.');
  await expect(sharing.getByRole('listitem').filter({ hasText: 'familiemedlem@minside.test' })).toContainText('Aktiv');
  await expect(sharing.getByRole('listitem').filter({ hasText: 'sofie.olsen@minside.test' })).toContainText('Invitasjon sendt');
});
