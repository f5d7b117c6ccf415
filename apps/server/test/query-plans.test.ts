import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCatalogue } from '@minside/titles';
import { isValidKid, systemClock } from '@minside/domain';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemoData } from '../src/db/seed.ts';
import { seedLarge } from '../src/db/seed-large.ts';
import { scaleEmailOf } from '../src/db/seed-large-model.ts';
import { hashPassword } from '../src/identity/provider/password.ts';
import { createScratchDatabase, DEMO_PASSWORD, type ScratchDatabase, type TestApp } from './helper.ts';
import { signIn } from './support.ts';
import type { TestBrowser } from './browser.ts';

/**
 * Issue 11, "every hot-path query uses an index": the SQL the app really sends (drizzle's
 * logger, while the endpoints answer) for the login, the session lookup, the home page, the
 * invoice list and the vacation list, each explained on PostgreSQL with sequential scans
 * priced out (`enable_seqscan = off`). A big table read by a Seq Scan, or by a whole-index
 * scan without an index condition, means a missing index: at a million subscribers that
 * query reads every row. PostgreSQL only (PGlite's planner is the same, but the point is the
 * production database); skipped without TEST_DATABASE_URL.
 *
 * The data is the demo users plus a few hundred from `npm run seed:large` (so this also
 * runs the COPY seed end to end), analysed, so the planner sees realistic proportions.
 */

/** Tables that grow with the number of subscribers (or their logins and sessions). */
const bigTables = new Set([
  'idp_account',
  'idp_payload',
  'idp_login_failure',
  'app_user',
  'account',
  'subscription',
  'subscription_member',
  'invoice',
  'delivery_address',
  'delivery_change',
  'delivery_notice_recipient',
  'subscription_change',
  'subscription_period',
  'user_session',
  'login_attempt',
  'payment',
  'payment_agreement',
  'consent_choice',
  'consent_permission_choice',
  'mail_outbox',
]);

interface Captured {
  query: string;
  params: unknown[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** index name → its table and its first column (an index helps only with a condition on that). */
type Indexes = Map<string, { table: string; leading: string }>;

/**
 * Every scan of a big table that reads it whole: a Seq Scan, or an index scan (plain, index
 * only or bitmap) whose condition does not constrain the index's first column.
 */
function fullScans(node: PlanNode, indexes: Indexes, found: string[] = []): string[] {
  const indexName = node['Index Name'];
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] && bigTables.has(node['Relation Name'])) found.push(`Seq Scan on ${node['Relation Name']}`);
  if (indexName && /Index( Only)? Scan/.test(node['Node Type'])) {
    const index = indexes.get(indexName);
    if (index && bigTables.has(index.table)) {
      const condition = node['Index Cond'] ?? '';
      if (!new RegExp(`\\(${index.leading} `).test(condition)) found.push(`${node['Node Type']} on ${index.table} (${indexName}) without a condition on ${index.leading}`);
    }
  }
  for (const child of node.Plans ?? []) fullScans(child, indexes, found);
  return found;
}

