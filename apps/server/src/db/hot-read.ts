import type { PGlite } from '@electric-sql/pglite';
import { Column, fillPlaceholders, getTableColumns, getTableName, is, Table, type Logger } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client.ts';

/** A select built with drizzle's query builder (not prepared): its statement, what it selects, and its rows' type. */
interface SelectQuery {
  toSQL(): { sql: string; params: unknown[] };
  readonly _: { readonly selectedFields: unknown };
  execute(): Promise<unknown[]>;
}

/** Where each selected column goes in the row object, and how its value is decoded (null: as the driver gives it). */
interface ColumnPlan {
  path: readonly string[];
  decode: ((value: unknown) => unknown) | null;
}

// Times and dates come as the database's text, as drizzle asks its drivers for them: the columns'
// own decoders (mapFromDriverValue) then make them what drizzle would (a Date, a 'YYYY-MM-DD' string).
const TEXT_TYPES = [1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231];
const textTypes = new Set(TEXT_TYPES);
const pgTypes = { getTypeParser: (oid: number, format?: string) => (textTypes.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format as 'text')) };
const pgliteParsers = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, (value: string) => value]));

const undecoded = Column.prototype.mapFromDriverValue;

/**
 * The selection's columns in the order drizzle puts them in its SQL: key order, a table's columns in
 * its order. `nullable`: the tables a join may leave without a row, which drizzle turns into null
 * when nested; a nested column of one of them is refused rather than mapped differently.
 */
function planOf(fields: Record<string, unknown>, nullable: ReadonlySet<string>, prefix: readonly string[] = []): ColumnPlan[] {
  return Object.entries(fields).flatMap(([key, field]): ColumnPlan[] => {
    const path = [...prefix, key];
    if (is(field, Column)) {
      if (prefix.length > 0 && nullable.has(getTableName(field.table))) throw new Error(`a hot read nests no column of a left-joined table (${path.join('.')})`);
      return [{ path, decode: field.mapFromDriverValue === undecoded ? null : (value) => field.mapFromDriverValue(value) }];
    }
    if (is(field, Table)) return planOf(getTableColumns(field), nullable, path);
    if (typeof field === 'object' && field !== null && Object.getPrototypeOf(field) === Object.prototype) return planOf(field as Record<string, unknown>, nullable, path);
    throw new Error(`a hot read selects columns and tables only, not ${path.join('.')}`);
  });
}

/**
 * A read made on every request (the session; the home page's subscription), without drizzle's
 * generic row mapper. Profiled, drizzle was a sixteenth of the home call's CPU, most of it mapping
 * rows (docs/performance.md). The statement is still the query builder's own, sent by name (so
 * PostgreSQL plans it once per connection) with the same type parsing drizzle asks for; each value is
 * decoded by its column's own decoder, through a plan made once. So the rows are what `execute()`
 * gives, and test/hot-read.test.ts holds them to it.
 *
 * Only for selections of columns and tables, nested or not; a nested column of a table a join may
 * leave without a row is refused (drizzle makes such an object null, not an object of nulls). A
 * left-joined table's columns at the top level are fine: null, as drizzle gives them.
 */
export function hotRead<Query extends SelectQuery>(db: Db, name: string, query: Query): (values: Record<string, unknown>) => ReturnType<Query['execute']> {
  type Row = Awaited<ReturnType<Query['execute']>>[number];
  const { sql: text, params } = query.toSQL();
  // The builder's record of its joins (drizzle keeps it, protected): false for a table a join may leave empty.
  const joins = (query as unknown as { joinsNotNullableMap?: Record<string, boolean> }).joinsNotNullableMap ?? {};
  const plan = planOf(query._.selectedFields as Record<string, unknown>, new Set(Object.keys(joins).filter((table) => !joins[table])));
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  // drizzle's logger sees the statement as for any other (DatabaseOptions.logger; test/query-plans.test.ts
  // explains every statement the hot path sends). Its session keeps it, privately.
  const logger = (db._.session as unknown as { logger?: Logger }).logger;
  const run: (values: unknown[]) => Promise<unknown[][]> =
    client instanceof pg.Pool
      ? async (values) => (await client.query<unknown[]>({ name, text, values, rowMode: 'array', types: pgTypes })).rows
      : async (values) => (await client.query<unknown[]>(text, values, { rowMode: 'array', parsers: pgliteParsers })).rows;

  // The row as one object literal per level, made once by code: V8 then builds each row in one shape,
  // where assigning keys one by one (as drizzle's mapper does) was most of this read's own time. The
  // keys are the schema's property names, quoted as JSON strings.
  const decoders = plan.map((column) => column.decode);
  const valueAt = (index: number) => (decoders[index] ? `v[${index}] == null ? null : d[${index}](v[${index}])` : `v[${index}] ?? null`);
  const literal = (prefix: readonly string[]): string => {
    const entries: string[] = [];
    const nested = new Set<string>();
    plan.forEach(({ path }, index) => {
      if (path.length < prefix.length + 1 || prefix.some((key, depth) => path[depth] !== key)) return;
      const key = path[prefix.length]!;
      if (path.length === prefix.length + 1) entries.push(`${JSON.stringify(key)}: ${valueAt(index)}`);
      else if (!nested.has(key)) {
        nested.add(key);
        entries.push(`${JSON.stringify(key)}: ${literal([...prefix, key])}`);
      }
    });
    return `{ ${entries.join(', ')} }`;
  };
  const toRow = new Function('v', 'd', `return ${literal([])};`) as (values: unknown[], decoders: (((value: unknown) => unknown) | null)[]) => Row;

  return (async (values: Record<string, unknown>) => {
    const filled = fillPlaceholders(params, values);
    logger?.logQuery(text, filled);
    return (await run(filled)).map((values) => toRow(values, decoders));
  }) as (values: Record<string, unknown>) => ReturnType<Query['execute']>;
}
