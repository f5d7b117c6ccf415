import { describe, expect, it } from 'vitest';
import {
  BankFileWriteError,
  bankFileText,
  parseBankFile,
  specificationFromText,
  specificationToText,
  withLineEndings,
  writeAvtaleGiroClaims,
  writeAvtaleGiroMandates,
  writeOcrGiro,
  writeParsedBankFile,
} from '../src/index.ts';
import type { AvtaleGiroClaimAssignmentInput, AvtaleGiroClaimInput, AvtaleGiroClaimsTransmissionInput, OcrGiroTransmissionInput, OcrTransactionInput } from '../src/index.ts';
import { collect, goldenLines, joinLines } from './helpers.ts';

const claim: AvtaleGiroClaimInput = { transactionType: 21, dueDate: '2026-02-20', amount: 49_900, kid: '200000451', payerName: 'Ås', externalReference: 'Abonnement' };

function claims(transactions: AvtaleGiroClaimInput[]): AvtaleGiroClaimsTransmissionInput {
  return { dataTransmitter: '00012345', transmissionNumber: '0000001', assignments: [{ assignmentNumber: '0000001', account: '12345678903', transactions }] };
}

const ocrTx: OcrTransactionInput = {
  transactionType: 10,
  netsDate: '2026-02-02',
  centreId: '13',
  dayCode: 2,
  partialSettlementNumber: 1,
  partialSettlementSerialNumber: '00001',
  sign: '0',
  amount: 100,
  kid: '123',
  formNumber: '0000000000',
  archiveReference: '000000000',
  bankDate: null,
  debitAccount: '00000000000',
  text: null,
};

function ocr(transactions: OcrTransactionInput[]): OcrGiroTransmissionInput {
  return {
    transmissionNumber: '0000001',
    dataRecipient: '00123456',
    netsDate: '2026-02-02',
    assignments: [{ agreementId: '000000001', assignmentNumber: '0000001', account: '12345678903', netsDate: '2026-02-02', transactions }],
  };
}

async function writeError(lines: AsyncIterable<string>): Promise<BankFileWriteError> {
  try {
    await collect(lines);
  } catch (error) {
    if (error instanceof BankFileWriteError) return error;
    throw error;
  }
  throw new Error('expected a BankFileWriteError');
}

