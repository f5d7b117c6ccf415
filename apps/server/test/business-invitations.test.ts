import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '@minside/domain';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import type { TestBrowser } from './browser.ts';
import { codeMailedTo, expectRefused, signIn as signInAs } from './support.ts';

// Issue 25.15: the business admin resends or withdraws one pending invitation at a time. A resend
// is the invitation e-mail again through the outbox, at most once in five minutes per invitation;
// a withdrawal frees the seat and makes the e-mailed link and any code sent for it stop working.
// Another company's invitation is not found; a refusal changes nothing.

const PORTAL = 'http://adresseavisen.localhost:3000';
const MINUTE = 60_000;
/** The seeded pending invitation of admin@firma.test's company. */
const PENDING = 'demo-member-bedrift-invitasjon';
const PENDING_EMAIL = 'ny.kollega@firma.test';

interface Overview {
  used: number;
  remaining: number;
  members: { id: string; email: string; status: string }[];
}

describe.each(testDatabases)('business invitations one at a time ($name)', ({ name }) => {
  let test: TestApp;
  let offsetMs = 0;
  const now = () => new Date(systemClock().getTime() + offsetMs);
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now });
  });
  afterAll(() => test.close());

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  const api = (path: string) => `${PORTAL}/api/business${path}?titleCode=ADR`;
  const resend = (browser: TestBrowser, id: string) => browser.request('POST', api(`/invitations/${encodeURIComponent(id)}/resend`), { json: {} });
  const withdraw = (browser: TestBrowser, id: string) => browser.request('DELETE', api(`/invitations/${encodeURIComponent(id)}`), { json: {} });
  const invitationMails = (to: string) =>
    test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = ${to} and kind = 'businessInvitation' order by created_at`);
  const snapshot = () =>
    test.database.rows(sql`
      select (select json_agg(m order by m.id) from (select id, subscription_id, email, status, user_id from subscription_member) m) as members,
             (select count(*)::int from mail_outbox) as mails,
             (select json_agg(c order by c.id) from (select id, voided_at from verification_code) c) as codes`);

  it('sends a pending invitation again through the outbox, then not again within five minutes', async () => {
    const admin = await signIn('admin@firma.test');
    expect(await invitationMails(PENDING_EMAIL)).toEqual([]);

    const sent = await resend(admin, PENDING);
    expect(sent.status, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      message: `Invitasjonen er sendt på nytt til ${PENDING_EMAIL}.`,
      overview: { members: expect.arrayContaining([expect.objectContaining({ id: PENDING, status: 'emailSent' })]) },
    });
    const mails = await invitationMails(PENDING_EMAIL);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Du har fått tilgang til Adresseavisen gjennom jobben');
    expect(mails[0]?.text).toContain(`/bedrift?epost=${encodeURIComponent(PENDING_EMAIL)}`);

    // A second click at once: refused with a clear message, nothing sent.
    offsetMs += 4 * MINUTE;
    const before = await snapshot();
    expectRefused(await resend(admin, PENDING), 429, 'INVITATION_RESEND_TOO_SOON', 'Invitasjonen ble sendt for mindre enn 5 minutter siden. Vent litt før du sender den på nytt.');
    expect(await snapshot()).toEqual(before);

    // Five minutes after the last one it goes again.
    offsetMs += MINUTE + 1_000;
    expect((await resend(admin, PENDING)).status).toBe(200);
    expect(await invitationMails(PENDING_EMAIL)).toHaveLength(2);
  });

  it('counts a fresh invitation as sent: it cannot be sent again at once', async () => {
    const admin = await signIn('admin@firma.test');
    const invited = await admin.request('POST', api('/invitations'), { json: { emails: 'frida@firma.test' } });
    expect(invited.json()).toMatchObject({ sentCount: 1 });
    const id = invited.json<{ overview: Overview }>().overview.members.find((member) => member.email === 'frida@firma.test')?.id ?? '';
    expectRefused(await resend(admin, id), 429, 'INVITATION_RESEND_TOO_SOON');
    expect(await invitationMails('frida@firma.test')).toHaveLength(1);
  });

  it('finds no invitation of another company or another kind, refuses one taken up, and only admins may ask', async () => {
    // Another company's pending invitation (varden's subscription standing in for one), and a family invitation.
    await test.database.rows(
      sql`insert into subscription_member (id, subscription_id, kind, email, status, invited_at) values ('other-company-invitation', 'demo-varden-var', 'business', 'kollega@annet.test', 'emailSent', now())`,
    );
    const admin = await signIn('admin@firma.test');
    const before = await snapshot();
    for (const id of ['other-company-invitation', 'demo-member-familie-invitasjon', 'finnes-ikke']) {
      expectRefused(await resend(admin, id), 404, 'INVITATION_NOT_FOUND', 'Finner ikke invitasjonen. Den kan allerede være trukket tilbake.');
      expectRefused(await withdraw(admin, id), 404, 'INVITATION_NOT_FOUND');
    }
    // ansatt@ has taken the invitation up: that is a removal, not a withdrawal.
    expectRefused(await resend(admin, 'demo-member-ansatt'), 409, 'INVITATION_NOT_PENDING');
    expectRefused(await withdraw(admin, 'demo-member-ansatt'), 409, 'INVITATION_NOT_PENDING');
    // An employee is no admin.
    const ansatt = await signIn('ansatt@firma.test');
    expectRefused(await resend(ansatt, PENDING), 403, 'NOT_BUSINESS_ADMIN');
    expectRefused(await withdraw(ansatt, PENDING), 403, 'NOT_BUSINESS_ADMIN');
    expect(await snapshot()).toEqual(before);
  });

  it('a withdrawn invitation frees its seat, and its link and code no longer work until the address is invited again', async () => {
    const admin = await signIn('admin@firma.test');
    const ny = await signIn('ny@minside.test');
    const start = () => ny.request('POST', api('/verification'), { json: { email: PENDING_EMAIL } });
    const confirm = (code: string) => ny.request('POST', api('/verification/confirm'), { json: { email: PENDING_EMAIL, code } });
    // The invitee has asked for a code from the e-mail's link…
    expect((await start()).status).toBe(200);
    const code = await codeMailedTo(test, PENDING_EMAIL);
    const { used } = (await admin.request('GET', api('/members'))).json<Overview>();

    // …when the admin withdraws the invitation.
    const withdrawn = await withdraw(admin, PENDING);
    expect(withdrawn.status, withdrawn.body).toBe(200);
    const body = withdrawn.json<{ message: string; overview: Overview }>();
    expect(body.message).toBe(`Invitasjonen til ${PENDING_EMAIL} er trukket tilbake. Lenken i e-posten virker ikke lenger.`);
    expect(body.overview.used).toBe(used - 1);
    expect(body.overview.members.map((member) => member.id)).not.toContain(PENDING);
    expect(await test.database.rows(sql`select status from subscription_member where id = ${PENDING}`)).toEqual([{ status: 'withdrawn' }]);

    // The code sent before is void, and no new one is sent for the address.
    expectRefused(await confirm(code), 400, 'INVALID_CODE');
    expectRefused(await start(), 409, 'INVITATION_WITHDRAWN', 'Invitasjonen til denne adressen er trukket tilbake. Kontakt administratoren i bedriften din hvis du skal ha tilgang.');
    expect(await test.database.rows(sql`select s.id from subscription s join account a on a.aria_account_no = s.aria_account_no where a.user_id = 'user-ny'`)).toEqual([]);
    // Gone for resend and withdrawal too.
    expectRefused(await resend(admin, PENDING), 404, 'INVITATION_NOT_FOUND');
    expectRefused(await withdraw(admin, PENDING), 404, 'INVITATION_NOT_FOUND');

    // Invited again (after the resend pause): the same address is pending, and its link works again.
    offsetMs += 10 * MINUTE;
    const again = await admin.request('POST', api('/invitations'), { json: { emails: PENDING_EMAIL } });
    expect(again.json()).toMatchObject({ sentCount: 1, overview: { used } });
    expect(await test.database.rows(sql`select status from subscription_member where id = ${PENDING}`)).toEqual([{ status: 'emailSent' }]);
    expect((await start()).status).toBe(200);
    const confirmed = await confirm(await codeMailedTo(test, PENDING_EMAIL));
    expect(confirmed.status, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ subscription: { subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: 'employee' } } });
  });
});
