/**
 * The golden files in test/golden/ were written by hand from the record layouts (README.md), not
 * by this package's writers. Each test parses one, checks every field, and writes the parsed
 * content back to the same bytes.
 */
import { describe, expect, it } from 'vitest';
import { bankFileText, decodeBankFile, encodeBankFile, parseBankFile, readBankFile, specificationToText, writeParsedBankFile } from '../src/index.ts';
import type { ParsedBankFile } from '../src/index.ts';
import { collect, goldenBytes, goldenLines } from './helpers.ts';

async function roundTrip(name: string): Promise<{ parsed: ParsedBankFile; bytes: Uint8Array; rewritten: Uint8Array }> {
  const bytes = goldenBytes(name);
  const parsed = await parseBankFile(decodeBankFile(bytes));
  const rewritten = encodeBankFile(await bankFileText(writeParsedBankFile(parsed)));
  return { parsed, bytes, rewritten };
}

const ocrBase = { type: 'ocr-transaction', cardIssuer: '00', filler: '0000000', text: null } as const;

describe('golden OCR Giro file (two assignments, types 10–21, reversals, amount item 3)', () => {
  it('is plain ISO-8859-1 with LF line endings and 80-character records', () => {
    const bytes = goldenBytes('ocr-giro.txt');
    expect(bytes.includes(0x0d)).toBe(false);
    expect(goldenLines('ocr-giro.txt').every((l) => l.length === 80)).toBe(true);
    // "Æøå" in the free text of transaction 7 is one byte per letter.
    expect([...bytes].filter((b) => b >= 0xa0)).toEqual([0xc6, 0xf8, 0xe5]);
  });

  it('parses every field', async () => {
    const { parsed } = await roundTrip('ocr-giro.txt');
    expect(parsed.kind).toBe('ocr-giro');
    expect(parsed.start).toEqual({ kind: 'ocr-giro', dataTransmitter: '00008080', transmissionNumber: '0170601', dataRecipient: '00123456', line: 1 });
    expect(parsed.end).toEqual({ transactions: 12, records: 32, amount: 2_418_200, date: '2024-03-15', line: 32 });
    expect(parsed.assignments).toHaveLength(2);
    const [a1, a2] = parsed.assignments;
    expect({ ...a1, transactions: undefined }).toEqual({
      kind: 'ocr-giro',
      agreementId: '001234567',
      assignmentNumber: '0000001',
      account: '12345678903',
      line: 2,
      transactions: undefined,
      end: { kind: 'ocr-giro', transactions: 7, records: 18, amount: 128_700, netsDate: '2024-03-15', earliestDate: '2024-03-14', latestDate: '2024-03-15', line: 19 },
    });
    expect(a1?.transactions).toEqual([
      {
        ...ocrBase,
        line: 3,
        transactionNumber: 1,
        transactionType: 10,
        netsDate: '2024-03-14',
        centreId: '13',
        dayCode: 14,
        partialSettlementNumber: 1,
        partialSettlementSerialNumber: '00001',
        sign: '0',
        amount: 29_500,
        kid: '123456789',
        formNumber: '9636827194',
        archiveReference: '099038562',
        bankDate: '2024-03-13',
        debitAccount: '98765432101',
      },
      {
        ...ocrBase,
        line: 5,
        transactionNumber: 2,
        transactionType: 11,
        netsDate: '2024-03-14',
        centreId: '13',
        dayCode: 14,
        partialSettlementNumber: 1,
        partialSettlementSerialNumber: '00002',
        sign: '0',
        amount: 14_900,
        kid: '2000004071',
        formNumber: '9600000000',
        archiveReference: '001552110',
        bankDate: '2024-03-14',
        debitAccount: '12121212121',
      },
      {
        ...ocrBase,
        line: 7,
        transactionNumber: 3,
        transactionType: 15,
        netsDate: '2024-03-15',
        centreId: '13',
        dayCode: 15,
        partialSettlementNumber: 2,
        partialSettlementSerialNumber: '00001',
        sign: '0',
        amount: 39_900,
        kid: '200000451',
        formNumber: '0000000000',
        archiveReference: '000000017',
        bankDate: '2024-03-15',
        debitAccount: '55550000123',
      },
      {
        ...ocrBase,
        line: 9,
        transactionNumber: 4,
        transactionType: 18,
        netsDate: '2024-03-15',
        centreId: '13',
        dayCode: 15,
        partialSettlementNumber: 0,
        partialSettlementSerialNumber: '00001',
        sign: '-',
        amount: 5_000,
        kid: '100000232',
        formNumber: '0000000000',
        archiveReference: '123456001',
        bankDate: '2024-03-15',
        debitAccount: '00000000000',
      },
      {
        ...ocrBase,
        line: 11,
        transactionNumber: 5,
        transactionType: 19,
        netsDate: '2024-03-15',
        centreId: '13',
        dayCode: 15,
        partialSettlementNumber: 0,
        partialSettlementSerialNumber: '00002',
        sign: '0',
        amount: 12_000,
        kid: '100000240',
        formNumber: '0000000000',
        archiveReference: '123456001',
        bankDate: '2024-03-15',
        debitAccount: '00000000000',
      },
      {
        ...ocrBase,
        line: 13,
        transactionNumber: 6,
        transactionType: 20,
        netsDate: '2024-03-15',
        centreId: '13',
        dayCode: 15,
        partialSettlementNumber: 0,
        partialSettlementSerialNumber: '00003',
        sign: '-',
        amount: 7_500,
        kid: null,
        formNumber: '0000000000',
        archiveReference: '123456002',
        bankDate: '2024-03-15',
        debitAccount: '00000000000',
        text: 'Retur av bok - ordre 4711',
      },
      {
        ...ocrBase,
        line: 16,
        transactionNumber: 7,
        transactionType: 21,
        netsDate: '2024-03-15',
        centreId: '13',
        dayCode: 15,
        partialSettlementNumber: 0,
        partialSettlementSerialNumber: '00004',
        sign: '0',
        amount: 19_900,
        kid: '100000257',
        cardIssuer: '04',
        formNumber: '0000000000',
        archiveReference: '123456002',
        bankDate: '2024-03-15',
        debitAccount: '00000000000',
        text: 'Abonnement Æøå 12 mnd',
      },
    ]);
    expect({ ...a2, transactions: undefined }).toEqual({
      kind: 'ocr-giro',
      agreementId: '001234568',
      assignmentNumber: '0000002',
      account: '12345678911',
      line: 20,
      transactions: undefined,
      end: { kind: 'ocr-giro', transactions: 5, records: 12, amount: 2_289_500, netsDate: '2024-03-15', earliestDate: '2024-03-12', latestDate: '2024-03-15', line: 31 },
    });
    expect(a2?.transactions).toEqual([
      {
        ...ocrBase,
        line: 21,
        transactionNumber: 1,
        transactionType: 12,
        netsDate: '2024-03-12',
        centreId: '20',
        dayCode: 12,
        partialSettlementNumber: 1,
        partialSettlementSerialNumber: '00010',
        sign: '0',
        amount: 120_000,
        kid: '300000019',
        formNumber: '0000000000',
        archiveReference: '001020169',
        bankDate: null,
        debitAccount: '99991015406',
      },
      {
        ...ocrBase,
        line: 23,
        transactionNumber: 2,
        transactionType: 13,
        netsDate: '2024-03-13',
        centreId: '20',
        dayCode: 13,
        partialSettlementNumber: 3,
        partialSettlementSerialNumber: '00020',
        sign: '0',
        amount: 55_000,
        kid: '300000027',
        formNumber: '0000000000',
        archiveReference: '220663800',
        bankDate: null,
        debitAccount: '99991017530',
      },
      {
        ...ocrBase,
        line: 25,
        transactionNumber: 3,
        transactionType: 14,
        netsDate: '2024-03-13',
        centreId: '20',
        dayCode: 13,
        partialSettlementNumber: 3,
        partialSettlementSerialNumber: '00021',
        sign: '0',
        amount: 100,
        kid: '300000035',
        formNumber: '9797596016',
        archiveReference: '097596016',
        bankDate: '2024-03-12',
        debitAccount: '00000000000',
      },
      {
        ...ocrBase,
        line: 27,
        transactionNumber: 4,
        transactionType: 16,
        netsDate: '2024-03-14',
        centreId: '20',
        dayCode: 14,
        partialSettlementNumber: 1,
        partialSettlementSerialNumber: '00030',
        sign: '0',
        amount: 2_050_000,
        kid: '300000043',
        formNumber: '0000000000',
        archiveReference: '250663700',
        bankDate: '2024-03-14',
        debitAccount: '99990510055',
      },
      {
        ...ocrBase,
        line: 29,
        transactionNumber: 5,
        transactionType: 17,
        netsDate: '2024-03-15',
        centreId: '20',
        dayCode: 15,
        partialSettlementNumber: 1,
        partialSettlementSerialNumber: '00040',
        sign: '0',
        amount: 64_400,
        kid: '300000050',
        formNumber: '9797581675',
        archiveReference: '097581675',
        filler: '1883206',
        bankDate: '2024-03-15',
        debitAccount: '99991042764',
      },
    ]);
  });

  it('writes the parsed content back byte for byte', async () => {
    const { bytes, rewritten } = await roundTrip('ocr-giro.txt');
    expect(rewritten).toEqual(bytes);
  });

  it('streams the events in file order', async () => {
    const events = await collect(readBankFile(goldenLines('ocr-giro.txt')));
    expect(events.map((e) => e.type)).toEqual([
      'transmission',
      'assignment',
      ...Array<string>(7).fill('ocr-transaction'),
      'assignment-end',
      'assignment',
      ...Array<string>(5).fill('ocr-transaction'),
      'assignment-end',
      'transmission-end',
    ]);
  });

  it('reads CRLF line endings the same way', async () => {
    const lf = await parseBankFile(decodeBankFile(goldenBytes('ocr-giro.txt')));
    const crlf = await parseBankFile(decodeBankFile(goldenBytes('ocr-giro.txt')).replaceAll('\n', '\r\n'));
    expect(crlf).toEqual(lf);
    const written = await bankFileText(writeParsedBankFile(lf), '\r\n');
    expect(written).toBe(decodeBankFile(goldenBytes('ocr-giro.txt')).replaceAll('\n', '\r\n'));
  });
});

