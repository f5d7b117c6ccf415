import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultCatalogue } from '@minside/titles';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser } from './browser.ts';
import { expectRefused, signIn as signInAs } from './support.ts';
import { osloToday, systemClock } from '@minside/domain';

// Issue 8 family sharing: SPEC §4 invite results (emailSent, errorSaved, wrongEmailDomain,
// userExist, maxUsersReached, resent), removal results (deleted, failed, notExist) and the
// outcomes of an invitation link (expired, already used, withdrawn, an active subscription,
// failed); every refusal leaves storage as it was.

const PORTAL = 'http://adresseavisen.localhost:3000';
const DAY = 24 * 60 * 60 * 1000;

describe.each(testDatabases)('family sharing ($name)', ({ name }) => {
  let test: TestApp;
  let clockOffset = 0;
  const now = () => new Date(systemClock().getTime() + clockOffset);
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now });
  });
  afterAll(() => test.close());
  beforeEach(async () => {
    clockOffset = 0;
    // Each test is its own hour of invitations: the mail limit is tested on its own below.
    await test.database.rows(sql`delete from rate_limit_counter`);
  });

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  /** Everything family sharing writes: a refusal must leave all of it as it was. */
  const snapshot = async () => ({
    members: await test.database.rows(sql`select id, subscription_id, email, status, user_id, accepted_at from subscription_member order by id`),
    links: await test.database.rows(sql`select token_hash, used_at, replaced_at from family_invitation_link order by token_hash`),
    outbox: await test.database.rows(sql`select id from mail_outbox order by id`),
    subscriptions: await test.database.rows(sql`select id, aria_account_no, inst_status_code, shared_from_subscription_id from subscription order by id`),
    accounts: await test.database.rows(sql`select aria_account_no from account order by aria_account_no`),
  });
  const mailsTo = (to: string) =>
    test.database.rows<{ subject: string; text: string; html: string | null }>(sql`select subject, text, html from mail_outbox where to_address = ${to} order by created_at, id`);
  const linkTokenIn = (text: string) => /\/verifiser-familiemedlem\?token=([\w-]+)/.exec(text)?.[1];
  const latestToken = async (to: string) => {
    const mails = await mailsTo(to);
    const token = linkTokenIn(mails.at(-1)?.text ?? '');
    expect(token, `no invitation link to ${to}`).toBeDefined();
    return token ?? '';
  };
  const overview = async (browser: TestBrowser) => (await browser.request('GET', `${PORTAL}/api/family`)).json<Record<string, unknown>>();
  const invite = (browser: TestBrowser, email: string) => browser.request('POST', `${PORTAL}/api/family/invitations`, { json: { email } });
  const invitationId = async (browser: TestBrowser, email: string) => {
    const found = ((await overview(browser))['invitations'] as { id: string; email: string }[]).find((item) => item.email === email);
    expect(found, `no invitation for ${email}`).toBeDefined();
    return found?.id ?? '';
  };
  const preview = (browser: TestBrowser, token: string) => browser.request('GET', `${PORTAL}/api/family/invitation?token=${encodeURIComponent(token)}`);
  const accept = (browser: TestBrowser, token: string) => browser.request('POST', `${PORTAL}/api/family/invitation/accept`, { json: { token } });

  it('shows the owner the maximum, the remaining places and each invitation state; a member whose subscription they share', async () => {
    const owner = await signIn('familie@minside.test');
    expect(await overview(owner)).toEqual({
      role: 'owner',
      titleName: 'Adresseavisen',
      planName: 'Digital Familie',
      maxMembers: 4,
      remaining: 2,
      invitations: [
        expect.objectContaining({ email: 'familiemedlem@minside.test', status: 'active', acceptedAt: expect.any(String), acceptedBy: null }),
        expect.objectContaining({ email: 'sofie.olsen@minside.test', status: 'emailSent', acceptedAt: null }),
      ],
    });
    const member = await signIn('familiemedlem@minside.test');
    expect(await overview(member)).toMatchObject({ role: 'member', ownerName: 'Per Olsen', planName: 'Digital Familie', since: expect.any(String) });
  });

  it("a member's access follows the owner's: through a running cancellation, and ended once the owner's access is over", async () => {
    const [saved] = await test.database.rows<{ inst_status_code: number; current_period_end: string; resume_status_code: number | null }>(
      sql`select inst_status_code, current_period_end::text as current_period_end, resume_status_code from subscription where id = 'demo-familie-adr'`,
    );
    const session = async (browser: TestBrowser) => (await browser.request('GET', `${PORTAL}/api/session?titleCode=ADR`)).json<{ subscription: Record<string, unknown> | null }>().subscription;
    const inFiveDays = osloToday(new Date(now().getTime() + 5 * DAY));
    try {
      // The owner cancels; it runs for five more days: so does the share.
      await test.database.rows(sql`update subscription set inst_status_code = 2, resume_status_code = 1, current_period_end = ${inFiveDays} where id = 'demo-familie-adr'`);
      const member = await signIn('familiemedlem@minside.test');
      expect(await session(member)).toMatchObject({ instStatusCode: 61, currentPeriodEnd: inFiveDays, sharedFrom: { ownerName: 'Per Olsen' } });
      expect(await overview(member)).toMatchObject({ role: 'member' });

      // Past the owner's last day the owner has no access, and neither has the member (no job has run).
      clockOffset = 7 * DAY;
      const later = await signIn('familiemedlem@minside.test');
      expect(await session(later)).toMatchObject({ instStatusCode: -3, currentPeriodEnd: inFiveDays, sharedFrom: { ownerName: 'Per Olsen' } });
      expect(await overview(later)).toMatchObject({ role: 'none', reason: 'shareEnded', message: 'Delingen er avsluttet. Abonnementet du delte gir ikke lenger tilgang.' });
      clockOffset = 0;

      // An owner terminated long ago: the share ended on the owner's last day.
      await test.database.rows(sql`update subscription set inst_status_code = -3, resume_status_code = null, current_period_end = '2020-01-01' where id = 'demo-familie-adr'`);
      expect(await session(await signIn('familiemedlem@minside.test'))).toMatchObject({ instStatusCode: -3, currentPeriodEnd: '2020-01-01' });
    } finally {
      clockOffset = 0;
      await test.database.rows(
        sql`update subscription set inst_status_code = ${saved?.inst_status_code ?? 1}, resume_status_code = ${saved?.resume_status_code ?? null}, current_period_end = ${saved?.current_period_end ?? ''} where id = 'demo-familie-adr'`,
      );
    }
    // The owner's access is back: so is the member's.
    expect(await session(await signIn('familiemedlem@minside.test'))).toMatchObject({ instStatusCode: 61, currentPeriodEnd: saved?.current_period_end });
  });

  it('cannot share an Ung subscription or one without family sharing, and says why', async () => {
    const ung = await signIn('ung@minside.test');
    expect(await overview(ung)).toEqual({ role: 'none', titleName: 'Adresseavisen', reason: 'ung', message: 'Ung-abonnementet kan ikke deles med andre.' });
    const before = await snapshot();
    expectRefused(await invite(ung, 'venn@minside.test'), 403, 'NOT_SHARING', 'Ung-abonnementet kan ikke deles med andre.');
    const digital = await signIn('digital@minside.test');
    expect(await overview(digital)).toMatchObject({ role: 'none', reason: 'notEligible' });
    expectRefused(await invite(digital, 'venn@minside.test'), 403, 'NOT_SHARING', 'Abonnementet ditt kan ikke deles med familien.');
    // A business employee's shared access is no family share.
    const employee = await signIn('ansatt@firma.test');
    expect(await overview(employee)).toMatchObject({ role: 'none' });
    const anonymous = new TestBrowser(() => injectTransport(test.app));
    expect((await anonymous.request('GET', `${PORTAL}/api/family`)).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses malformed addresses, wrong domains and people who already have access, and changes nothing', async () => {
    const owner = await signIn('familie@minside.test');
    const before = await snapshot();
    expectRefused(await invite(owner, ''), 400, 'VALIDATION_FAILED', 'E-post er påkrevd');
    expectRefused(await invite(owner, 'ikke-en-adresse'), 400, 'VALIDATION_FAILED', 'Vennligst skriv en gyldig e-postadresse');
    // Control characters are a malformed address (a NUL cannot even be stored), never a storage failure.
    // So is anything outside the one address rule (WHATWG, issue 20): brackets, a label that starts with a hyphen.
    for (const email of ['a\u0000b@gmail.com', 'ola\u0007@gmail.com', 'ola@gmail\u007f.com', 'x<ola>@gmail.com', 'ola@-bad-.no']) {
      expectRefused(await invite(owner, email), 400, 'VALIDATION_FAILED', 'Vennligst skriv en gyldig e-postadresse');
    }
    const wrongDomain = 'E-postadressen har et domene som ikke kan ta imot e-post. Sjekk at den er skrevet riktig.';
    for (const email of ['ola@localhost.x1', 'ola@example.com', 'ola@post.invalid', 'ola@mail.c']) {
      expectRefused(await invite(owner, email), 400, 'wrongEmailDomain', wrongDomain);
    }
    const userExist = 'Denne e-postadressen har allerede tilgang, enten gjennom familiedelingen din eller med et eget abonnement.';
    expectRefused(await invite(owner, 'familiemedlem@minside.test'), 409, 'userExist', userExist);
    expectRefused(await invite(owner, 'FAMILIE@minside.test'), 409, 'userExist', userExist);
    expectRefused(await invite(owner, 'papir@minside.test'), 409, 'userExist', userExist);
    expectRefused(await owner.request('DELETE', `${PORTAL}/api/family/invitations/finnes-ikke`, { json: {} }), 404, 'notExist', 'Finner ikke invitasjonen. Den kan allerede være fjernet.');
    // Another subscription's member is "not there" for this owner, exactly like a missing one.
    expectRefused(await owner.request('DELETE', `${PORTAL}/api/family/invitations/demo-member-ansatt`, { json: {} }), 404, 'notExist');
    expectRefused(await owner.request('POST', `${PORTAL}/api/family/invitations/demo-member-bedrift-invitasjon/resend`, { json: {} }), 404, 'notExist');
    expectRefused(await owner.request('POST', `${PORTAL}/api/family/invitations/demo-member-familiemedlem/resend`, { json: {} }), 409, 'userExist');
    expect(await snapshot()).toEqual(before);
  });

  it('invites by e-mail with a Norwegian mail in the title’s colours; inviting again resends and the old link stops working', async () => {
    const owner = await signIn('familie@minside.test');
    const sent = await invite(owner, ' Ny@Minside.test ');
    expect(sent.status, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ result: 'emailSent', message: 'Invitasjonen er sendt til ny@minside.test.', overview: { remaining: 1 } });
    const [mail] = await mailsTo('ny@minside.test');
    expect(mail?.subject).toBe('Per Olsen vil dele Adresseavisen med deg');
    expect(mail?.text).toContain('Per Olsen abonnerer på Adresseavisen og vil dele den digitale tilgangen med deg.');
    expect(mail?.text).toContain(`${PORTAL}/verifiser-familiemedlem?token=`);
    const brand = defaultCatalogue.byTitleCode('ADR').brandColor;
    expect(mail?.html).toContain(`background:${brand}`);
    expect(mail?.html).toContain('>Godta invitasjonen</a>');
    const firstToken = await latestToken('ny@minside.test');

    // /kontakt reads the same rows.
    expect((await owner.request('GET', `${PORTAL}/api/profile`)).json()).toMatchObject({
      sharing: { role: 'owner', maxMembers: 4, members: expect.arrayContaining([{ email: 'ny@minside.test', status: 'emailSent' }]) },
    });

    const again = await invite(owner, 'ny@minside.test');
    expect(again.status, again.body).toBe(200);
    expect(again.json()).toMatchObject({ result: 'resent', message: 'Vi har sendt invitasjonen på nytt til ny@minside.test.', overview: { remaining: 1 } });
    expect(await mailsTo('ny@minside.test')).toHaveLength(2);
    const byId = await owner.request('POST', `${PORTAL}/api/family/invitations/${await invitationId(owner, 'ny@minside.test')}/resend`, { json: {} });
    expect(byId.json()).toMatchObject({ result: 'resent' });
    const token = await latestToken('ny@minside.test');
    expect(token).not.toBe(firstToken);

    const ny = await signIn('ny@minside.test');
    expectRefused(await preview(ny, firstToken), 410, 'expired', 'Invitasjonen er utløpt. Be den som inviterte deg om å sende en ny.');
    const before = await snapshot();
    expectRefused(await accept(ny, firstToken), 410, 'expired');
    expect(await snapshot()).toEqual(before);

    const shown = await preview(ny, token);
    expect(shown.status, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({ ownerName: 'Per Olsen', titleName: 'Adresseavisen', planName: 'Digital Familie', email: 'ny@minside.test' });

    const accepted = await accept(ny, token);
    expect(accepted.status, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      ownerName: 'Per Olsen',
      subscription: { titleCode: 'ADR', eligibleForSharing: false, instStatusCode: 61, priceOre: 0, sharedFrom: { ownerName: 'Per Olsen' }, planProductType: 'DIGITAL' },
    });
    const session = (await ny.request('GET', `${PORTAL}/api/session?titleCode=ADR`)).json();
    expect(session).toMatchObject({ subscription: { sharedFrom: { ownerName: 'Per Olsen' } }, account: { firstTitleCode: 'ADR' } });
    expect(await overview(ny)).toMatchObject({ role: 'member', ownerName: 'Per Olsen' });
    expect(await overview(owner)).toMatchObject({ remaining: 1, invitations: expect.arrayContaining([expect.objectContaining({ email: 'ny@minside.test', status: 'active' })]) });

    const afterAccept = await snapshot();
    expectRefused(await accept(ny, token), 409, 'alreadyUsed', 'Invitasjonen er allerede brukt. Logg inn med brukeren som tok imot den for å lese avisen.');
    expectRefused(await preview(ny, token), 409, 'alreadyUsed');
    expectRefused(await accept(ny, 'gjettet-lenke'), 400, 'failed', 'Noe uventet gikk galt med invitasjonen. Prøv lenken på nytt, eller kontakt kundeservice.');
    expectRefused(await invite(owner, 'ny@minside.test'), 409, 'userExist');
    expect(await snapshot()).toEqual(afterAccept);
  });

  it('stops at the maximum with maxUsersReached; withdrawing frees a place and the withdrawn link says so', async () => {
    const owner = await signIn('familie@minside.test');
    // familiemedlem (active), sofie (sent), ny (active): one place left.
    const fourth = await invite(owner, 'fjerde@minside.test');
    expect(fourth.status, fourth.body).toBe(201);
    expect(fourth.json()).toMatchObject({ overview: { remaining: 0 } });
    const before = await snapshot();
    expectRefused(await invite(owner, 'femte@minside.test'), 409, 'maxUsersReached', 'Du har nådd maksimalt antall familiemedlemmer (4). Fjern en invitasjon eller et medlem før du inviterer flere.');
    expect(await snapshot()).toEqual(before);
    expect(await mailsTo('femte@minside.test')).toEqual([]);

    const token = await latestToken('fjerde@minside.test');
    const withdrawn = await owner.request('DELETE', `${PORTAL}/api/family/invitations/${await invitationId(owner, 'fjerde@minside.test')}`, { json: {} });
    expect(withdrawn.status, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toMatchObject({ result: 'deleted', message: 'Invitasjonen til fjerde@minside.test er trukket tilbake.', overview: { remaining: 1 } });
    const someone = await signIn('utlopt@minside.test');
    expectRefused(await preview(someone, token), 410, 'withdrawn', 'Invitasjonen er trukket tilbake av den som sendte den.');
    expectRefused(await accept(someone, token), 410, 'withdrawn');
  });

  it('sends at most ten invitation e-mails an hour per owner: the next is refused with 429, nothing stored or sent', async () => {
    const owner = await signIn('familie@minside.test');
    const resend = async () => owner.request('POST', `${PORTAL}/api/family/invitations/${await invitationId(owner, 'sofie.olsen@minside.test')}/resend`, { json: {} });
    const mailsBefore = (await mailsTo('sofie.olsen@minside.test')).length;
    // Invites and resends count together: one invite, nine resends.
    const invited = await invite(owner, 'grense@minside.test');
    expect(invited.status, invited.body).toBe(201);
    for (let mail = 2; mail <= 10; mail++) expect((await resend()).status, `e-mail ${mail}`).toBe(200);
    expect(await mailsTo('sofie.olsen@minside.test')).toHaveLength(mailsBefore + 9);

    const before = await snapshot();
    const message = 'Du har sendt mange invitasjoner på kort tid (høyst 10 i timen). Vent litt og prøv igjen.';
    expectRefused(await resend(), 429, 'tooManyInvitations', message);
    expectRefused(await invite(owner, 'ellevte@minside.test'), 429, 'tooManyInvitations', message);
    expect(await snapshot()).toEqual(before);
    expect(await mailsTo('sofie.olsen@minside.test')).toHaveLength(mailsBefore + 9);
    expect(await mailsTo('ellevte@minside.test')).toEqual([]);

    // The next hour has room again (a new login: the old session went idle meanwhile).
    clockOffset = 60 * 60 * 1000;
    const later = await signIn('familie@minside.test');
    const again = await later.request('POST', `${PORTAL}/api/family/invitations/${await invitationId(later, 'sofie.olsen@minside.test')}/resend`, { json: {} });
    expect(again.status, again.body).toBe(200);
    const withdrawn = await later.request('DELETE', `${PORTAL}/api/family/invitations/${await invitationId(later, 'grense@minside.test')}`, { json: {} });
    expect(withdrawn.status, withdrawn.body).toBe(200);
  });

  it('a link expires after seven days', async () => {
    const owner = await signIn('familie@minside.test');
    expect((await invite(owner, 'sen@minside.test')).status).toBe(201);
    const token = await latestToken('sen@minside.test');
    clockOffset = 7 * DAY - 60_000;
    const early = await signIn('utlopt@minside.test');
    expect((await preview(early, token)).status).toBe(200);
    clockOffset = 7 * DAY + 60_000;
    const late = await signIn('utlopt@minside.test');
    const before = await snapshot();
    expectRefused(await preview(late, token), 410, 'expired');
    expectRefused(await accept(late, token), 410, 'expired');
    expect(await snapshot()).toEqual(before);
    clockOffset = 0;
    // Logging in a week ahead swept the owner's session (past its 12 hours then).
    const again = await signIn('familie@minside.test');
    const withdrawn = await again.request('DELETE', `${PORTAL}/api/family/invitations/${await invitationId(again, 'sen@minside.test')}`, { json: {} });
    expect(withdrawn.status).toBe(200);
  });

  it('refuses someone with an active subscription of their own; an expired one becomes the share', async () => {
    const owner = await signIn('familie@minside.test');
    expect((await invite(owner, 'husstand@minside.test')).status).toBe(201);
    const token = await latestToken('husstand@minside.test');
    const papir = await signIn('papir@minside.test');
    const before = await snapshot();
    const activeMessage = 'Det finnes allerede et aktivt abonnement på denne e-postadressen, så du kan ikke bli med i familiedelingen. Si opp abonnementet ditt først, eller kontakt kundeservice.';
    expectRefused(await preview(papir, token), 409, 'activeSubscription', activeMessage);
    expectRefused(await accept(papir, token), 409, 'activeSubscription', activeMessage);
    expectRefused(await accept(owner, token), 409, 'activeSubscription');
    expect(await snapshot()).toEqual(before);

    const utlopt = await signIn('utlopt@minside.test');
    const accepted = await accept(utlopt, token);
    expect(accepted.status, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ subscription: { id: 'demo-utlopt-adr', instStatusCode: 61, sharedFrom: { ownerName: 'Per Olsen' } } });
  });

  it('removes an active member (deleted); their access ends; a failed removal changes nothing', async () => {
    const owner = await signIn('familie@minside.test');
    const id = await invitationId(owner, 'husstand@minside.test');
    await test.database.rows(sql.raw(`create or replace function refuse_member_delete() returns trigger language plpgsql as $$ begin raise exception 'storage refused'; end $$`));
    await test.database.rows(sql.raw(`create trigger refuse_member_delete before delete on subscription_member for each row execute function refuse_member_delete()`));
    const before = await snapshot();
    try {
      expectRefused(await owner.request('DELETE', `${PORTAL}/api/family/invitations/${id}`, { json: {} }), 409, 'failed', 'Vi kunne ikke fjerne dette akkurat nå. Prøv igjen om litt.');
    } finally {
      await test.database.rows(sql.raw(`drop trigger refuse_member_delete on subscription_member`));
    }
    expect(await snapshot()).toEqual(before);

    const removed = await owner.request('DELETE', `${PORTAL}/api/family/invitations/${id}`, { json: {} });
    expect(removed.status, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ result: 'deleted', message: 'husstand@minside.test har ikke lenger tilgang gjennom abonnementet ditt.' });
    // utlopt's own old subscription became the share; it is the user's again, as it was before, with its history.
    const utlopt = await signIn('utlopt@minside.test');
    expect((await utlopt.request('GET', `${PORTAL}/api/session?titleCode=ADR`)).json()).toMatchObject({
      subscription: {
        id: 'demo-utlopt-adr',
        instStatusCode: -2,
        ariaPlanID: 'ADR-DIGITAL-M',
        planName: 'Digital',
        priceOre: 29_900,
        paymentMethod: 'CARD',
        eligibleForSharing: true,
        sharedFrom: null,
      },
    });
    const kinds = (await utlopt.request('GET', `${PORTAL}/api/subscription/40000010/ADR/changes`)).json<{ entries: { kind: string }[] }>().entries.map((entry) => entry.kind);
    expect(kinds).toEqual(expect.arrayContaining(['shareJoined', 'shareEnded']));
    expectRefused(await owner.request('DELETE', `${PORTAL}/api/family/invitations/${id}`, { json: {} }), 404, 'notExist');

    // ny's subscription existed only through the share: it goes, and ny is back to having none.
    const removedNy = await owner.request('DELETE', `${PORTAL}/api/family/invitations/${await invitationId(owner, 'ny@minside.test')}`, { json: {} });
    expect(removedNy.json()).toMatchObject({ result: 'deleted', message: 'ny@minside.test har ikke lenger tilgang gjennom abonnementet ditt.' });
    const ny = await signIn('ny@minside.test');
    expect((await ny.request('GET', `${PORTAL}/api/session?titleCode=ADR`)).json()).toMatchObject({ subscription: null });
    expect(await test.database.rows(sql`select id from subscription s join account a on a.aria_account_no = s.aria_account_no where a.user_id = 'user-ny'`)).toEqual([]);
  });

  it('a member sees whose subscription they share and can leave; /kontakt agrees', async () => {
    const member = await signIn('familiemedlem@minside.test');
    expectRefused(await (await signIn('digital@minside.test')).request('POST', `${PORTAL}/api/family/leave`, { json: {} }), 409, 'NOT_MEMBER', 'Du deler ikke noe abonnement.');
    const left = await member.request('POST', `${PORTAL}/api/family/leave`, { json: {} });
    expect(left.status, left.body).toBe(200);
    expect(left.json()).toMatchObject({ message: 'Du deler ikke lenger abonnementet. Tilgangen din er avsluttet.', subscription: null });
    expect((await member.request('GET', `${PORTAL}/api/profile`)).json()).toMatchObject({ sharing: { role: 'none' } });
    const owner = await signIn('familie@minside.test');
    const invitations = (await overview(owner))['invitations'] as { email: string }[];
    expect(invitations.map((item) => item.email)).not.toContain('familiemedlem@minside.test');
  });

  it('accepting keeps an own ended subscription with its history: leaving gives it back as it was', async () => {
    // ny has an own trial that ran out (no invoices): a former subscriber with a change log.
    await test.database.rows(sql`insert into account (user_id, first_title_code, account_balance_ore) values ('user-ny', 'ADR', 0) on conflict do nothing`);
    await test.database.rows(sql`
      insert into subscription (id, aria_account_no, title_code, aria_plan_id, plan_name, plan_product_type, eligible_for_sharing, inst_status_code, billing_period, price_ore, payment_method, features, started_on, current_period_end)
      select 'test-ny-trial', aria_account_no, 'ADR', 'ADR-DIGITAL-M', 'Digital', 'DIGITAL', true, -2, 'MONTH', 29900, 'CARD',
             '{"plusContent":true,"ePaper":true,"paper":false,"familySharing":false,"thirdPartyBundle":false}'::jsonb, '2025-01-01', '2025-02-01'
      from account where user_id = 'user-ny'`);
    await test.database.rows(
      sql`insert into subscription_change (id, subscription_id, at, actor, kind, from_status_code, to_status_code, details) values ('test-ny-trial-started', 'test-ny-trial', '2025-01-01T10:00:00Z', 'self', 'started', null, 41, '{"planName":"Digital"}'::jsonb)`,
    );
    const owner = await signIn('familie@minside.test');
    expect((await invite(owner, 'ny@minside.test')).status).toBe(201);
    const ny = await signIn('ny@minside.test');
    const accepted = await accept(ny, await latestToken('ny@minside.test'));
    expect(accepted.status, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ subscription: { id: 'test-ny-trial', instStatusCode: 61, sharedFrom: { ownerName: 'Per Olsen' } } });

    const left = await ny.request('POST', `${PORTAL}/api/family/leave`, { json: {} });
    expect(left.status, left.body).toBe(200);
    expect(left.json()).toMatchObject({
      subscription: { id: 'test-ny-trial', instStatusCode: -2, planName: 'Digital', ariaPlanID: 'ADR-DIGITAL-M', currentPeriodEnd: '2025-02-01', startedOn: '2025-01-01', sharedFrom: null },
    });
    const history = await test.database.rows<{ id: string; kind: string }>(sql`select id, kind from subscription_change where subscription_id = 'test-ny-trial' order by at`);
    expect(history.map((row) => row.kind)).toEqual(['started', 'shareJoined', 'shareEnded']);
    expect(history[0]?.id).toBe('test-ny-trial-started');
    // Put ny back to having no subscription, as the seed has it.
    await test.database.rows(sql`delete from subscription_change where subscription_id = 'test-ny-trial'`);
    await test.database.rows(sql`delete from subscription where id = 'test-ny-trial'`);
  });

  it('an invitation link is bearer: the owner sees which login accepted it when that is another address', async () => {
    const owner = await signIn('familie@minside.test');
    expect((await invite(owner, 'videresendt@minside.test')).status).toBe(201);
    const ny = await signIn('ny@minside.test');
    expect((await accept(ny, await latestToken('videresendt@minside.test'))).status).toBe(200);
    const invitations = (await overview(owner))['invitations'] as { email: string; acceptedBy: string | null }[];
    expect(invitations.find((item) => item.email === 'videresendt@minside.test')).toMatchObject({ status: 'active', acceptedBy: 'ny@minside.test' });
    // Not yet accepted, or accepted by the invited address itself: nothing extra to show.
    expect(invitations.filter((item) => item.email !== 'videresendt@minside.test').map((item) => item.acceptedBy)).toEqual(invitations.slice(1).map(() => null));
    expect((await ny.request('POST', `${PORTAL}/api/family/leave`, { json: {} })).status).toBe(200);
  });

  it('answers errorSaved when the invitation cannot be stored, and nothing is kept or sent', async () => {
    const owner = await signIn('familie@minside.test');
    await test.database.rows(sql.raw(`create or replace function refuse_link() returns trigger language plpgsql as $$ begin raise exception 'storage refused'; end $$`));
    await test.database.rows(sql.raw(`create trigger refuse_link before insert on family_invitation_link for each row execute function refuse_link()`));
    const before = await snapshot();
    try {
      expectRefused(await invite(owner, 'lagres-ikke@minside.test'), 409, 'errorSaved', 'Invitasjonen kunne ikke lagres. Prøv igjen om litt.');
    } finally {
      await test.database.rows(sql.raw(`drop trigger refuse_link on family_invitation_link`));
    }
    expect(await snapshot()).toEqual(before);
  });

  it('takes the maximum from configuration when the subscription sets none', async () => {
    await test.database.rows(sql`update subscription set max_members = 0 where id = 'demo-familie-adr'`);
    const app = await buildApp({ config: testConfig({ familyMaxMembers: 2 }), database: test.database, catalogue: defaultCatalogue, now });
    try {
      const browser = new TestBrowser(() => injectTransport(app));
      expect((await login(browser, { portal: PORTAL, email: 'familie@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
      const seen = (await browser.request('GET', `${PORTAL}/api/family`)).json<{ maxMembers: number; remaining: number; invitations: unknown[] }>();
      expect(seen.maxMembers).toBe(2);
      expect(seen.remaining).toBe(Math.max(0, 2 - seen.invitations.length));
      for (let place = 0; place < seen.remaining; place++) {
        expect((await browser.request('POST', `${PORTAL}/api/family/invitations`, { json: { email: `plass${place}@minside.test` } })).status).toBe(201);
      }
      expectRefused(await browser.request('POST', `${PORTAL}/api/family/invitations`, { json: { email: 'en-for-mye@minside.test' } }), 409, 'maxUsersReached', /\(2\)/);
    } finally {
      await app.close();
      await test.database.rows(sql`update subscription set max_members = 4 where id = 'demo-familie-adr'`);
    }
  });
});