/** Every scan in a plan, for QUERY_PLANS_VERBOSE=1. */
function scanSummary(node: PlanNode, found: string[] = []): string[] {
  if (node['Relation Name'] || node['Index Name'])
    found.push(`${node['Node Type']} ${node['Relation Name'] ?? ''}${node['Index Name'] ? ` (${node['Index Name']}${node['Index Cond'] ? ` ${node['Index Cond']}` : ''})` : ''}`);
  for (const child of node.Plans ?? []) scanSummary(child, found);
  return found;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgresUrl)('hot-path queries use indexes (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let database: Database;
  let test: TestApp;
  let explainer: pg.Client;
  let capturing: Captured[] | null = null;
  const indexes: Indexes = new Map();
  const portal = 'http://adresseavisen.localhost:3000';

  beforeAll(async () => {
    scratch = await createScratchDatabase('postgres');
    if (scratch.options.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const url = scratch.options.url;
    database = await createDatabase({ kind: 'postgres', url, logger: { logQuery: (query, params) => capturing?.push({ query, params }) } });
    await migrate(database);
    await seedDemoData(database, { password: DEMO_PASSWORD, now: systemClock });
    await seedLarge({ url, subscribers: 300, append: false, now: systemClock, passwordHash: await hashPassword(DEMO_PASSWORD) });
    const config = testConfig();
    const app = await buildApp({ config, database, catalogue: defaultCatalogue, now: systemClock });
    await app.ready();
    test = { app, database, config, close: async () => {} };
    explainer = new pg.Client({ connectionString: url });
    await explainer.connect();
    const { rows } = await explainer.query<{ index: string; table: string; leading: string }>(`
      select c.relname as index, t.relname as table, a.attname as leading
        from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
        join pg_namespace n on n.oid = t.relnamespace where n.nspname = 'public'`);
    for (const row of rows) indexes.set(row.index, { table: row.table, leading: row.leading });
  }, 120_000);

  afterAll(async () => {
    await explainer?.end();
    await test?.app.close();
    await database?.close();
    await scratch?.dispose();
  });

  /** Runs `action` and returns the read and write statements the app sent meanwhile. */
  async function queriesOf(action: () => Promise<void>): Promise<Captured[]> {
    capturing = [];
    try {
      await action();
      return capturing.filter((entry) => /^\s*(select|update|delete|with|insert)/i.test(entry.query));
    } finally {
      capturing = null;
    }
  }

  async function scansOf(captured: Captured[]): Promise<{ query: string; scans: string[] }[]> {
    const results: { query: string; scans: string[] }[] = [];
    for (const { query, params } of captured) {
      await explainer.query('begin');
      try {
        await explainer.query('set local enable_seqscan = off');
        const { rows } = await explainer.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) ${query}`, params);
        const plan = rows[0]!['QUERY PLAN'][0].Plan;
        if (process.env.QUERY_PLANS_VERBOSE) console.warn(`${query}\n  ${scanSummary(plan).join('; ')}`);
        results.push({ query, scans: fullScans(plan, indexes) });
      } finally {
        await explainer.query('rollback');
      }
    }
    return results;
  }

  async function expectIndexed(captured: Captured[], mustTouch: string[]) {
    expect(captured.length).toBeGreaterThan(0);
    // The capture must have seen the tables the endpoint is about, or it explained the wrong thing.
    for (const table of mustTouch)
      expect(
        captured.some((entry) => entry.query.includes(`"${table}"`)),
        `a query on ${table}`,
      ).toBe(true);
    const offenders = (await scansOf(captured)).filter((result) => result.scans.length > 0);
    expect(offenders, offenders.map((entry) => `${entry.scans.join(', ')}:\n  ${entry.query}`).join('\n')).toEqual([]);
  }

  let browser: TestBrowser;

  it('the seed wrote subscribers with valid KIDs and a row in every table it fills', async () => {
    const [counts] = await database.rows<Record<string, string>>(
      sql`select
        (select count(*) from account where aria_account_no between 10000000 and 10000299) as accounts,
        (select count(*) from invoice where aria_invoice_no >= 1000000000) as invoices,
        (select count(*) from subscription_period where aria_invoice_no >= 1000000000) as periods,
        (select count(*) from delivery_address where subscription_id like 'sub-scale-%') as addresses,
        (select count(*) from subscription_change where subscription_id like 'sub-scale-%') as changes`,
    );
    expect(Number(counts?.accounts)).toBe(300);
    expect(Number(counts?.invoices)).toBeGreaterThanOrEqual(300 * 3);
    expect(counts?.periods).toBe(counts?.invoices);
    expect(Number(counts?.addresses)).toBeGreaterThan(0);
    expect(Number(counts?.changes)).toBeGreaterThanOrEqual(300);
    const kids = await database.rows<{ kid: string; title_code: string }>(
      sql`select kid, title_code from invoice join subscription on subscription.id = invoice.subscription_id where aria_invoice_no >= 1000000000 limit 200`,
    );
    expect(kids.filter(({ kid, title_code }) => !isValidKid(kid, defaultCatalogue.byTitleCode(title_code).bank))).toEqual([]);
  });

  it('login: the provider finds the account by e-mail, the portal the user by identity', async () => {
    const captured = await queriesOf(async () => {
      browser = await signIn(test, portal, 'papir@minside.test');
    });
    await expectIndexed(captured, ['idp_account', 'app_user', 'user_session']);
  }, 60_000);

  it('a generated subscriber can sign in with the demo password', async () => {
    await signIn(test, portal, scaleEmailOf(7));
  }, 60_000);

  it('session lookup (GET /api/session)', async () => {
    const captured = await queriesOf(async () => {
      expect((await browser.request('GET', `${portal}/api/session?titleCode=ADR`)).status).toBe(200);
    });
    await expectIndexed(captured, ['user_session']);
  });

  it("home: the subscription, its change log and the day's delivery notices", async () => {
    const captured = await queriesOf(async () => {
      expect((await browser.request('GET', `${portal}/api/subscription/40000001/ADR`)).status).toBe(200);
      expect((await browser.request('GET', `${portal}/api/subscription/40000001/ADR/changes`)).status).toBe(200);
      expect((await browser.request('GET', `${portal}/api/delivery/notices?titleCode=ADR`)).status).toBe(200);
    });
    await expectIndexed(captured, ['subscription', 'account', 'subscription_change', 'delivery_notice_recipient']);
  });

  it('invoice list (first page and the next)', async () => {
    const captured = await queriesOf(async () => {
      const first = await browser.request('GET', `${portal}/api/invoice/40000001?limit=1`);
      expect(first.status).toBe(200);
      const before = first.json<{ nextBefore: number | null }>().nextBefore;
      expect(before).not.toBeNull();
      expect((await browser.request('GET', `${portal}/api/invoice/40000001?limit=1&before=${before}`)).status).toBe(200);
    });
    await expectIndexed(captured, ['invoice']);
  });

  it('vacation list (GET /api/delivery/changes)', async () => {
    const captured = await queriesOf(async () => {
      expect((await browser.request('GET', `${portal}/api/delivery/changes?titleCode=ADR`)).status).toBe(200);
    });
    await expectIndexed(captured, ['delivery_change']);
  });

  it('the check itself finds full scans: no index to use, or one without its first column', async () => {
    const [noIndex, notLeading] = await scansOf([
      { query: 'select * from invoice where amount_ore = $1', params: [64_900] },
      { query: 'select * from invoice where period_from = $1', params: ['2026-01-01'] },
    ]);
    expect(noIndex?.scans).toEqual(['Seq Scan on invoice']);
    expect(notLeading?.scans).toEqual([expect.stringMatching(/^(Seq Scan on invoice|.*Index.* on invoice \(invoice_account_idx\) without a condition on aria_account_no)$/)]);
  });
});