describe('golden AvtaleGiro claims file (claims with specifications, cancellations)', () => {
  it('parses every field', async () => {
    const { parsed } = await roundTrip('avtalegiro-claims.txt');
    expect(parsed.kind).toBe('avtalegiro-claims');
    expect(parsed.start).toEqual({ kind: 'avtalegiro-claims', dataTransmitter: '00012345', transmissionNumber: '1503241', dataRecipient: '00008080', line: 1 });
    // The "first date" of the transmission end is the earliest due date, here a cancellation's.
    expect(parsed.end).toEqual({ transactions: 5, records: 21, amount: 169_600, date: '2024-04-18', line: 21 });
    const [claims, cancellations] = parsed.assignments;
    expect({ ...claims, transactions: undefined }).toEqual({
      kind: 'avtalegiro-claims',
      agreementId: null,
      assignmentNumber: '0000001',
      account: '12345678903',
      line: 2,
      transactions: undefined,
      end: { kind: 'avtalegiro-claims', transactions: 3, records: 14, amount: 129_700, netsDate: null, earliestDate: '2024-04-20', latestDate: '2024-05-20', line: 15 },
    });
    expect(claims?.transactions).toEqual([
      {
        type: 'avtalegiro-claim',
        line: 3,
        transactionNumber: 1,
        transactionType: 21,
        dueDate: '2024-04-20',
        amount: 49_900,
        kid: '200000451',
        payerName: 'Ås Ærlig',
        externalReference: 'Abonnement april 2024',
        specification: [
          { lineNumber: 1, column: 1, text: 'Gjelder: Minside Pluss, april 2024' },
          { lineNumber: 1, column: 2, text: 'Faktura 100234' },
          { lineNumber: 2, column: 1, text: 'Beløp: 499,00 kr' },
          { lineNumber: 3, column: 2, text: 'Takk!' },
        ],
      },
      {
        type: 'avtalegiro-claim',
        line: 9,
        transactionNumber: 2,
        transactionType: 2,
        dueDate: '2024-04-20',
        amount: 29_900,
        kid: '200000469',
        payerName: 'NORDMANN',
        externalReference: '',
        specification: [],
      },
      {
        type: 'avtalegiro-claim',
        line: 11,
        transactionNumber: 3,
        transactionType: 21,
        dueDate: '2024-05-20',
        amount: 49_900,
        kid: '200000477',
        payerName: 'Hansen',
        externalReference: 'Abonnement mai 2024',
        // File order is kept (the specification allows any order within a transaction).
        specification: [
          { lineNumber: 1, column: 2, text: 'Faktura 100236' },
          { lineNumber: 1, column: 1, text: 'Gjelder: Minside Pluss, mai 2024' },
        ],
      },
    ]);
    expect({ ...cancellations, transactions: undefined }).toEqual({
      kind: 'avtalegiro-cancellations',
      agreementId: null,
      assignmentNumber: '0000002',
      account: '12345678903',
      line: 16,
      transactions: undefined,
      end: { kind: 'avtalegiro-cancellations', transactions: 2, records: 5, amount: 39_900, netsDate: null, earliestDate: '2024-04-18', latestDate: '2024-04-20', line: 20 },
    });
    expect(cancellations?.transactions).toEqual([
      { type: 'avtalegiro-cancellation', line: 17, transactionNumber: 1, dueDate: '2024-04-20', amount: 29_900, kid: '200000469', payerName: 'NORDMANN', externalReference: '', specification: [] },
      // Slettepost 2 is optional.
      { type: 'avtalegiro-cancellation', line: 19, transactionNumber: 2, dueDate: '2024-04-18', amount: 10_000, kid: '200000485', payerName: null, externalReference: null, specification: [] },
    ]);
  });

  it('turns specification records into the notice text', async () => {
    const { parsed } = await roundTrip('avtalegiro-claims.txt');
    const first = parsed.assignments[0]?.transactions[0];
    expect(first?.type).toBe('avtalegiro-claim');
    if (first?.type !== 'avtalegiro-claim') return;
    expect(specificationToText(first.specification)).toBe(['Gjelder: Minside Pluss, april 2024      Faktura 100234', 'Beløp: 499,00 kr', `${' '.repeat(40)}Takk!`].join('\n'));
  });

  it('writes the parsed content back byte for byte', async () => {
    const { bytes, rewritten } = await roundTrip('avtalegiro-claims.txt');
    expect(rewritten).toEqual(bytes);
  });
});

