import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, isValidKid, osloToday, systemClock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { RENEWAL_LEAD_DAYS } from '../src/modules/billing/jobs.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';

// Issue 27 §4: the renewal run works a page at a time and is restartable. A run that stops between
// pages (a crash, a deploy) has committed the pages before and nothing of the rest; run again, it
// bills every period once: one invoice, one document, one e-mail per period, each period rolled once.

const SUBSCRIBERS = 300;
const PAGE = 40;
/** Every tenth subscription's period began today: it is rolled over as well as invoiced. */
const rolls = (n: number) => n % 10 === 0;
const methods = ['INVOICE', 'AVTALEGIRO', 'CARD', 'VIPPS'] as const;

class Crash extends Error {}

describe.each(testDatabases)('renewal run stopped between pages and run again ($name)', ({ name }) => {
  let test: TestApp;
  const today = osloToday(systemClock());

  beforeAll(async () => {
    test = await buildTestApp(name);
    await test.database.rows(sql`insert into plan (aria_plan_id, title_code, name, description, plan_product_type, billing_period, price_ore, features)
      values ('ADR-DIGITAL-M', 'ADR', 'Digital', 'Alt innhold på nett', 'DIGITAL', 'MONTH', 29900, '{"plusContent":true,"ePaper":true,"paper":false,"familySharing":false,"thirdPartyBundle":false}')`);
    // SUBSCRIBERS monthly ADR subscriptions with periods ending over the lead (n % 10 = 0: today), none invoiced yet.
    const series = sql.raw(`generate_series(1, ${SUBSCRIBERS}) n`);
    await test.database.rows(sql`insert into app_user (id, identity_sub, email, given_name, family_name, created_at)
      select 'restart-user-' || n, 'restart-sub-' || n, 'restart' || n || '@example.test', 'Kari', 'Nordmann', now() from ${series}`);
    await test.database.rows(sql`insert into account (aria_account_no, user_id, first_title_code, created_at) select 70000000 + n, 'restart-user-' || n, 'ADR', now() from ${series}`);
    await test.database.rows(sql`insert into subscription (id, aria_account_no, title_code, aria_plan_id, plan_name, plan_product_type, eligible_for_sharing, inst_status_code,
        billing_period, price_ore, payment_method, features, started_on, current_period_end, created_at)
      select 'restart-' || lpad(n::text, 4, '0'), 70000000 + n, 'ADR', 'ADR-DIGITAL-M', 'Digital', 'DIGITAL', true, 1, 'MONTH', 29900,
        (array[${sql.join(
          methods.map((method) => sql`${method}`),
          sql`, `,
        )}])[1 + n % 4],
        '{"plusContent":true,"ePaper":true,"paper":false,"familySharing":false,"thirdPartyBundle":false}',
        ${today}::date - 200, case when n % 10 = 0 then ${today}::date else ${today}::date + 1 + n % ${RENEWAL_LEAD_DAYS} end, now()
      from ${series}`);
  });
  afterAll(() => test.close());

  const ours = sql`subscription_id like 'restart-%'`;
  const count = async (query: ReturnType<typeof sql>) => Number((await test.database.rows<{ n: number | string }>(query))[0]?.n);

  it('a run stopped after two pages has billed those pages only; run again, every period has one invoice, one document, one e-mail, and is rolled once', async () => {
    let pages = 0;
    const stopped = test.app.billingJobs.runRenewals({
      pageSize: PAGE,
      onBatch: (step) => {
        if (step === 'issue' && ++pages === 2) throw new Crash('stopped between pages');
      },
    });
    await expect(stopped).rejects.toBeInstanceOf(Crash);
    const afterStop = await count(sql`select count(*) as n from invoice where ${ours}`);
    expect(afterStop).toBeGreaterThan(0);
    expect(afterStop).toBeLessThan(SUBSCRIBERS);
    // Nothing half-written: each period claimed by the stopped run has its invoice.
    expect(await count(sql`select count(*) as n from subscription_period where ${ours} and aria_invoice_no is null`)).toBe(0);

    const rerun = await test.app.billingJobs.runRenewals({ pageSize: PAGE });
    expect(rerun.invoicesIssued).toBe(SUBSCRIBERS - afterStop);

    // One invoice per subscription: the period its current end begins (the end before the roll for those rolled today).
    const invoices = await test.database.rows<{ id: string; period_from: string; kid: string; n: number | string }>(sql`
      select subscription_id as id, period_from::text as period_from, min(kid) as kid, count(*) as n from invoice where ${ours} group by subscription_id, period_from order by subscription_id`);
    expect(invoices).toHaveLength(SUBSCRIBERS);
    expect(invoices.filter((row) => Number(row.n) !== 1)).toEqual([]);
    for (const row of invoices) {
      const n = Number(row.id.slice('restart-'.length));
      expect(row.period_from, row.id).toBe(rolls(n) ? today : addDays(today, 1 + (n % RENEWAL_LEAD_DAYS)));
      expect(isValidKid(row.kid, defaultCatalogue.byTitleCode('ADR').bank), row.id).toBe(true);
    }
    expect(await count(sql`select count(*) as n from subscription_period where ${ours}`)).toBe(SUBSCRIBERS);
    expect(await count(sql`select count(*) as n from subscription_period p where ${ours} and not exists (select 1 from invoice i where i.aria_invoice_no = p.aria_invoice_no)`)).toBe(0);
    expect(await count(sql`select count(*) as n from billing_document d join invoice i on i.aria_invoice_no = d.aria_invoice_no where i.subscription_id like 'restart-%' and d.kind = 'INVOICE'`)).toBe(
      SUBSCRIBERS,
    );
    // The e-mail goes where the payer acts: giro and AvtaleGiro (no card or Vipps agreement is stored here, so those too), once each.
    expect(await count(sql`select count(*) as n from mail_outbox m join invoice i on m.idempotency_key = 'invoice-issued:' || i.aria_invoice_no where i.subscription_id like 'restart-%'`)).toBe(
      SUBSCRIBERS,
    );

    // Rolled once: a month on from today, whichever run rolled it.
    const rolled = await test.database.rows<{ id: string; end: string }>(
      sql`select id, current_period_end::text as "end" from subscription where id like 'restart-%' and current_period_end > ${addDays(today, RENEWAL_LEAD_DAYS)} order by id`,
    );
    expect(rolled.map((row) => row.id)).toEqual(invoices.filter((row) => rolls(Number(row.id.slice('restart-'.length)))).map((row) => row.id));
    expect(new Set(rolled.map((row) => row.end))).toEqual(new Set([addMonths(today, 1)]));

    // A third run finds nothing left to do.
    const third = await test.app.billingJobs.runRenewals({ pageSize: PAGE });
    expect(third.invoicesIssued).toBe(0);
    expect(third.periodsRolled).toBe(0);
    expect(await count(sql`select count(*) as n from invoice where ${ours}`)).toBe(SUBSCRIBERS);
  });
});
