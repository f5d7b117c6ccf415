import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BankFileError, OCR_TRANSACTION_TYPES, bankFileText, encodeBankFile, parseBankFile, writeAvtaleGiroClaims, writeAvtaleGiroMandates, writeOcrGiro, writeParsedBankFile } from '../src/index.ts';
import type { AvtaleGiroCancellationFields, AvtaleGiroClaimFields, AvtaleGiroMandateFields, BankFileErrorCode, OcrTransactionFields, ParsedBankFile, SpecificationRecord } from '../src/index.ts';
import { collect, joinLines } from './helpers.ts';

// ── arbitraries ──────────────────────────────────────────────────────────────────────────────

const digit = fc.constantFrom(...'0123456789');
const digits = (n: number): fc.Arbitrary<string> => fc.string({ unit: digit, minLength: n, maxLength: n });
// A MOD11 check digit of 10 is written '-': some KIDs end in one.
const kid = fc.tuple(fc.string({ unit: digit, minLength: 1, maxLength: 24 }), fc.constantFrom('', '', '-', '0')).map(([digits, last]) => digits + last);
const latin1 = fc
  .integer({ min: 0x20, max: 0xff })
  .filter((c) => c <= 0x7e || c >= 0xa0)
  .map((c) => String.fromCharCode(c));
/** Text as the reader returns it: right-trimmed. */
const text = (max: number): fc.Arbitrary<string> => fc.string({ unit: latin1, maxLength: max }).map((s) => s.replace(/ +$/, ''));
const isoDate = fc.date({ min: new Date('1969-01-01T00:00:00Z'), max: new Date('2068-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const amount = fc.integer({ min: 0, max: 1_000_000_000_000 });
const specification: fc.Arbitrary<SpecificationRecord[]> = fc.uniqueArray(
  fc.record({ lineNumber: fc.integer({ min: 1, max: 42 }), column: fc.constantFrom(1 as const, 2 as const), text: text(40).filter((t) => t !== '') }),
  { selector: (s) => s.lineNumber * 10 + s.column, maxLength: 5 },
);

/** Ascending transaction numbers with gaps. */
function numbered<T>(tx: fc.Arbitrary<T>): fc.Arbitrary<(T & { transactionNumber: number })[]> {
  return fc.array(fc.tuple(tx, fc.integer({ min: 1, max: 1000 })), { maxLength: 6 }).map((pairs) => {
    let n = 0;
    return pairs.map(([t, gap]) => ({ ...t, transactionNumber: (n += gap) }));
  });
}

const ocrTransaction: fc.Arbitrary<Omit<OcrTransactionFields, 'transactionNumber'>> = fc
  .record({
    transactionType: fc.constantFrom(...Object.values(OCR_TRANSACTION_TYPES)),
    netsDate: isoDate,
    centreId: digits(2),
    dayCode: fc.integer({ min: 1, max: 31 }),
    partialSettlementNumber: fc.integer({ min: 0, max: 9 }),
    partialSettlementSerialNumber: digits(5),
    negative: fc.boolean(),
    amount,
    kid: fc.option(kid, { nil: null }),
    cardIssuer: digits(2),
    formNumber: digits(10),
    archiveReference: digits(9),
    filler: digits(7),
    bankDate: fc.option(isoDate, { nil: null }),
    debitAccount: digits(11),
    text: text(40),
  })
  .map(({ negative, text: t, ...rest }) => ({
    ...rest,
    sign: negative && (rest.transactionType === 18 || rest.transactionType === 20) ? ('-' as const) : ('0' as const),
    text: rest.transactionType === 20 || rest.transactionType === 21 ? t : null,
  }));

const claim: fc.Arbitrary<Omit<AvtaleGiroClaimFields, 'transactionNumber'>> = fc.record({
  transactionType: fc.constantFrom(2 as const, 21 as const),
  dueDate: isoDate,
  amount,
  kid,
  payerName: text(10),
  externalReference: text(25),
  specification,
});

const cancellation: fc.Arbitrary<Omit<AvtaleGiroCancellationFields, 'transactionNumber'>> = fc
  .record({ dueDate: isoDate, amount, kid, item2: fc.option(fc.record({ payerName: text(10), externalReference: text(25) }), { nil: null }), specification })
  .map(({ item2, ...rest }) => ({ ...rest, payerName: item2?.payerName ?? null, externalReference: item2?.externalReference ?? null }));

const mandate: fc.Arbitrary<Omit<AvtaleGiroMandateFields, 'transactionNumber'>> = fc.record({
  registrationType: fc.constantFrom(0 as const, 1 as const, 2 as const),
  kid,
  notify: fc.boolean(),
});

const assignmentNumber = (i: number): string => String(i + 1).padStart(7, '0');

const ocrFile = fc.record({
  transmissionNumber: digits(7),
  dataRecipient: digits(8),
  netsDate: isoDate,
  assignments: fc.array(fc.record({ agreementId: digits(9), account: digits(11), netsDate: isoDate, transactions: numbered(ocrTransaction) }), { minLength: 1, maxLength: 3 }),
});

const claimsFile = fc.record({
  dataTransmitter: digits(8),
  transmissionNumber: digits(7),
  assignments: fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('avtalegiro-claims' as const), account: digits(11), transactions: numbered(claim) }),
      fc.record({ kind: fc.constant('avtalegiro-cancellations' as const), account: digits(11), transactions: numbered(cancellation) }),
    ),
    { minLength: 1, maxLength: 3 },
  ),
});