describe('golden AvtaleGiro mandates file (registration types 0, 1 and 2)', () => {
  it('parses every field', async () => {
    const { parsed } = await roundTrip('avtalegiro-mandates.txt');
    expect(parsed.kind).toBe('avtalegiro-mandates');
    expect(parsed.start).toEqual({ kind: 'avtalegiro-mandates', dataTransmitter: '00008080', transmissionNumber: '1004241', dataRecipient: '00123456', line: 1 });
    // Nets' date may be zeros when a transmission holds only mandates.
    expect(parsed.end).toEqual({ transactions: 5, records: 11, amount: 0, date: null, line: 11 });
    const end = { kind: 'avtalegiro-mandates', amount: 0, netsDate: null, earliestDate: null, latestDate: null } as const;
    expect(parsed.assignments).toEqual([
      {
        kind: 'avtalegiro-mandates',
        agreementId: null,
        assignmentNumber: '0000001',
        account: '12345678903',
        line: 2,
        transactions: [
          { type: 'avtalegiro-mandate', line: 3, transactionNumber: 1, registrationType: 1, kid: '200000451', notify: true },
          { type: 'avtalegiro-mandate', line: 4, transactionNumber: 2, registrationType: 2, kid: '200000469', notify: false },
          { type: 'avtalegiro-mandate', line: 5, transactionNumber: 3, registrationType: 1, kid: '000112000507155', notify: false },
        ],
        end: { ...end, transactions: 3, records: 5, line: 6 },
      },
      {
        kind: 'avtalegiro-mandates',
        agreementId: null,
        assignmentNumber: '0000002',
        account: '12345678903',
        line: 7,
        transactions: [
          { type: 'avtalegiro-mandate', line: 8, transactionNumber: 1, registrationType: 0, kid: '200000451', notify: true },
          { type: 'avtalegiro-mandate', line: 9, transactionNumber: 2, registrationType: 0, kid: '200000477', notify: true },
        ],
        end: { ...end, transactions: 2, records: 4, line: 10 },
      },
    ]);
  });

  it('writes the parsed content back byte for byte', async () => {
    const { bytes, rewritten } = await roundTrip('avtalegiro-mandates.txt');
    expect(rewritten).toEqual(bytes);
  });
});
