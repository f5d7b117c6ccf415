import { createHash } from 'node:crypto';
import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { addDays, osloToday, type Clock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { invoiceCountOf, SCALE_ACCOUNT_BASE, SCALE_ACCOUNT_LIMIT, SCALE_INVOICE_BASE, scaleSubscriber, type ScaleContext, type ScaleSubscriber } from './seed-large-model.ts';

/**
 * `npm run seed:large` (issue 11): many realistic subscribers into PostgreSQL with COPY, one
 * pass per table over generated subscribers (seed-large-model.ts), all in one transaction so
 * a failed run leaves nothing behind. On a fresh database the foreign keys and secondary
 * indexes of the filled tables are dropped first and rebuilt after the COPY (one sort per
 * index instead of a million b-tree inserts, one join per foreign key instead of a lookup per
 * row); with `append` they stay, and rows go through them.
 */

export interface SeedLargeOptions {
  url: string;
  subscribers: number;
  /** Add to the generated subscribers already there instead of refusing a non-empty database. */
  append: boolean;
  /** The scrypt hash every generated login shares (computed once by the caller). */
  passwordHash: string;
  /** Keep the indexes and foreign keys during COPY even on a fresh database (to compare). */
  keepIndexes?: boolean;
  /** The clock the seed's dates are relative to: the process's, or a test's. */
  now: Clock;
  log?: (line: string) => void;
}

export interface SeedLargeResult {
  firstIndex: number;
  subscribers: number;
  rows: Record<string, number>;
  seconds: { copy: number; indexes: number; analyze: number; total: number };
  databaseBytes: number;
}

/** The tables this seed writes: their foreign keys and secondary indexes are rebuilt after COPY. */
const scaleTables = ['idp_account', 'app_user', 'account', 'subscription', 'delivery_address', 'invoice', 'subscription_period', 'subscription_change', 'delivery_change', 'user_session'];

/** COPY text format: backslash, tab and line breaks are the only characters to escape. */
function text(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : value;
}

const line = (values: (string | number | boolean | null)[]) => `${values.map(text).join('\t')}\n`;

interface Pass {
  table: string;
  columns: string[];
  withInvoices?: boolean;
  rows: (subscriber: ScaleSubscriber, push: (values: (string | number | boolean | null)[]) => void) => void;
}

function scalePasses(passwordHash: string, seededAt: string): Pass[] {
  return [
    {
      table: 'idp_account',
      columns: ['id', 'email', 'email_verified', 'password_hash', 'given_name', 'family_name', 'phone_number', 'created_at'],
      rows: (s, push) => push([s.identityId, s.email, true, passwordHash, s.givenName, s.familyName, s.phoneNumber, s.createdAt]),
    },
    {
      table: 'app_user',
      columns: ['id', 'identity_sub', 'email', 'given_name', 'family_name', 'phone_number', 'birthdate', 'created_at'],
      rows: (s, push) => push([s.userId, s.identityId, s.email, s.givenName, s.familyName, s.phoneNumber, s.birthdate, s.createdAt]),
    },
    {
      table: 'account',
      columns: ['aria_account_no', 'user_id', 'first_title_code', 'account_balance_ore', 'created_at'],
      rows: (s, push) => push([s.accountNo, s.userId, s.subscriptions[0]!.titleCode, 0, s.createdAt]),
    },
    {
      table: 'subscription',
      columns: [
        'id',
        'aria_account_no',
        'title_code',
        'aria_plan_id',
        'plan_name',
        'plan_product_type',
        'eligible_for_sharing',
        'inst_status_code',
        'billing_period',
        'price_ore',
        'payment_method',
        'features',
        'started_on',
        'current_period_end',
        'cancelled_at',
        'max_members',
        'resume_status_code',
        'created_at',
      ],
      rows: (s, push) => {
        for (const item of s.subscriptions) {
          push([
            item.id,
            s.accountNo,
            item.titleCode,
            item.ariaPlanId,
            item.planName,
            item.planProductType,
            true,
            item.instStatusCode,
            item.billingPeriod,
            item.priceOre,
            item.paymentMethod,
            JSON.stringify(item.features),
            item.startedOn,
            item.currentPeriodEnd,
            item.cancelledAt,
            item.maxMembers,
            item.resumeStatusCode,
            `${item.startedOn}T09:30:00Z`,
          ]);
        }
      },
    },
    {
      table: 'delivery_address',
      columns: ['subscription_id', 'co_name', 'street', 'street_number', 'apartment', 'floor', 'postal_code', 'town', 'name', 'updated_at'],
      rows: (s, push) => {
        for (const item of s.subscriptions) {
          const a = item.address;
          if (a) push([item.id, null, a.street, a.streetNumber, a.apartment, a.floor, a.postalCode, a.town, a.name, `${item.startedOn}T09:30:00Z`]);
        }
      },
    },
    {
      table: 'invoice',
      columns: ['aria_invoice_no', 'aria_account_no', 'subscription_id', 'kid', 'amount_ore', 'description', 'period_from', 'period_to', 'due_on', 'bank_account_number', 'paid_at', 'created_at'],
      withInvoices: true,
      rows: (s, push) => {
        for (const item of s.subscriptions) {
          for (const i of item.invoices) push([i.no, s.accountNo, item.id, i.kid, i.amountOre, i.description, i.periodFrom, i.periodTo, i.dueOn, i.bankAccountNumber, i.paidAt, i.createdAt]);
        }
      },
    },
    {
      table: 'subscription_change',
      columns: ['id', 'subscription_id', 'at', 'actor', 'actor_user_id', 'kind', 'from_status_code', 'to_status_code', 'details'],
      rows: (s, push) => {
        for (const item of s.subscriptions) {
          for (const c of item.changes) push([c.id, item.id, c.at, c.actor, c.actor === 'self' ? s.userId : null, c.kind, c.from, c.to, c.details]);
        }
      },
    },
    {
      table: 'delivery_change',
      columns: ['id', 'subscription_id', 'type', 'from_date', 'to_date', 'address', 'status', 'placed_at', 'updated_at', 'cancelled_at'],
      rows: (s, push) => {
        for (const item of s.subscriptions) {
          for (const d of item.deliveryChanges) push([d.id, item.id, d.type, d.fromDate, d.toDate, d.address, d.status, d.placedAt, d.cancelledAt ?? d.placedAt, d.cancelledAt]);
        }
      },
    },
    {
      // Other browsers' sessions (nobody holds these tokens): the session table has the size it would have.
      table: 'user_session',
      columns: ['id_hash', 'user_id', 'id_token', 'created_at', 'last_seen_at', 'expires_at'],
      rows: (s, push) => {
        if (!s.hasSession) return;
        const idHash = createHash('sha256').update(`scale-session-${s.index}`).digest('base64url');
        push([idHash, s.userId, `scale-id-token-${s.index}`, `${seededAt}T07:00:00Z`, `${seededAt}T07:05:00Z`, `${addDays(seededAt, 1)}T07:00:00Z`]);
      },
    },
  ];
}

interface Rebuild {
  drop: string;
  create: string;
  label: string;
}

/** The foreign keys and non-constraint indexes of the scale tables, as SQL to drop and to recreate them exactly. */
async function rebuildable(client: pg.Client): Promise<{ foreignKeys: Rebuild[]; indexes: Rebuild[] }> {
  const foreignKeys = await client.query<{ table: string; name: string; definition: string }>(
    `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
       from pg_constraint where contype = 'f' and conrelid::regclass::text = any($1)`,
    [scaleTables],
  );
  const indexes = await client.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
      where i.indrelid::regclass::text = any($1)
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [scaleTables],
  );
  return {
    foreignKeys: foreignKeys.rows.map((row) => ({
      label: `${row.table}.${row.name}`,
      drop: `alter table "${row.table}" drop constraint "${row.name}"`,
      create: `alter table "${row.table}" add constraint "${row.name}" ${row.definition}`,
    })),
    indexes: indexes.rows.map((row) => ({ label: row.name, drop: `drop index ${row.name}`, create: row.definition })),
  };
}