const mandatesFile = fc.record({
  transmissionNumber: digits(7),
  dataRecipient: digits(8),
  netsDate: fc.option(isoDate, { nil: null }),
  assignments: fc.array(fc.record({ account: digits(11), transactions: numbered(mandate) }), { minLength: 1, maxLength: 3 }),
});

type Generated = { lines: string[]; check: (parsed: ParsedBankFile) => void };

function withoutLines<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value, (key: string, v: unknown) => (key === 'line' ? undefined : v)));
}

function minMax(dates: string[]): [string | null, string | null] {
  if (dates.length === 0) return [null, null];
  const sorted = [...dates].sort();
  return [sorted[0] ?? null, sorted[sorted.length - 1] ?? null];
}

const sum = (xs: { amount: number }[]): number => xs.reduce((s, x) => s + x.amount, 0);

type ValueOf<A> = A extends fc.Arbitrary<infer V> ? V : never;
type AnyFile = { kind: 'ocr'; input: ValueOf<typeof ocrFile> } | { kind: 'claims'; input: ValueOf<typeof claimsFile> } | { kind: 'mandates'; input: ValueOf<typeof mandatesFile> };

async function generate(file: AnyFile): Promise<Generated> {
  if (file.kind === 'ocr') {
    const { input } = file;
    const assignments = input.assignments.map((a, i) => ({ ...a, assignmentNumber: assignmentNumber(i) }));
    const lines = await collect(writeOcrGiro({ ...input, assignments }));
    return {
      lines,
      check: (parsed) => {
        expect(parsed.kind).toBe('ocr-giro');
        expect(withoutLines(parsed.start)).toEqual({ kind: 'ocr-giro', dataTransmitter: '00008080', transmissionNumber: input.transmissionNumber, dataRecipient: input.dataRecipient });
        expect(withoutLines(parsed.assignments)).toEqual(
          assignments.map((a) => {
            const [earliestDate, latestDate] = minMax(a.transactions.map((t) => t.netsDate));
            const records = 2 + a.transactions.reduce((n, t) => n + (t.text === null ? 2 : 3), 0);
            return {
              kind: 'ocr-giro',
              agreementId: a.agreementId,
              assignmentNumber: a.assignmentNumber,
              account: a.account,
              transactions: a.transactions.map((t) => ({ type: 'ocr-transaction', ...t })),
              end: { kind: 'ocr-giro', transactions: a.transactions.length, records, amount: sum(a.transactions), netsDate: a.netsDate, earliestDate, latestDate },
            };
          }),
        );
        expect(withoutLines(parsed.end)).toEqual({
          transactions: assignments.reduce((n, a) => n + a.transactions.length, 0),
          records: lines.length,
          amount: sum(assignments.flatMap((a) => a.transactions)),
          date: input.netsDate,
        });
      },
    };
  }
  if (file.kind === 'claims') {
    const { input } = file;
    const assignments = input.assignments.map((a, i) => ({ ...a, assignmentNumber: assignmentNumber(i) }));
    const lines = await collect(writeAvtaleGiroClaims({ ...input, assignments }));
    return {
      lines,
      check: (parsed) => {
        expect(parsed.kind).toBe('avtalegiro-claims');
        expect(withoutLines(parsed.start)).toEqual({ kind: 'avtalegiro-claims', dataTransmitter: input.dataTransmitter, transmissionNumber: input.transmissionNumber, dataRecipient: '00008080' });
        expect(withoutLines(parsed.assignments)).toEqual(
          assignments.map((a) => {
            const txs: { dueDate: string; amount: number }[] = a.transactions;
            const [earliestDate, latestDate] = minMax(txs.map((t) => t.dueDate));
            const records =
              a.kind === 'avtalegiro-claims'
                ? 2 + a.transactions.reduce((n, t) => n + 2 + t.specification.length, 0)
                : 2 + a.transactions.reduce((n, t) => n + (t.payerName === null ? 1 : 2) + t.specification.length, 0);
            return {
              kind: a.kind,
              agreementId: null,
              assignmentNumber: a.assignmentNumber,
              account: a.account,
              transactions: a.kind === 'avtalegiro-claims' ? a.transactions.map((t) => ({ type: 'avtalegiro-claim', ...t })) : a.transactions.map((t) => ({ type: 'avtalegiro-cancellation', ...t })),
              end: { kind: a.kind, transactions: txs.length, records, amount: sum(txs), netsDate: null, earliestDate, latestDate },
            };
          }),
        );
        const all: { dueDate: string; amount: number }[] = assignments.flatMap((a): { dueDate: string; amount: number }[] => a.transactions);
        expect(withoutLines(parsed.end)).toEqual({ transactions: all.length, records: lines.length, amount: sum(all), date: minMax(all.map((t) => t.dueDate))[0] });
      },
    };
  }
  const { input } = file;
  const assignments = input.assignments.map((a, i) => ({ ...a, assignmentNumber: assignmentNumber(i) }));
  const lines = await collect(writeAvtaleGiroMandates({ ...input, assignments }));
  return {
    lines,
    check: (parsed) => {
      expect(parsed.kind).toBe('avtalegiro-mandates');
      expect(withoutLines(parsed.assignments)).toEqual(
        assignments.map((a) => ({
          kind: 'avtalegiro-mandates',
          agreementId: null,
          assignmentNumber: a.assignmentNumber,
          account: a.account,
          transactions: a.transactions.map((t) => ({ type: 'avtalegiro-mandate', ...t })),
          end: { kind: 'avtalegiro-mandates', transactions: a.transactions.length, records: a.transactions.length + 2, amount: 0, netsDate: null, earliestDate: null, latestDate: null },
        })),
      );
      expect(withoutLines(parsed.end)).toEqual({ transactions: assignments.reduce((n, a) => n + a.transactions.length, 0), records: lines.length, amount: 0, date: input.netsDate });
    },
  };
}