describe('writers', () => {
  it('number transactions 1, 2, 3… when no number is given, and count as the reader does', async () => {
    const text = await bankFileText(writeAvtaleGiroClaims(claims([claim, { ...claim, transactionType: 2, dueDate: '2026-02-19' }, claim])));
    const parsed = await parseBankFile(text);
    expect(parsed.assignments[0]?.transactions.map((t) => t.transactionNumber)).toEqual([1, 2, 3]);
    expect(parsed.end).toMatchObject({ transactions: 3, records: 10, amount: 149_700, date: '2026-02-19' });
    expect(text.split('\n')[2]).toBe('NY2121300000001200226           00000000000049900                200000451000000');
    expect(text.split('\n')[3]).toBe('NY2121310000001Ås                                 Abonnement               00000');
  });

  it('take async iterables and yield bare 80-character records', async () => {
    async function* cursor(): AsyncGenerator<AvtaleGiroClaimInput> {
      for (let i = 0; i < 3; i++) yield { ...claim, transactionNumber: 10 * (i + 1) };
    }
    async function* assignments(): AsyncGenerator<AvtaleGiroClaimAssignmentInput> {
      yield { assignmentNumber: '0000007', account: '12345678903', transactions: cursor() };
    }
    const records = await collect(writeAvtaleGiroClaims({ dataTransmitter: '00012345', transmissionNumber: '0000001', assignments: assignments() }));
    expect(records.every((r) => r.length === 80)).toBe(true);
    const parsed = await parseBankFile(await bankFileText(records));
    expect(parsed.assignments[0]?.transactions.map((t) => t.transactionNumber)).toEqual([10, 20, 30]);
    expect((await collect(withLineEndings(records, '\r\n'))).every((c) => c.endsWith('\r\n') && c.length === 82)).toBe(true);
  });

  it('write a cancellation without amount item 2 when it has no name and reference', async () => {
    const records = await collect(
      writeAvtaleGiroClaims({
        dataTransmitter: '00012345',
        transmissionNumber: '0000001',
        assignments: [{ kind: 'avtalegiro-cancellations', assignmentNumber: '0000002', account: '12345678903', transactions: [{ dueDate: '2026-02-20', amount: 100, kid: '1' }] }],
      }),
    );
    expect(records.map((r) => r.slice(0, 8))).toEqual(['NY000010', 'NY213620', 'NY219330', 'NY213688', 'NY000089']);
  });

  it('refuse values that do not fit, naming the path', async () => {
    const cases: [AvtaleGiroClaimInput, string][] = [
      [{ ...claim, kid: '12345678901234567890123456' }, 'kid'],
      [{ ...claim, kid: '12a' }, 'kid'],
      [{ ...claim, kid: '' }, 'kid'],
      [{ ...claim, amount: -1 }, 'amount'],
      [{ ...claim, amount: 1.5 }, 'amount'],
      [{ ...claim, amount: 2 ** 53 }, 'amount'],
      [{ ...claim, dueDate: '2026-02-30' }, 'dueDate'],
      [{ ...claim, dueDate: '20.02.2026' }, 'dueDate'],
      [{ ...claim, dueDate: '2070-01-01' }, 'dueDate'],
      [{ ...claim, payerName: 'Abcdefghijk' }, 'payerName'],
      [{ ...claim, payerName: 'Øre €' }, 'payerName'],
      [{ ...claim, externalReference: 'x'.repeat(26) }, 'externalReference'],
      [{ ...claim, transactionNumber: 0 }, 'transactionNumber'],
      [{ ...claim, transactionNumber: 10_000_000 }, 'transactionNumber'],
      [{ ...claim, specification: [{ lineNumber: 43, column: 1, text: 'x' }] }, 'specification[0].lineNumber'],
      [{ ...claim, specification: [{ lineNumber: 1, column: 1, text: '   ' }] }, 'specification[0].text'],
      [{ ...claim, specification: [{ lineNumber: 1, column: 1, text: 'x'.repeat(41) }] }, 'specification[0].text'],
      [
        {
          ...claim,
          specification: [
            { lineNumber: 1, column: 2, text: 'a' },
            { lineNumber: 1, column: 2, text: 'b' },
          ],
        },
        'specification[1]',
      ],
    ];
    for (const [input, field] of cases) {
      const error = await writeError(writeAvtaleGiroClaims(claims([claim, input])));
      expect(error.field).toBe(`assignments[0].transactions[1].${field}`);
      expect(error.code).toBe('INVALID_VALUE');
      expect(error.message.startsWith(`assignments[0].transactions[1].${field}: `)).toBe(true);
    }
  });

  it('refuse OCR values the reader would refuse', async () => {
    const cases: [OcrTransactionInput, string][] = [
      [{ ...ocrTx, sign: '-' }, 'sign'],
      [{ ...ocrTx, text: 'x' }, 'text'],
      [{ ...ocrTx, transactionType: 20, sign: '-', text: null }, 'text'],
      [{ ...ocrTx, dayCode: 0 }, 'dayCode'],
      [{ ...ocrTx, centreId: '1' }, 'centreId'],
      [{ ...ocrTx, debitAccount: '1234567890' }, 'debitAccount'],
      [{ ...ocrTx, bankDate: '2026-13-01' }, 'bankDate'],
      [{ ...ocrTx, cardIssuer: '4' }, 'cardIssuer'],
      [{ ...ocrTx, kid: '' }, 'kid'],
    ];
    for (const [input, field] of cases) {
      const error = await writeError(writeOcrGiro(ocr([input])));
      expect(error.field).toBe(`assignments[0].transactions[0].${field}`);
    }
    await expect(bankFileText(writeOcrGiro(ocr([{ ...ocrTx, transactionType: 20, sign: '-', text: '' }])))).resolves.toContain('NY0920320000001');
  });

  it('refuse numbers out of order, assignment numbers used twice, empty transmissions, sums too large', async () => {
    expect(
      await writeError(
        writeAvtaleGiroClaims(
          claims([
            { ...claim, transactionNumber: 5 },
            { ...claim, transactionNumber: 5 },
          ]),
        ),
      ),
    ).toMatchObject({ code: 'OUT_OF_ORDER', field: 'assignments[0].transactions[1].transactionNumber' });
    const twice = { assignmentNumber: '0000001', account: '12345678903', transactions: [] };
    expect(await writeError(writeAvtaleGiroMandates({ transmissionNumber: '0000001', dataRecipient: '00123456', netsDate: null, assignments: [twice, twice] }))).toMatchObject({
      code: 'OUT_OF_ORDER',
      field: 'assignments[1].assignmentNumber',
    });
    expect(await writeError(writeAvtaleGiroClaims({ dataTransmitter: '00012345', transmissionNumber: '0000001', assignments: [] }))).toMatchObject({ code: 'EMPTY_TRANSMISSION' });
    const big = Number.MAX_SAFE_INTEGER - 10;
    expect(
      await writeError(
        writeAvtaleGiroClaims(
          claims([
            { ...claim, amount: big },
            { ...claim, amount: big },
          ]),
        ),
      ),
    ).toMatchObject({ code: 'AMOUNT_OVERFLOW' });
  });

  it('check the parties and transmission fields', async () => {
    expect(await writeError(writeOcrGiro({ ...ocr([]), dataTransmitter: '00012345' }))).toMatchObject({ field: 'dataTransmitter' });
    expect(await writeError(writeAvtaleGiroClaims({ ...claims([]), dataRecipient: '00012345' }))).toMatchObject({ field: 'dataRecipient' });
    expect(await writeError(writeAvtaleGiroClaims({ ...claims([]), transmissionNumber: '123' }))).toMatchObject({ field: 'transmissionNumber' });
    expect(await writeError(writeOcrGiro({ ...ocr([]), netsDate: '2026-02-29' }))).toMatchObject({ field: 'netsDate' });
  });

  it('write the Nets date of a mandates transmission as zeros when it is null', async () => {
    const records = await collect(
      writeAvtaleGiroMandates({
        transmissionNumber: '0000001',
        dataRecipient: '00123456',
        netsDate: null,
        assignments: [{ assignmentNumber: '0000001', account: '12345678903', transactions: [{ registrationType: 1, kid: '200000451', notify: true }] }],
      }),
    );
    expect(records).toEqual([
      'NY000010000080800000001001234560000000000000000000000000000000000000000000000000',
      'NY212420000000000000000112345678903000000000000000000000000000000000000000000000',
      'NY21947000000011                200000451J00000000000000000000000000000000000000',
      'NY212488000000010000000300000000000000000000000000000000000000000000000000000000',
      'NY000089000000010000000500000000000000000000000000000000000000000000000000000000',
    ]);
  });

  it('do not write a transmission mixing OCR Giro and mandates', async () => {
    const ocrLines = goldenLines('ocr-giro.txt');
    const mandateLines = goldenLines('avtalegiro-mandates.txt').map((l, i) => (i === 1 ? `${l.slice(0, 17)}0000003${l.slice(24)}` : l));
    const end = 'NY000089' + '00000010' + '00000025' + '00000000000128700' + '150324' + '0'.repeat(33);
    const parsed = await parseBankFile(joinLines([...ocrLines.slice(0, 19), ...mandateLines.slice(1, 6), end]));
    expect(() => writeParsedBankFile(parsed)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
  });
});

describe('specification text', () => {
  it('splits lines into two columns of 40 and leaves blank halves out', () => {
    const text = ['Gjelder faktura 1001', '', `${' '.repeat(40)}Sum: 499,00`, 'x'.repeat(80)].join('\n');
    const records = specificationFromText(`${text}\n\n`);
    expect(records).toEqual([
      { lineNumber: 1, column: 1, text: 'Gjelder faktura 1001' },
      { lineNumber: 3, column: 2, text: 'Sum: 499,00' },
      { lineNumber: 4, column: 1, text: 'x'.repeat(40) },
      { lineNumber: 4, column: 2, text: 'x'.repeat(40) },
    ]);
    expect(specificationToText(records)).toBe(text);
    expect(specificationToText([...records].reverse())).toBe(text);
  });

  it('refuses more than 42 lines, lines over 80 characters, characters outside ISO-8859-1', () => {
    expect(() => specificationFromText(Array<string>(43).fill('a').join('\n'))).toThrow(BankFileWriteError);
    expect(() => specificationFromText('x'.repeat(81))).toThrow(BankFileWriteError);
    expect(() => specificationFromText('Pris: 5 €')).toThrow(BankFileWriteError);
  });

  it('writes what it splits', async () => {
    const specification = specificationFromText('Gjelder: Minside Pluss\nBeløp: 499,00 kr');
    const parsed = await parseBankFile(await bankFileText(writeAvtaleGiroClaims(claims([{ ...claim, specification }]))));
    const tx = parsed.assignments[0]?.transactions[0];
    expect(tx?.type === 'avtalegiro-claim' && specificationToText(tx.specification)).toBe('Gjelder: Minside Pluss\nBeløp: 499,00 kr');
  });
});