export class SeedLargeRefusal extends Error {
  override name = 'SeedLargeRefusal';
}

export async function seedLarge(options: SeedLargeOptions): Promise<SeedLargeResult> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    const [{ users, generated, lastAccount, lastInvoice }] = (
      await client.query<{ users: string; generated: string; lastAccount: string | null; lastInvoice: string | null }>(
        `select (select count(*) from account where aria_account_no < $2 or aria_account_no >= 50000000) as users,
                (select count(*) from app_user where id like 'user-scale-%') as generated,
                (select max(aria_account_no) from account where aria_account_no >= $1 and aria_account_no < $2) as "lastAccount",
                (select max(aria_invoice_no) from invoice where aria_invoice_no >= $3) as "lastInvoice"`,
        [SCALE_ACCOUNT_BASE, SCALE_ACCOUNT_LIMIT, SCALE_INVOICE_BASE],
      )
    ).rows as [{ users: string; generated: string; lastAccount: string | null; lastInvoice: string | null }];
    const fresh = Number(users) === 0;
    if (!fresh && !options.append) {
      throw new SeedLargeRefusal(
        `The database already has ${users} subscribers (${generated} of them generated). ` +
          'Use an empty database (the demo users do not count), or --append to add the new ones after the generated ones already there.',
      );
    }
    const firstIndex = lastAccount === null ? 0 : Number(lastAccount) - SCALE_ACCOUNT_BASE + 1;
    if (SCALE_ACCOUNT_BASE + firstIndex + options.subscribers > SCALE_ACCOUNT_LIMIT) {
      throw new SeedLargeRefusal(`At most ${SCALE_ACCOUNT_LIMIT - SCALE_ACCOUNT_BASE} generated subscribers fit below the demo accounts.`);
    }
    const firstInvoiceNo = lastInvoice === null ? SCALE_INVOICE_BASE : Number(lastInvoice) + 1;
    const today = osloToday(options.now());
    const context: ScaleContext = { today, titleCodes: defaultCatalogue.offered().map((entry) => entry.titleCode) };
    const dropIndexes = fresh && !options.keepIndexes;

    await client.query('begin');
    // Session settings for the bulk load only: more memory for the index sorts, no waiting for each commit's flush.
    await client.query(`set local maintenance_work_mem = '512MB'`);
    // Validating a re-added foreign key is one big join: without memory it spills to disk for minutes.
    await client.query(`set local work_mem = '256MB'`);
    await client.query('set local synchronous_commit = off');
    const rebuild = dropIndexes ? await rebuildable(client) : { foreignKeys: [], indexes: [] };
    for (const item of [...rebuild.foreignKeys, ...rebuild.indexes]) await client.query(item.drop);
    if (dropIndexes) log(`Dropped ${rebuild.foreignKeys.length} foreign keys and ${rebuild.indexes.length} indexes for the load.`);

    const rows: Record<string, number> = {};
    const copyStarted = performance.now();
    for (const pass of scalePasses(options.passwordHash, today)) {
      rows[pass.table] = await copyPass(client, pass, context, firstIndex, options.subscribers, firstInvoiceNo, log);
    }
    // One period row per invoice (the renewal job's record that the period was invoiced), straight from the invoices.
    const periods = await client.query(
      `insert into subscription_period (subscription_id, period_from, aria_invoice_no, created_at)
       select subscription_id, period_from, aria_invoice_no, created_at from invoice where aria_invoice_no >= $1`,
      [firstInvoiceNo],
    );
    rows.subscription_period = periods.rowCount ?? 0;
    const copySeconds = (performance.now() - copyStarted) / 1000;
    log(`Rows written in ${copySeconds.toFixed(1)} s.`);

    const indexStarted = performance.now();
    for (const item of [...rebuild.indexes, ...rebuild.foreignKeys]) {
      const at = performance.now();
      await client.query(item.create);
      log(`  rebuilt ${item.label} in ${((performance.now() - at) / 1000).toFixed(1)} s`);
    }
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    await client.query('commit');

    const analyzeStarted = performance.now();
    // Visibility map and statistics now rather than whenever autovacuum gets to it: the bench measures a settled database.
    await client.query(`vacuum (analyze) ${scaleTables.join(', ')}`);
    const analyzeSeconds = (performance.now() - analyzeStarted) / 1000;
    log(`Vacuumed and analysed in ${analyzeSeconds.toFixed(1)} s.`);
    const size = await client.query<{ bytes: string }>('select pg_database_size(current_database()) as bytes');
    return {
      firstIndex,
      subscribers: options.subscribers,
      rows,
      seconds: { copy: copySeconds, indexes: indexSeconds, analyze: analyzeSeconds, total: (performance.now() - started) / 1000 },
      databaseBytes: Number(size.rows[0]?.bytes ?? 0),
    };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