const anyFile: fc.Arbitrary<AnyFile> = fc.oneof(
  ocrFile.map((input) => ({ kind: 'ocr' as const, input })),
  claimsFile.map((input) => ({ kind: 'claims' as const, input })),
  mandatesFile.map((input) => ({ kind: 'mandates' as const, input })),
);
const withAmounts: fc.Arbitrary<AnyFile> = fc.oneof(
  ocrFile.map((input) => ({ kind: 'ocr' as const, input })),
  claimsFile.map((input) => ({ kind: 'claims' as const, input })),
);

async function errorOf(text: string): Promise<BankFileError> {
  try {
    await parseBankFile(text);
  } catch (error) {
    if (error instanceof BankFileError) return error;
    throw error;
  }
  throw new Error(`accepted:\n${text}`);
}

async function expectError(lines: string[], code: BankFileErrorCode, line: number | number[]): Promise<void> {
  const error = await errorOf(joinLines(lines));
  expect(error.code).toBe(code);
  if (Array.isArray(line)) expect(line).toContain(error.line);
  else expect(error.line).toBe(line);
  expect(error.message).toMatch(new RegExp(`^Linje ${error.line}: `));
}

// ── properties ───────────────────────────────────────────────────────────────────────────────

describe('round trip', () => {
  it('write → parse gives back what was written, for all three kinds', async () => {
    await fc.assert(
      fc.asyncProperty(anyFile, async (file) => {
        const { lines, check } = await generate(file);
        expect(lines.every((l) => l.length === 80 && l.startsWith('NY'))).toBe(true);
        const text = joinLines(lines);
        const parsed = await parseBankFile(text);
        check(parsed);
        // …and writing the parsed file gives the same text, and the bytes encode.
        expect(await bankFileText(writeParsedBankFile(parsed))).toBe(text);
        expect(encodeBankFile(text)).toHaveLength(text.length);
      }),
      { numRuns: 150 },
    );
  });
});

