import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * A column written with its table's name ("invoice"."aria_invoice_no"), for a correlated
 * subquery inside a selected field. Drizzle writes a plain column of a single-table select
 * without its table ("aria_invoice_no"), and inside `(select … from payment p where
 * p.aria_invoice_no = "aria_invoice_no")` PostgreSQL then reads the subquery's own column: the
 * subquery matches every row instead of the outer one.
 */
export function qualified(column: PgColumn): SQL {
  return sql.raw(`"${getTableName(column.table)}"."${column.name}"`);
}
