import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { BankFileError, decodeBankFile, parseBankFile } from '../src/index.ts';
import type { BankFileErrorCode } from '../src/index.ts';

export function goldenBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./golden/${name}`, import.meta.url)));
}

export function goldenLines(name: string): string[] {
  return decodeBankFile(goldenBytes(name)).split('\n').slice(0, -1);
}

export function joinLines(lines: readonly string[]): string {
  return lines.map((l) => `${l}\n`).join('');
}

/** Replaces characters of a record starting at 1-based position `from`. */
export function patch(record: string, from: number, text: string): string {
  return record.slice(0, from - 1) + text + record.slice(from - 1 + text.length);
}

/** `lines` with line `n` (1-based) patched at `from`. */
export function patchLine(lines: readonly string[], n: number, from: number, text: string): string[] {
  return lines.map((l, i) => (i === n - 1 ? patch(l, from, text) : l));
}

export async function parseError(text: string): Promise<BankFileError> {
  try {
    await parseBankFile(text);
  } catch (error) {
    if (error instanceof BankFileError) return error;
    throw error;
  }
  throw new Error('expected a BankFileError, the file was accepted');
}

export async function expectParseError(lines: readonly string[], code: BankFileErrorCode, line: number, field?: string): Promise<BankFileError> {
  const error = await parseError(joinLines(lines));
  expect({ code: error.code, line: error.line, message: error.message }).toMatchObject({ code, line });
  expect(error.message.startsWith(`Linje ${line}: `)).toBe(true);
  if (field !== undefined) expect(error.field).toBe(field);
  return error;
}

export async function collect<T>(items: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