describe('mutations are caught on the right line', () => {
  it('a dropped character', async () => {
    await fc.assert(
      fc.asyncProperty(anyFile, fc.nat(), fc.nat(79), async (file, pick, at) => {
        const { lines } = await generate(file);
        const i = pick % lines.length;
        const mutated = lines.map((l, j) => (j === i ? l.slice(0, at) + l.slice(at + 1) : l));
        await expectError(mutated, 'RECORD_LENGTH', i + 1);
      }),
      { numRuns: 80 },
    );
  });

  it('a changed digit in an amount', async () => {
    await fc.assert(
      fc.asyncProperty(withAmounts, fc.nat(), fc.integer({ min: 35, max: 49 }), fc.integer({ min: 1, max: 9 }), async (file, pick, at, delta) => {
        const { lines } = await generate(file);
        const candidates = lines.flatMap((l, j) => (l.slice(6, 8) === '30' ? [j] : []));
        fc.pre(candidates.length > 0);
        const i = candidates[pick % candidates.length] as number;
        const old = Number((lines[i] as string)[at - 1]);
        const mutated = lines.map((l, j) => (j === i ? l.slice(0, at - 1) + String((old + delta) % 10) + l.slice(at) : l));
        const end = lines.findIndex((l, j) => j > i && l.slice(6, 8) === '88');
        await expectError(mutated, 'CHECKSUM_MISMATCH', end + 1);
      }),
      { numRuns: 80 },
    );
  });

  it('a changed digit in a count', async () => {
    await fc.assert(
      fc.asyncProperty(anyFile, fc.nat(), fc.integer({ min: 9, max: 24 }), fc.integer({ min: 1, max: 9 }), async (file, pick, at, delta) => {
        const { lines } = await generate(file);
        const candidates = lines.flatMap((l, j) => (l.slice(6, 8) === '88' || l.slice(6, 8) === '89' ? [j] : []));
        const i = candidates[pick % candidates.length] as number;
        const old = Number((lines[i] as string)[at - 1]);
        const mutated = lines.map((l, j) => (j === i ? l.slice(0, at - 1) + String((old + delta) % 10) + l.slice(at) : l));
        await expectError(mutated, 'COUNT_MISMATCH', i + 1);
      }),
      { numRuns: 80 },
    );
  });

  it('a removed end record', async () => {
    await fc.assert(
      fc.asyncProperty(anyFile, async (file) => {
        const { lines } = await generate(file);
        await expectError(lines.slice(0, -1), 'MISSING_END', lines.length);
      }),
      { numRuns: 40 },
    );
  });

  it('two records swapped', async () => {
    await fc.assert(
      fc.asyncProperty(anyFile, fc.nat(), async (file, pick) => {
        const { lines } = await generate(file);
        const i = pick % (lines.length - 1);
        const [a, b] = [lines[i] as string, lines[i + 1] as string];
        // Specification records of one transaction may come in any order.
        fc.pre(a !== b && !(a.slice(6, 8) === '49' && b.slice(6, 8) === '49' && a.slice(8, 15) === b.slice(8, 15)));
        const mutated = [...lines];
        [mutated[i], mutated[i + 1]] = [b, a];
        const error = await errorOf(joinLines(mutated));
        expect([i + 1, i + 2]).toContain(error.line);
      }),
      { numRuns: 150 },
    );
  });

  it('a character outside ISO-8859-1', async () => {
    await fc.assert(
      fc.asyncProperty(anyFile, fc.nat(), fc.nat(79), fc.constantFrom('€', 'Ā', '\u0085', '\t', '\u0000', '😀', '\u2014'), async (file, pick, at, char) => {
        const { lines } = await generate(file);
        const i = pick % lines.length;
        const mutated = lines.map((l, j) => (j === i ? l.slice(0, at) + char + l.slice(at + 1) : l));
        await expectError(mutated, 'INVALID_CHARACTER', i + 1);
        expect(() => encodeBankFile(joinLines(mutated))).toThrow(expect.objectContaining({ code: 'INVALID_CHARACTER', line: i + 1 }));
      }),
      { numRuns: 80 },
    );
  });
});
