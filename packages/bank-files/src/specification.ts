/**
 * The text of an AvtaleGiro notice (AvtaleGiro info) travels in specification records (49):
 * up to 42 lines of 80 characters, each line split in two records of 40 (column 1: characters
 * 1–40, column 2: characters 41–80). Blank halves are not sent.
 */
import { BankFileWriteError } from './errors.ts';
import { isFieldText, trimEnd } from './fields.ts';
import type { SpecificationRecord } from './types.ts';

export const MAX_SPECIFICATION_LINES = 42;
export const SPECIFICATION_LINE_LENGTH = 80;

/** Text (lines separated by `\n` or `\r\n`) → specification records, blank halves left out. */
export function specificationFromText(text: string): SpecificationRecord[] {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && trimEnd(lines[lines.length - 1] as string) === '') lines.pop();
  if (lines.length > MAX_SPECIFICATION_LINES) {
    throw new BankFileWriteError('INVALID_VALUE', 'specification', `at most ${MAX_SPECIFICATION_LINES} lines, got ${lines.length}`);
  }
  const records: SpecificationRecord[] = [];
  lines.forEach((line, index) => {
    if (!isFieldText(line, SPECIFICATION_LINE_LENGTH)) {
      throw new BankFileWriteError('INVALID_VALUE', `specification line ${index + 1}`, `at most ${SPECIFICATION_LINE_LENGTH} printable ISO-8859-1 characters, got ${JSON.stringify(line)}`);
    }
    const halves: [1 | 2, string][] = [
      [1, trimEnd(line.slice(0, 40))],
      [2, trimEnd(line.slice(40, 80))],
    ];
    for (const [column, half] of halves) {
      if (half !== '') records.push({ lineNumber: index + 1, column, text: half });
    }
  });
  return records;
}

/** Specification records (any order) → text, lines joined with `\n`, trailing blanks trimmed. */
export function specificationToText(records: readonly SpecificationRecord[]): string {
  const lines: string[] = [];
  const sorted = [...records].sort((a, b) => a.lineNumber - b.lineNumber || a.column - b.column);
  for (const record of sorted) {
    const index = record.lineNumber - 1;
    while (lines.length <= index) lines.push('');
    const current = lines[index] as string;
    lines[index] = record.column === 1 ? record.text.padEnd(40, ' ') + current.slice(40) : current.padEnd(40, ' ').slice(0, 40) + record.text;
  }
  return lines.map(trimEnd).join('\n');
}