async function copyPass(client: pg.Client, pass: Pass, context: ScaleContext, firstIndex: number, count: number, firstInvoiceNo: number, log: (line: string) => void): Promise<number> {
  const stream = client.query(copyFrom(`copy ${pass.table} (${pass.columns.join(', ')}) from stdin`));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  let chunk: string[] = [];
  let rows = 0;
  const push = (values: (string | number | boolean | null)[]) => {
    chunk.push(line(values));
    rows += 1;
  };
  const started = performance.now();
  let reported = started;
  let invoiceNo = firstInvoiceNo;
  for (let index = firstIndex; index < firstIndex + count; index++) {
    const subscriber = scaleSubscriber(context, index, invoiceNo, pass.withInvoices);
    invoiceNo += invoiceCountOf(subscriber);
    pass.rows(subscriber, push);
    if (chunk.length >= 4_000) {
      const ok = stream.write(chunk.join(''));
      chunk = [];
      if (!ok) await Promise.race([once(stream, 'drain'), done]);
      const now = performance.now();
      if (now - reported > 5_000) {
        reported = now;
        log(`  ${pass.table}: ${rows.toLocaleString('en')} rows, subscriber ${(index - firstIndex + 1).toLocaleString('en')} of ${count.toLocaleString('en')}`);
      }
    }
  }
  if (chunk.length > 0) stream.write(chunk.join(''));
  stream.end();
  await done;
  log(`${pass.table}: ${rows.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return rows;
}
