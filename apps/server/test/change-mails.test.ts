import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatKroner, formatLongDate, formatWeekdayDate, lastDayWithAccess, manualClock, priceOn, type Plan } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { answerAtVipps, countOf, expectRefused, issueDaysOf, signIn } from './support.ts';

// Issue 25.7: every change a subscriber makes to the subscription or its delivery is confirmed by
// e-mail, queued with the change, from the title's sender, with its dates, its amount and a
// reference. Each change is made through the API as the subscriber, then the outbox is read.

const PORTAL = 'http://adresseavisen.localhost:3000';
// Monday 7 December 2026, a quarter past midnight in Oslo (CET): the mails say "7. desember 2026 kl. 00.15".
const AT = '2026-12-06T23:15:00Z';
const REGISTERED = 'Registrert 7. desember 2026 kl. 00.15.';
const accounts = { papir: 40_000_001, digital: 40_000_002, ung: 40_000_003, student: 40_000_008, oppsagt: 40_000_009, utlopt: 40_000_010 } as const;
const adr = defaultCatalogue.byTitleCode('ADR');

interface OutboxRow {
  subject: string;
  text: string;
  html: string | null;
  from_name: string | null;
  reply_to: string | null;
  title_code: string | null;
}

describe.each(testDatabases)('confirmation e-mails of changes ($name)', ({ name }) => {
  let test: TestApp;
  const clock = manualClock(AT);

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now: clock });
  }, 180_000); // A seeded app: on a loaded 2-core machine more than the default minute.
  afterAll(() => test?.close());

  /** The mails of one kind to `to`, oldest first; amounts' no-break spaces read as plain ones. */
  const mailsOf = async (to: string, kind: string) =>
    (await test.database.rows<OutboxRow>(sql`select subject, text, html, from_name, reply_to, title_code from mail_outbox where to_address = ${to} and kind = ${kind} order by created_at, id`)).map(
      (mail) => ({
        ...mail,
        text: mail.text.replace(/\u00a0/g, ' '),
        html: (mail.html ?? '').replace(/\u00a0/g, ' '),
      }),
    );
  /** The one mail of this kind to `to` whose subject is `subject`. */
  const onlyMail = async (to: string, kind: string, subject: string) => {
    const mails = (await mailsOf(to, kind)).filter((mail) => mail.subject === subject);
    expect(mails, `one "${subject}" to ${to}`).toHaveLength(1);
    const [mail] = mails;
    if (!mail) throw new Error('no mail');
    // From the title's sender, answered by its customer centre, with an HTML part saying the same.
    expect(mail).toMatchObject({ from_name: 'Adresseavisen', reply_to: adr.customerCenterEmail, title_code: 'ADR' });
    expect(mail.html).toContain('<h1');
    return mail;
  };
  const periodEndOf = async (accountNo: number) =>
    String((await test.database.rows<{ end: string }>(sql`select current_period_end::text as "end" from subscription where aria_account_no = ${accountNo} and title_code = 'ADR'`))[0]?.end);
  const subscriptionPath = (accountNo: number, action: string) => `${PORTAL}/api/subscription/${accountNo}/ADR/${action}`;
  const cancel = (accountNo: number) => ({ ariaAccountNo: accountNo, titleCode: 'ADR', actionType: 'CANCELLATION', reasonCode: 'PRICE' });

  it('cancel, then undo: the last day with access and the way back, then that it goes on and when it renews', async () => {
    const browser = await signIn(test, PORTAL, 'digital@minside.test');
    const end = await periodEndOf(accounts.digital);
    const lastDay = formatLongDate(lastDayWithAccess(end));
    const response = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, { json: cancel(accounts.digital) });
    expect(response.status, response.body).toBe(200);

    const cancelled = await onlyMail('digital@minside.test', 'subscriptionCancelled', 'Adresseavisen: oppsigelsen er registrert');
    for (const part of [cancelled.text, cancelled.html]) {
      expect(part).toContain('Hei Ola!');
      expect(part).toContain('Du sa opp Digital 7. desember 2026 kl. 00.15.');
      expect(part).toContain(`Du har abonnementet og tilgangen til og med ${lastDay}.`);
      expect(part).toContain(`Du kan angre oppsigelsen på Min Side til og med ${lastDay}.`);
      expect(part).toContain(`Oppgi kundenummer ${accounts.digital}.`);
    }
    expect(cancelled.text).toContain(`${PORTAL}/angre-oppsigelse`);
    expect(cancelled.text).toContain(REGISTERED);

    const undo = await browser.request('POST', subscriptionPath(accounts.digital, 'undo-cancellation'), { json: {} });
    expect(undo.status, undo.body).toBe(200);
    const undone = await onlyMail('digital@minside.test', 'cancellationUndone', 'Adresseavisen: oppsigelsen er angret');
    expect(undone.text).toContain('Du angret oppsigelsen av Digital 7. desember 2026 kl. 00.15. Abonnementet fortsetter som før.');
    expect(undone.text).toContain(`Neste fornyelse er ${formatLongDate(end)}.`);
    expect(undone.text).toContain(`Oppgi kundenummer ${accounts.digital}.`);

    // A refused change mails nothing.
    const before = await countOf(test, sql`select count(*) as n from mail_outbox`);
    expectRefused(await browser.request('POST', subscriptionPath(accounts.digital, 'undo-cancellation'), { json: {} }), 409, 'TRANSITION_NOT_ALLOWED');
    expect(await countOf(test, sql`select count(*) as n from mail_outbox`)).toBe(before);
  });

  it('a change whose transaction fails sends nothing: the mail is queued with the change, not after it', async () => {
    const browser = await signIn(test, PORTAL, 'ung@minside.test');
    const before = await countOf(test, sql`select count(*) as n from mail_outbox`);
    // The survey row is written after the mail is queued, in the same transaction.
    await test.database.rows(sql.raw(`create or replace function refuse_survey() returns trigger language plpgsql as $$ begin raise exception 'storage refused'; end $$`));
    await test.database.rows(sql.raw(`create trigger refuse_survey before insert on cancellation_survey for each row execute function refuse_survey()`));
    try {
      const response = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, { json: cancel(accounts.ung) });
      expect(response.status).toBeGreaterThanOrEqual(500);
    } finally {
      await test.database.rows(sql.raw(`drop trigger refuse_survey on cancellation_survey`));
    }
    expect(await countOf(test, sql`select count(*) as n from mail_outbox`)).toBe(before);
    expect(await countOf(test, sql`select inst_status_code as n from subscription where aria_account_no = ${accounts.ung} and title_code = 'ADR'`)).toBe(1);
  });

  it('no confirmation to an address the holder has not proven; the change itself stands', async () => {
    // After the login: signing in at the embedded provider proves the address again.
    const browser = await signIn(test, PORTAL, 'ung@minside.test');
    await test.database.rows(sql`update app_user set email_verified_at = null where email = 'ung@minside.test'`);
    try {
      const response = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, { json: cancel(accounts.ung) });
      expect(response.status, response.body).toBe(200);
      expect(response.json()).toMatchObject({ subscription: { instStatusCode: 2 } });
      expect(await mailsOf('ung@minside.test', 'subscriptionCancelled')).toEqual([]);
    } finally {
      await test.database.rows(sql`update app_user set email_verified_at = now() where email = 'ung@minside.test'`);
    }
  });

  it('a retention offer taken instead: what it gives and until when', async () => {
    const browser = await signIn(test, PORTAL, 'digital@minside.test');
    const end = await periodEndOf(accounts.digital);
    const response = await browser.request('DELETE', `${PORTAL}/api/deleteSubscription`, {
      json: { ...cancel(accounts.digital), actionType: 'REPLACEMENT-ANN', offerCode: 'WINBACK_3_FOR_1', reasonCode: 'NOT_READING' },
    });
    expect(response.status, response.body).toBe(200);
    const mail = await onlyMail('digital@minside.test', 'retentionOfferAccepted', 'Adresseavisen: du har takket ja til tilbudet');
    expect(mail.text).toContain('Du takket ja til «3 måneder for prisen av 1» 7. desember 2026 kl. 00.15, i stedet for å si opp Digital.');
    expect(mail.text).toContain(`Den betalte perioden din varer nå til og med ${formatLongDate(lastDayWithAccess(await periodEndOf(accounts.digital)))}`);
    expect(await periodEndOf(accounts.digital)).not.toBe(end);
  });

  it('plan changes: an upgrade with its top-up invoice, a downgrade with the price that will apply, and a withdrawn one', async () => {
    const student = await signIn(test, PORTAL, 'student@minside.test');
    const end = await periodEndOf(accounts.student);
    const upgraded = await student.request('POST', subscriptionPath(accounts.student, 'plan'), { json: { ariaPlanID: 'ADR-DIGITAL-M' } });
    expect(upgraded.status, upgraded.body).toBe(200);
    const { quote, plan } = upgraded.json<{ quote: { amountOre: number }; plan: Plan }>();
    expect(quote.amountOre).toBeGreaterThan(0);
    const [invoice] = await test.database.rows<{ no: number; due: string }>(
      sql`select aria_invoice_no as no, due_on::text as due from invoice where aria_account_no = ${accounts.student} order by aria_invoice_no desc limit 1`,
    );
    const upgrade = await onlyMail('student@minside.test', 'planChanged', 'Adresseavisen: du har byttet til Digital');
    expect(upgrade.text).toContain('Du byttet fra Student digital til Digital 7. desember 2026 kl. 00.15.');
    expect(upgrade.text).toContain(
      `For resten av perioden, til og med ${formatLongDate(lastDayWithAccess(end))}, betaler du mellomlegget: ${formatKroner(quote.amountOre).replace(/\u00a0/g, ' ')}, på faktura ${invoice?.no} med forfall ${formatLongDate(String(invoice?.due))}.`,
    );
    expect(upgrade.text).toContain(`Fra ${formatLongDate(end)} koster Digital ${formatKroner(priceOn(plan, end)).replace(/\u00a0/g, ' ')} per måned.`);
    expect(upgrade.text).toContain(`Oppgi fakturanummer ${invoice?.no}.`);

    const papir = await signIn(test, PORTAL, 'papir@minside.test');
    const papirEnd = await periodEndOf(accounts.papir);
    const downgraded = await papir.request('POST', subscriptionPath(accounts.papir, 'plan'), { json: { ariaPlanID: 'ADR-DIGITAL-M' } });
    expect(downgraded.status, downgraded.body).toBe(200);
    const digitalPlan = downgraded.json<{ plan: Plan }>().plan;
    const downgrade = await onlyMail('papir@minside.test', 'planChanged', 'Adresseavisen: byttet til Digital er bestilt');
    expect(downgrade.text).toContain('Du bestilte 7. desember 2026 kl. 00.15 å bytte fra Komplett til Digital.');
    expect(downgrade.text).toContain(`Byttet skjer ${formatLongDate(papirEnd)}. Til og med ${formatLongDate(lastDayWithAccess(papirEnd))} har du Komplett som før, og du betaler ikke noe nå.`);
    // The price on the day of the change, an announced increase included (issue 25.3).
    expect(downgrade.text).toContain(`Fra ${formatLongDate(papirEnd)} koster Digital ${formatKroner(priceOn(digitalPlan, papirEnd)).replace(/\u00a0/g, ' ')} per måned.`);
    expect(downgrade.text).toContain(`Oppgi kundenummer ${accounts.papir}.`);

    const withdrawn = await papir.request('POST', subscriptionPath(accounts.papir, 'plan'), { json: { ariaPlanID: 'ADR-KOMPLETT-M' } });
    expect(withdrawn.status, withdrawn.body).toBe(200);
    const kept = await onlyMail('papir@minside.test', 'planChanged', 'Adresseavisen: byttet til Digital er trukket tilbake');
    expect(kept.text).toContain('Du trakk tilbake byttet til Digital 7. desember 2026 kl. 00.15. Du beholder Komplett som før.');
  });

  it('payment method: giro at once, AvtaleGiro with the KID to confirm in the netbank, and a Vipps agreement once approved', async () => {
    const papir = await signIn(test, PORTAL, 'papir@minside.test');
    const put = (method: string) =>
      papir.request('PUT', `${PORTAL}/api/subscription/paymentMethod`, { json: { ariaAccountNo: accounts.papir, titleCode: 'ADR', idempotencyKey: randomUUID(), method } });
    const renewal = `Neste fornyelse er ${formatLongDate(await periodEndOf(accounts.papir))}.`;
    const subject = 'Adresseavisen: betalingsmåten er endret';

    expect((await put('BANKGIRO')).status).toBe(200);
    const [giro] = (await mailsOf('papir@minside.test', 'paymentMethodChanged')).filter((mail) => mail.text.includes('Ny betalingsmåte: Giro / eFaktura'));
    expect(giro?.subject).toBe(subject);
    expect(giro?.text).toContain('Fra nå av får du fakturaene for Komplett som giro eller eFaktura, og betaler dem selv i nettbanken med KID og kontonummer.');
    expect(giro?.text).toContain(renewal);
    expect(giro?.text).toContain(REGISTERED);
    // The same choice again is no change, and no mail.
    expect((await put('BANKGIRO')).status).toBe(200);
    expect(await mailsOf('papir@minside.test', 'paymentMethodChanged')).toHaveLength(1);

    const avtaleGiro = (await put('AVTALEGIRO')).json<{ paymentMethod: { avtaleGiro: { kid: string; status: string } } }>().paymentMethod.avtaleGiro;
    const [mandate] = (await mailsOf('papir@minside.test', 'paymentMethodChanged')).filter((mail) => mail.text.includes('Ny betalingsmåte: AvtaleGiro'));
    expect(mandate?.subject).toBe(subject);
    if (avtaleGiro.status === 'ACTIVE') expect(mandate?.text).toContain('Fra nå av betaler du Komplett med AvtaleGiro');
    else expect(mandate?.text).toContain(`Avtalen blir ikke aktiv før du har bekreftet den i nettbanken din, med KID ${avtaleGiro.kid}.`);

    const flow = (await put('VIPPS')).json<{ paymentId: string; redirectUrl: string }>();
    // Not yet approved: nothing is confirmed.
    expect((await mailsOf('papir@minside.test', 'paymentMethodChanged')).filter((mail) => mail.text.includes('Vipps'))).toEqual([]);
    expect(await answerAtVipps(test, flow.redirectUrl, 'approve')).toBe(`/endre-betalingsmetode/verify?paymentId=${flow.paymentId}`);
    const [vipps] = (await mailsOf('papir@minside.test', 'paymentMethodChanged')).filter((mail) => mail.text.includes('Ny betalingsmåte: Vipps'));
    expect(vipps?.subject).toBe(subject);
    expect(vipps?.text).toContain('Fra nå av betaler du Komplett med Vipps.');
    expect(vipps?.text).toContain(renewal);
    expect(vipps?.text).toContain(`Oppgi kundenummer ${accounts.papir}.`);
  });

  it('reactivation: the new period and its price', async () => {
    const browser = await signIn(test, PORTAL, 'utlopt@minside.test');
    const response = await browser.request('POST', `${PORTAL}/api/reactivateSubscription/`, { json: { ariaAccountNo: accounts.utlopt, titleCode: 'ADR', email: 'utlopt@minside.test' } });
    expect(response.status, response.body).toBe(200);
    const [row] = await test.database.rows<{ plan: string; price: number }>(
      sql`select plan_name as plan, price_ore as price from subscription where aria_account_no = ${accounts.utlopt} and title_code = 'ADR'`,
    );
    const mail = await onlyMail('utlopt@minside.test', 'subscriptionReactivated', 'Adresseavisen: abonnementet er startet igjen');
    expect(mail.text).toContain(`Du startet ${row?.plan} igjen 7. desember 2026 kl. 00.15.`);
    expect(mail.text).toContain(
      `Den nye perioden varer til og med ${formatLongDate(lastDayWithAccess(await periodEndOf(accounts.utlopt)))}, og prisen er ${formatKroner(Number(row?.price)).replace(/\u00a0/g, ' ')}`,
    );
  });

  describe('delivery', () => {
    const delivery = (path: string) => `${PORTAL}/api/delivery${path}?titleCode=ADR`;
    const days = () => issueDaysOf('ADR', clock());

    it('a vacation stop placed, changed and deleted: the issues, when the paper comes back, until when it can be changed', async () => {
      const papir = await signIn(test, PORTAL, 'papir@minside.test');
      const { issueAfter, firstChangeable, calendar } = days();
      const from = issueAfter(firstChangeable, 6);
      const to = issueAfter(from, 3);
      const placed = await papir.request('POST', delivery('/changes'), { json: { type: 'STOP', fromDate: from, toDate: to, address: null } });
      expect(placed.status, placed.body).toBe(201);
      const { id, resumesOn } = placed.json<{ id: string; resumesOn: string }>();

      const stop = await onlyMail('papir@minside.test', 'deliveryChanged', 'Adresseavisen: stopp av avisen er registrert');
      for (const part of [stop.text, stop.html]) {
        expect(part).toContain('Hei Kari!');
        expect(part).toContain(`Papiravisen stoppes fra og med ${formatWeekdayDate(from)} til og med ${formatWeekdayDate(to)} (4 aviser).`);
        expect(part).toContain(`Avisen kommer igjen ${formatWeekdayDate(resumesOn, 'dayMonth')}.`);
        expect(part).toContain(`Du kan endre eller slette den på Min Side til ${formatWeekdayDate(addDays(from, -1))} kl. 12.00.`);
        expect(part).toContain(`Oppgi kundenummer ${accounts.papir}.`);
      }
      expect(stop.text).toContain(`${PORTAL}/endre-avislevering`);

      const later = issueAfter(to, 2);
      clock.advance(60_000);
      const changed = await papir.request('PUT', `${PORTAL}/api/delivery/changes/${id}?titleCode=ADR`, { json: { type: 'STOP', fromDate: from, toDate: later, address: null } });
      expect(changed.status, changed.body).toBe(200);
      const update = await onlyMail('papir@minside.test', 'deliveryChanged', 'Adresseavisen: stopp av avisen er endret');
      expect(update.text).toContain(
        `Papiravisen stoppes fra og med ${formatWeekdayDate(from)} til og med ${formatWeekdayDate(later)} (${calendar.publicationDaysBetween(from, later).length} aviser).`,
      );
      expect(update.text).toContain('Registrert 7. desember 2026 kl. 00.16.');

      const deleted = await papir.request('DELETE', `${PORTAL}/api/delivery/changes/${id}?titleCode=ADR`, { json: {} });
      expect(deleted.status, deleted.body).toBe(200);
      const gone = await onlyMail('papir@minside.test', 'deliveryChanged', 'Adresseavisen: stopp av avisen er slettet');
      expect(gone.text).toContain(`Du slettet stopp av avisen fra og med ${formatWeekdayDate(from)} til og med ${formatWeekdayDate(later)}`);
      expect(gone.text).toContain('Avisen kommer som vanlig.');
    });

    it('a redirect to another address, and a move (the new delivery address): the address and from when', async () => {
      const papir = await signIn(test, PORTAL, 'papir@minside.test');
      const { issueAfter, firstChangeable } = days();
      const from = issueAfter(firstChangeable, 20);
      const to = issueAfter(from, 1);
      const address = { name: 'Kari Nordmann', street: 'Storgata', streetNumber: '1', postalCode: '0150' };
      const placed = await papir.request('POST', delivery('/changes'), { json: { type: 'TRANSFER', fromDate: from, toDate: to, address } });
      expect(placed.status, placed.body).toBe(201);
      const redirect = await onlyMail('papir@minside.test', 'deliveryChanged', 'Adresseavisen: omadressering av avisen er registrert');
      expect(redirect.text).toContain(`Papiravisen sendes fra og med ${formatWeekdayDate(from)} til og med ${formatWeekdayDate(to)} (2 aviser) til Kari Nordmann, Storgata 1, 0150 Oslo.`);
      expect(redirect.text).toContain('Avisen kommer til den vanlige adressen igjen');

      const moveOn = issueAfter(to, 10);
      const moved = await papir.request('POST', delivery('/address'), {
        json: { fromDate: moveOn, address: { name: 'Kari Nordmann', coName: 'Hansen', street: 'Storgata', streetNumber: '5', postalCode: '0150' } },
      });
      expect(moved.status, moved.body).toBe(201);
      const move = await onlyMail('papir@minside.test', 'deliveryChanged', 'Adresseavisen: adresseendringen er registrert');
      expect(move.text).toContain(`Fra og med ${formatWeekdayDate(moveOn)} kommer papiravisen til Kari Nordmann, c/o Hansen, Storgata 5, 0150 Oslo.`);
      expect(move.text).toContain(`${PORTAL}/leveringsadresse`);
      expect(move.text).toContain(`Oppgi kundenummer ${accounts.papir}.`);
    });

    it('a complaint: its case number, the days, and the remedy asked for', async () => {
      const papir = await signIn(test, PORTAL, 'papir@minside.test');
      const options = (await papir.request('GET', delivery('/complaints/options'))).json<{ days: string[]; remedies: string[] }>();
      const reported = options.days.slice(0, 2);
      const response = await papir.request('POST', delivery('/complaints'), { json: { code: 'MISSING', days: reported, remedy: 'EXTENSION' } });
      expect(response.status, response.body).toBe(201);
      const { caseNumber } = response.json<{ caseNumber: string }>();
      expect(caseNumber).toMatch(/^RK-\d+$/);
      const mail = await onlyMail('papir@minside.test', 'complaintReceived', `Adresseavisen: vi har fått beskjeden din om avisen (${caseNumber})`);
      const [older = '', newer = ''] = [...reported].sort();
      for (const part of [mail.text, mail.html]) {
        expect(part).toContain(`Saksnummer: ${caseNumber}.`);
        expect(part).toContain(`Du meldte fra om: Avisen kom ikke, ${formatWeekdayDate(older, 'dayMonth')} og ${formatWeekdayDate(newer)}.`);
        expect(part).toContain('Du ba om å få abonnementet forlenget med én dag per avis.');
        expect(part).toContain(`Oppgi saksnummer ${caseNumber}.`);
      }
    });

    it('a stop that has begun, ended early: the new last day and when the paper comes back', async () => {
      const { issueAfter, firstChangeable, calendar } = days();
      const papir = await signIn(test, PORTAL, 'papir@minside.test');
      const from = firstChangeable;
      const placed = await papir.request('POST', delivery('/changes'), { json: { type: 'STOP', fromDate: from, toDate: issueAfter(from, 8), address: null } });
      expect(placed.status, placed.body).toBe(201);
      const { id } = placed.json<{ id: string }>();
      try {
        // Its first issue has passed: deleting it now ends it as early as the cutoff allows.
        clock.set(`${issueAfter(from, 1)}T10:00:00Z`);
        const later = await signIn(test, PORTAL, 'papir@minside.test');
        const ended = await later.request('DELETE', `${PORTAL}/api/delivery/changes/${id}?titleCode=ADR`, { json: {} });
        expect(ended.status, ended.body).toBe(200);
        const { toDate, resumesOn } = ended.json<{ change: { toDate: string; resumesOn: string } }>().change;
        expect(calendar.nextPublicationDay(addDays(toDate, 1))).toBe(resumesOn);
        const mail = await onlyMail('papir@minside.test', 'deliveryChanged', 'Adresseavisen: stopp av avisen avsluttes tidligere');
        expect(mail.text).toContain(`Stopp av avisen avsluttes tidligere enn planlagt. Siste dag er nå ${formatWeekdayDate(toDate)}.`);
        expect(mail.text).toContain(`Avisen kommer igjen ${formatWeekdayDate(resumesOn, 'dayMonth')}.`);
      } finally {
        clock.set(AT);
      }
    });
  });
});
