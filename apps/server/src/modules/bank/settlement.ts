import { sql } from 'drizzle-orm';
import { addDays, csvText, osloInstantOf } from '@minside/domain';
import type { Db } from '../../db/client.ts';

/**
 * The bookkeeper's settlement report of one day (issue 21 §9): per title, what came in by channel —
 * OCR Giro and AvtaleGiro from the bank's files (by the bank's settlement date), card and Vipps from
 * the providers — what went back (bank reversals, refunds) and the credits given. Every amount the
 * bank reported is in it, placed or not (`unplacedOre`); a control line per bank file states the
 * file's own end-record sum next to the sum of its rows, and the two must agree.
 */

interface SettlementLine {
  date: string;
  /** Null: the bank paid to an account or agreement no title owns. */
  titleCode: string | null;
  channel: 'OCR_GIRO' | 'AVTALEGIRO' | 'BANK_REVERSAL' | 'VIPPS' | 'CARD' | 'REFUND' | 'CREDIT';
  transactions: number;
  /** Signed øre: money in is positive, reversals and refunds negative. */
  amountOre: number;
  /** Of that, what the portal has not placed on an invoice (the reconciliation list). */
  unplacedOre: number;
}

interface BankFileControl {
  transmissionNumber: string;
  kind: string;
  transactions: number;
  /** The transmission end record's sum (reversals counted as positive, as the bank adds them). */
  endRecordOre: number;
  /** The same sum from the imported rows: equal to `endRecordOre` for every complete import. */
  importedOre: number;
}

export interface SettlementReport {
  date: string;
  lines: SettlementLine[];
  bankFiles: BankFileControl[];
}

type Row = Record<string, string | number | null>;
const rowsOf = async (db: Db, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;

export async function settlementReport(db: Db, date: string): Promise<SettlementReport> {
  // The day in Oslo as instants: provider payments and credits carry timestamps.
  const from = osloInstantOf(date, '00:00');
  const to = osloInstantOf(addDays(date, 1), '00:00');
  const bank = await rowsOf(
    db,
    sql`select t.title_code, case when t.amount_ore < 0 then 'BANK_REVERSAL' when t.transaction_type = 15 then 'AVTALEGIRO' else 'OCR_GIRO' end as channel,
               count(*)::int as transactions, sum(t.amount_ore)::bigint as amount, sum(case when t.reason is not null and t.resolved_at is null then t.open_amount_ore else 0 end)::bigint as unplaced
        from bank_transaction t join bank_file f on f.id = t.bank_file_id
        where f.kind = 'ocr-giro' and t.settled_on = ${date}
        group by 1, 2`,
  );
  const providers = await rowsOf(
    db,
    sql`select s.title_code, case when p.status = 'REFUNDED' then 'REFUND' when p.method = 'VIPPS' then 'VIPPS' else 'CARD' end as channel,
               count(*)::int as transactions, sum(case when p.status = 'REFUNDED' then -p.amount_ore else p.amount_ore end)::bigint as amount, 0::bigint as unplaced
        from payment p left join subscription s on s.id = p.subscription_id
        where p.provider <> 'bank' and p.amount_ore > 0 and p.status in ('CAPTURED', 'REFUNDED') and p.settled_at >= ${from} and p.settled_at < ${to}
        group by 1, 2`,
  );
  const credits = await rowsOf(
    db,
    sql`select s.title_code, 'CREDIT' as channel, count(*)::int as transactions, sum(c.amount_ore)::bigint as amount, 0::bigint as unplaced
        from invoice_credit c join invoice i on i.aria_invoice_no = c.aria_invoice_no left join subscription s on s.id = i.subscription_id
        where c.created_at >= ${from} and c.created_at < ${to}
        group by 1, 2`,
  );
  const lines = [...bank, ...providers, ...credits]
    .map((row): SettlementLine => ({
      date,
      titleCode: (row['title_code'] as string | null) ?? null,
      channel: row['channel'] as SettlementLine['channel'],
      transactions: Number(row['transactions']),
      amountOre: Number(row['amount']),
      unplacedOre: Number(row['unplaced']),
    }))
    .sort((a, b) => (a.titleCode ?? '~').localeCompare(b.titleCode ?? '~') || a.channel.localeCompare(b.channel));
  const files = await rowsOf(
    db,
    sql`select f.transmission_number, f.kind, f.transactions, f.amount_ore, coalesce((select sum(abs(t.amount_ore)) from bank_transaction t where t.bank_file_id = f.id), 0)::bigint as imported
        from bank_file f
        where f.direction = 'IN' and f.kind = 'ocr-giro' and f.id in (select bank_file_id from bank_transaction where settled_on = ${date})
        order by f.transmission_number`,
  );
  return {
    date,
    lines,
    bankFiles: files.map((row) => ({
      transmissionNumber: String(row['transmission_number']),
      kind: String(row['kind']),
      transactions: Number(row['transactions']),
      endRecordOre: Number(row['amount_ore']),
      importedOre: Number(row['imported']),
    })),
  };
}

const channelNames: Record<SettlementLine['channel'], string> = {
  OCR_GIRO: 'OCR Giro',
  AVTALEGIRO: 'AvtaleGiro',
  BANK_REVERSAL: 'Tilbakeføring fra banken',
  VIPPS: 'Vipps',
  CARD: 'Kort',
  REFUND: 'Tilbakebetalt',
  CREDIT: 'Kreditert',
};

/** The report as CSV: one line per title and channel, a total, and the bank files' control lines. */
export function settlementCsv(report: SettlementReport): string {
  // A number for the spreadsheet, not money for a reader (that is formatKroner): "1234,50" is a
  // number in a Norwegian spreadsheet, "1 234,50 kr" would be text that no sum adds up.
  const kroner = (ore: number) => (ore / 100).toFixed(2).replace('.', ',');
  const money = report.lines.filter((line) => line.channel !== 'CREDIT');
  const total = money.reduce((sum, line) => sum + line.amountOre, 0);
  const unplaced = money.reduce((sum, line) => sum + line.unplacedOre, 0);
  return csvText([
    ['dato', 'avis', 'kanal', 'antall', 'beløp_øre', 'beløp_kr', 'uplassert_øre'],
    ...report.lines.map((line) => [
      line.date,
      line.titleCode ?? 'UKJENT',
      channelNames[line.channel],
      String(line.transactions),
      String(line.amountOre),
      kroner(line.amountOre),
      String(line.unplacedOre),
    ]),
    [report.date, 'ALLE', 'Sum inn (uten kreditering)', String(money.reduce((sum, line) => sum + line.transactions, 0)), String(total), kroner(total), String(unplaced)],
    ...report.bankFiles.map((file) => [
      report.date,
      'KONTROLL',
      `Bankfil ${file.transmissionNumber}: sluttpost ${file.endRecordOre} øre, innlest ${file.importedOre} øre${file.endRecordOre === file.importedOre ? ' (stemmer)' : ' (STEMMER IKKE)'}`,
      String(file.transactions),
      String(file.endRecordOre),
      kroner(file.endRecordOre),
      '0',
    ]),
  ]);
}
