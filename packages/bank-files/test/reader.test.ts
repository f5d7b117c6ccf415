import { describe, expect, it } from 'vitest';
import { BankFileError, decodeBankFile, encodeBankFile, linesFromBytes, parseBankFile, readBankFile } from '../src/index.ts';
import { collect, expectParseError, goldenBytes, goldenLines, joinLines, patch, patchLine, parseError } from './helpers.ts';

const ocr = goldenLines('ocr-giro.txt');
const claims = goldenLines('avtalegiro-claims.txt');
const mandates = goldenLines('avtalegiro-mandates.txt');

function without(lines: readonly string[], ...numbers: number[]): string[] {
  return lines.filter((_, i) => !numbers.includes(i + 1));
}

describe('messages', () => {
  it('names the line and the record length', async () => {
    const lines = ocr.map((l, i) => (i === 2 ? l.slice(0, 79) : l));
    const error = await expectParseError(lines, 'RECORD_LENGTH', 3, 'record');
    expect(error.message).toBe('Linje 3: posten har 79 tegn, ikke 80');
    expect(error).toBeInstanceOf(BankFileError);
    expect(error.name).toBe('BankFileError');
  });

  it('names an unknown service code', async () => {
    const error = await expectParseError(patchLine(ocr, 7, 3, '05'), 'UNKNOWN_SERVICE_CODE', 7, 'serviceCode');
    expect(error.message).toBe('Linje 7: ukjent tjenestekode "05"');
  });

  it('names both sums when the amount sum of an assignment end is wrong', async () => {
    const error = await expectParseError(patchLine(ocr, 19, 25, '00000000000128600'), 'CHECKSUM_MISMATCH', 19, 'amount');
    expect(error.message).toBe('Linje 19: beløpssummen i sluttposten (128600) stemmer ikke med transaksjonene (128700)');
  });

  it('refuses characters outside ISO-8859-1', async () => {
    const error = await expectParseError(patchLine(ocr, 1, 40, '€'), 'INVALID_CHARACTER', 1, 'record');
    expect(error.message).toBe('Linje 1: ugyldig tegn (ikke ISO-8859-1)');
    await expectParseError(patchLine(ocr, 5, 60, '\t'), 'INVALID_CHARACTER', 5);
    await expectParseError(patchLine(claims, 4, 16, 'Ā'), 'INVALID_CHARACTER', 4);
  });
});

describe('bytes and text', () => {
  it('decodes ISO-8859-1 one byte per character and encodes it back', () => {
    const bytes = goldenBytes('avtalegiro-claims.txt');
    const text = decodeBankFile(bytes);
    expect(text).toContain('Ås Ærlig');
    expect(encodeBankFile(text)).toEqual(bytes);
  });

  it('refuses control bytes and the C1 range, naming the line', () => {
    const bytes = goldenBytes('ocr-giro.txt').slice();
    bytes[81 * 4 + 10] = 0x80; // line 5
    expect(() => decodeBankFile(bytes)).toThrow(expect.objectContaining({ code: 'INVALID_CHARACTER', line: 5 }));
    expect(() => decodeBankFile(new Uint8Array([0x4e, 0x59, 0x00]))).toThrow(expect.objectContaining({ code: 'INVALID_CHARACTER', line: 1 }));
  });

  it('refuses text outside ISO-8859-1 when encoding, naming the line', () => {
    expect(() => encodeBankFile('NY\nNY€')).toThrow(expect.objectContaining({ code: 'INVALID_CHARACTER', line: 2 }));
    expect(() => encodeBankFile('😀')).toThrow(BankFileError);
    expect(encodeBankFile('Æ\r\n')).toEqual(new Uint8Array([0xc6, 0x0d, 0x0a]));
  });

  it('splits byte chunks into lines wherever the chunks cut, CRLF included', async () => {
    const bytes = encodeBankFile(joinLines(ocr).replaceAll('\n', '\r\n'));
    for (const size of [1, 7, 80, 81, 82, 1000]) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      const events = await collect(readBankFile(linesFromBytes(chunks)));
      expect(events).toHaveLength(18);
    }
  });

  it('gives the right line for a bad byte in a later chunk', async () => {
    const bytes = encodeBankFile(joinLines(ocr));
    const bad = bytes.slice();
    bad[81 * 20 + 3] = 0x1a;
    const chunks = [bad.subarray(0, 500), bad.subarray(500, 1000), bad.subarray(1000, 1700), bad.subarray(1700)];
    await expect(collect(readBankFile(linesFromBytes(chunks)))).rejects.toMatchObject({ code: 'INVALID_CHARACTER', line: 21 });
  });
});

describe('codes and fields', () => {
  it('checks the format code', async () => {
    const error = await expectParseError(patchLine(claims, 9, 1, 'NX'), 'FORMAT_CODE', 9, 'formatCode');
    expect(error.message).toBe('Linje 9: formatkoden er "NX", ikke "NY"');
  });

  it('checks record types, also against the service code', async () => {
    await expectParseError(patchLine(ocr, 4, 7, '55'), 'UNKNOWN_RECORD_TYPE', 4, 'recordType');
    await expectParseError(patchLine(ocr, 4, 7, '49'), 'UNKNOWN_RECORD_TYPE', 4);
    await expectParseError(patchLine(claims, 4, 7, '32'), 'UNKNOWN_RECORD_TYPE', 4);
  });

  it('checks transmission, assignment and transaction types', async () => {
    await expectParseError(patchLine(ocr, 1, 5, '01'), 'UNKNOWN_TRANSACTION_TYPE', 1);
    await expectParseError(patchLine(ocr, 2, 5, '24'), 'UNKNOWN_TRANSACTION_TYPE', 2, 'assignmentType');
    await expectParseError(patchLine(ocr, 3, 5, '22'), 'UNKNOWN_TRANSACTION_TYPE', 3, 'transactionType');
    await expectParseError(patchLine(ocr, 15, 5, '19'), 'UNKNOWN_TRANSACTION_TYPE', 15);
    await expectParseError(patchLine(claims, 3, 5, '15'), 'UNKNOWN_TRANSACTION_TYPE', 3);
    await expectParseError(patchLine(mandates, 3, 5, '93'), 'UNKNOWN_TRANSACTION_TYPE', 3);
    // 93 belongs to cancellation assignments, 02/21 to claim assignments.
    await expectParseError(patchLine(patchLine(claims, 9, 5, '93'), 10, 5, '93'), 'INVALID_FIELD', 9, 'transactionType');
    await expectParseError(patchLine(patchLine(claims, 17, 5, '21'), 18, 5, '21'), 'INVALID_FIELD', 17, 'transactionType');
  });

  it('checks numeric fields', async () => {
    const error = await expectParseError(patchLine(ocr, 5, 40, 'x'), 'INVALID_FIELD', 5, 'amount');
    expect(error.message).toBe('Linje 5: feltet beløp (pos. 33-49) er ikke numerisk: "0000000x000014900"');
    await expectParseError(patchLine(ocr, 2, 20, ' '), 'INVALID_FIELD', 2, 'assignmentNumber');
    await expectParseError(patchLine(ocr, 1, 9, 'A'), 'INVALID_FIELD', 1, 'dataTransmitter');
    await expectParseError(patchLine(ocr, 4, 50, 'A'), 'INVALID_FIELD', 4, 'debitAccount');
  });

  it('checks dates', async () => {
    const error = await expectParseError(patchLine(ocr, 3, 16, '300224'), 'INVALID_FIELD', 3, 'netsDate');
    expect(error.message).toBe('Linje 3: feltet Nets-dato (pos. 16-21) er ikke en gyldig dato (DDMMÅÅ): "300224"');
    await expectParseError(patchLine(ocr, 3, 16, '000000'), 'INVALID_FIELD', 3, 'netsDate');
    await expectParseError(patchLine(claims, 3, 16, '311124'), 'INVALID_FIELD', 3, 'dueDate');
    await expectParseError(patchLine(ocr, 4, 42, '321224'), 'INVALID_FIELD', 4, 'bankDate');
    // 29 February exists in 2024, not in 2023.
    await expectParseError(patchLine(ocr, 4, 42, '290223'), 'INVALID_FIELD', 4, 'bankDate');
    await expectParseError(patchLine(ocr, 32, 42, '000000'), 'INVALID_FIELD', 32, 'date');
  });

  it('checks the sign', async () => {
    await expectParseError(patchLine(ocr, 3, 32, '+'), 'INVALID_FIELD', 3, 'sign');
    const error = await expectParseError(patchLine(ocr, 3, 32, '-'), 'INVALID_FIELD', 3, 'sign');
    expect(error.message).toContain('tilbakeføringer');
    // A reversal may come with sign 0 (a payee who cannot book credit notes electronically).
    await expect(parseBankFile(joinLines(patchLine(ocr, 9, 32, '0')))).resolves.toBeDefined();
  });

  it('checks KIDs: digits, right-aligned, present where required', async () => {
    await expectParseError(patchLine(ocr, 3, 70, 'A'), 'INVALID_FIELD', 3, 'kid');
    await expectParseError(patchLine(ocr, 3, 74, ' '), 'INVALID_FIELD', 3, 'kid');
    await expectParseError(patchLine(ocr, 3, 66, '-'), 'INVALID_FIELD', 3, 'kid');
    await expectParseError(patchLine(claims, 3, 50, ' '.repeat(25)), 'INVALID_FIELD', 3, 'kid');
    await expectParseError(patchLine(mandates, 3, 17, ' '.repeat(25)), 'INVALID_FIELD', 3, 'kid');
    // A MOD11 check digit of 10 is written "-": the last character of a KID may be one (and only the last).
    const dashed = await parseBankFile(joinLines(patchLine(ocr, 3, 74, '-')));
    const first = dashed.assignments[0]?.transactions[0];
    expect(first && 'kid' in first ? first.kid : null).toMatch(/^\d+-$/);
  });

  it('checks fillers', async () => {
    await expectParseError(patchLine(ocr, 3, 80, '1'), 'INVALID_FIELD', 3, 'filler');
    await expectParseError(patchLine(ocr, 1, 32, '1'), 'INVALID_FIELD', 1, 'filler');
    await expectParseError(patchLine(claims, 2, 9, '1'), 'INVALID_FIELD', 2, 'filler');
    await expectParseError(patchLine(claims, 3, 22, '4'), 'INVALID_FIELD', 3, 'filler');
    await expectParseError(patchLine(claims, 4, 30, 'x'), 'INVALID_FIELD', 4, 'filler');
    await expectParseError(patchLine(ocr, 15, 60, '9'), 'INVALID_FIELD', 15, 'filler');
    await expectParseError(patchLine(mandates, 6, 30, '1'), 'INVALID_FIELD', 6, 'filler');
  });

  it('checks OCR codes: day code, card issuer', async () => {
    await expectParseError(patchLine(ocr, 3, 24, '00'), 'INVALID_FIELD', 3, 'dayCode');
    await expectParseError(patchLine(ocr, 3, 24, '32'), 'INVALID_FIELD', 3, 'dayCode');
    await expectParseError(patchLine(ocr, 3, 75, 'X1'), 'INVALID_FIELD', 3, 'cardIssuer');
  });

  it('checks specification records', async () => {
    await expectParseError(patchLine(claims, 5, 16, '5'), 'INVALID_FIELD', 5, 'paymentNotice');
    await expectParseError(patchLine(claims, 5, 17, '043'), 'INVALID_FIELD', 5, 'lineNumber');
    await expectParseError(patchLine(claims, 5, 17, '000'), 'INVALID_FIELD', 5, 'lineNumber');
    await expectParseError(patchLine(claims, 5, 20, '3'), 'INVALID_FIELD', 5, 'column');
    await expectParseError(patchLine(claims, 5, 21, ' '.repeat(40)), 'INVALID_FIELD', 5, 'text');
    await expectParseError(patchLine(claims, 6, 17, '0011'), 'INVALID_FIELD', 6, 'specification');
  });

  it('checks mandate records', async () => {
    await expectParseError(patchLine(mandates, 3, 16, '3'), 'INVALID_FIELD', 3, 'registrationType');
    await expectParseError(patchLine(mandates, 3, 42, 'Y'), 'INVALID_FIELD', 3, 'notify');
  });

  it('refuses amounts past Number.MAX_SAFE_INTEGER', async () => {
    const error = await expectParseError(patchLine(ocr, 3, 33, '99999999999999999'), 'INVALID_FIELD', 3, 'amount');
    expect(error.message).toContain('9007199254740991');
  });

  it('checks who sends and receives', async () => {
    await expectParseError(patchLine(ocr, 1, 9, '00012345'), 'INVALID_FIELD', 1, 'dataTransmitter');
    await expectParseError(patchLine(mandates, 1, 9, '00012345'), 'INVALID_FIELD', 1, 'dataTransmitter');
    await expectParseError(patchLine(claims, 1, 24, '00012345'), 'INVALID_FIELD', 1, 'dataRecipient');
  });
});

describe('order and structure', () => {
  it('wants amount item 1 before amount item 2', async () => {
    const swapped = [...ocr];
    [swapped[2], swapped[3]] = [ocr[3] as string, ocr[2] as string];
    const error = await expectParseError(swapped, 'UNEXPECTED_RECORD', 3, 'recordType');
    expect(error.message).toBe('Linje 3: uventet beløpspost 2 (31), forventet beløpspost 1 (30) eller sluttpost for oppdrag (88)');
  });

  it('wants amount item 2 in every claim and OCR transaction', async () => {
    await expectParseError(without(ocr, 4), 'UNEXPECTED_RECORD', 4);
    await expectParseError(without(claims, 10), 'UNEXPECTED_RECORD', 10);
    await expectParseError(without(ocr, 18), 'UNEXPECTED_RECORD', 18);
  });

  it('wants amount item 3 for types 20 and 21 and only there', async () => {
    const error = await expectParseError(without(ocr, 15), 'UNEXPECTED_RECORD', 15);
    expect(error.message).toContain('forventet beløpspost 3 (32)');
    const extra = [...ocr.slice(0, 4), patch(patch(ocr[14] as string, 5, '10'), 9, '0000001'), ...ocr.slice(4)];
    await expectParseError(extra, 'UNKNOWN_TRANSACTION_TYPE', 5);
  });

  it('refuses records of the wrong kind of assignment', async () => {
    await expectParseError([...claims.slice(0, 4), patch(mandates[2] as string, 9, '0000001'), ...claims.slice(4)], 'UNEXPECTED_RECORD', 5);
    await expectParseError([...mandates.slice(0, 3), claims[2] as string, ...mandates.slice(3)], 'UNEXPECTED_RECORD', 4);
    await expectParseError([...claims.slice(0, 4), ocr[2] as string, ...claims.slice(4)], 'UNEXPECTED_RECORD', 5, 'serviceCode');
    // An assignment end of another assignment type.
    await expectParseError(patchLine(claims, 15, 5, '36'), 'UNEXPECTED_RECORD', 15, 'assignmentType');
  });

  it('takes specification records only after amount item 2 of a claim', async () => {
    const moved = [...claims];
    [moved[3], moved[4]] = [claims[4] as string, claims[3] as string];
    await expectParseError(moved, 'UNEXPECTED_RECORD', 4);
  });

  it('lets a cancellation have specification records, before which amount item 2 must come', async () => {
    const spec = patch(claims[4] as string, 9, '0000001');
    const ok = [...claims.slice(0, 18), spec, ...claims.slice(18)];
    const ends = ok.map((l, i) => (i === 20 ? patch(l, 17, '00000006') : i === 21 ? patch(l, 17, '00000022') : l));
    const parsed = await parseBankFile(joinLines(ends));
    const cancellation = parsed.assignments[1]?.transactions[0];
    expect(cancellation).toMatchObject({ type: 'avtalegiro-cancellation', specification: [{ lineNumber: 1, column: 1 }] });
    const wrong = [...claims.slice(0, 17), spec, ...claims.slice(17)];
    await expectParseError(wrong, 'UNEXPECTED_RECORD', 19);
  });

  it('starts with a transmission start record, once', async () => {
    await expectParseError(claims.slice(1), 'UNEXPECTED_RECORD', 1);
    await expectParseError([claims[0] as string, ...claims], 'UNEXPECTED_RECORD', 2);
  });

  it('checks that the items of a transaction agree', async () => {
    const error = await expectParseError(patchLine(ocr, 4, 9, '0000002'), 'TRANSACTION_MISMATCH', 4, 'transactionNumber');
    expect(error.message).toBe('Linje 4: transaksjonsnummer 2 stemmer ikke med beløpspost 1 (1)');
    await expectParseError(patchLine(ocr, 4, 5, '11'), 'TRANSACTION_MISMATCH', 4, 'transactionType');
    await expectParseError(patchLine(claims, 7, 9, '0000002'), 'TRANSACTION_MISMATCH', 7, 'transactionNumber');
    await expectParseError(patchLine(ocr, 18, 9, '0000006'), 'TRANSACTION_MISMATCH', 18);
  });

  it('wants transaction numbers ascending and above zero', async () => {
    await expectParseError(patchLine(mandates, 4, 9, '0000001'), 'TRANSACTION_ORDER', 4, 'transactionNumber');
    await expectParseError(patchLine(mandates, 3, 9, '0000000'), 'INVALID_FIELD', 3, 'transactionNumber');
    // Gaps are allowed.
    await expect(parseBankFile(joinLines(patchLine(mandates, 5, 9, '0000009')))).resolves.toBeDefined();
  });

  it('refuses an assignment number used twice', async () => {
    await expectParseError(patchLine(mandates, 7, 18, '0000001'), 'DUPLICATE_ASSIGNMENT', 7, 'assignmentNumber');
  });

  it('refuses claims in a transmission from Nets and the other way round', async () => {
    const mixed = [...claims.slice(0, 20), ...mandates.slice(1, 6), claims[20] as string];
    const error = await expectParseError(mixed, 'MIXED_KINDS', 21);
    expect(error.message).toContain('AvtaleGiro faste betalingsoppdrag');
    await expectParseError([...ocr.slice(0, 19), ...claims.slice(1, 15), ocr[31] as string], 'MIXED_KINDS', 20);
  });

  it('reads OCR Giro and mandate assignments in one transmission from Nets', async () => {
    const end = 'NY000089' + '00000010' + '00000025' + '00000000000128700' + '150324' + '0'.repeat(33);
    const mandateAssignment = patchLine(mandates, 2, 18, '0000003').slice(1, 6);
    const parsed = await parseBankFile(joinLines([...ocr.slice(0, 19), ...mandateAssignment, end]));
    expect(parsed.kind).toBe('ocr-giro');
    expect(parsed.assignments.map((a) => a.kind)).toEqual(['ocr-giro', 'avtalegiro-mandates']);
  });
});

describe('end records', () => {
  it('checks the number of transactions and records of an assignment', async () => {
    const error = await expectParseError(patchLine(ocr, 19, 9, '00000008'), 'COUNT_MISMATCH', 19, 'transactions');
    expect(error.message).toBe('Linje 19: antall transaksjoner i sluttposten (8) stemmer ikke med transaksjonene (7)');
    await expectParseError(patchLine(ocr, 19, 17, '00000016'), 'COUNT_MISMATCH', 19, 'records');
    await expectParseError(patchLine(mandates, 6, 17, '00000003'), 'COUNT_MISMATCH', 6, 'records');
  });

  it('counts records with the start and end records included', async () => {
    const parsed = await parseBankFile(joinLines(ocr));
    expect(parsed.assignments.map((a) => a.end.records)).toEqual([18, 12]);
    expect(parsed.end.records).toBe(ocr.length);
  });

  it('checks the totals of the transmission', async () => {
    await expectParseError(patchLine(ocr, 32, 9, '00000011'), 'COUNT_MISMATCH', 32, 'transactions');
    await expectParseError(patchLine(ocr, 32, 17, '00000031'), 'COUNT_MISMATCH', 32, 'records');
    await expectParseError(patchLine(ocr, 32, 25, '00000000002418201'), 'CHECKSUM_MISMATCH', 32, 'amount');
  });

  it('checks earliest and latest dates', async () => {
    await expectParseError(patchLine(ocr, 19, 48, '130324'), 'DATE_MISMATCH', 19, 'earliestDate');
    await expectParseError(patchLine(ocr, 31, 54, '160324'), 'DATE_MISMATCH', 31, 'latestDate');
    await expectParseError(patchLine(claims, 15, 42, '000000'), 'DATE_MISMATCH', 15, 'earliestDate');
    const error = await expectParseError(patchLine(claims, 21, 42, '200424'), 'DATE_MISMATCH', 21, 'date');
    expect(error.message).toBe('Linje 21: første forfallsdato i sluttposten (2024-04-20) stemmer ikke med transaksjonene (2024-04-18)');
  });

  it('accepts an assignment without transactions, with zero dates', async () => {
    const lines = [
      ocr[0] as string,
      ocr[1] as string,
      'NY090088' + '00000000' + '00000002' + '0'.repeat(17) + '150324' + '000000' + '000000' + '0'.repeat(21),
      'NY000089' + '00000000' + '00000004' + '0'.repeat(17) + '150324' + '0'.repeat(33),
    ];
    const parsed = await parseBankFile(joinLines(lines));
    expect(parsed.assignments[0]?.end).toMatchObject({ transactions: 0, earliestDate: null, latestDate: null });
  });

  it('refuses a transmission without assignments', async () => {
    const end = 'NY000089' + '00000000' + '00000002' + '0'.repeat(17) + '150324' + '0'.repeat(33);
    await expectParseError([ocr[0] as string, end], 'EMPTY_TRANSMISSION', 2);
  });

  it('refuses an empty file', async () => {
    const error = await parseError('');
    expect(error).toMatchObject({ code: 'EMPTY_FILE', line: 1 });
  });

  it('refuses a file without its end record', async () => {
    const error = await expectParseError(ocr.slice(0, -1), 'MISSING_END', 32);
    expect(error.message).toBe('Linje 32: filen slutter uten sluttpost for forsendelsen (89)');
    await expectParseError(ocr.slice(0, -2), 'MISSING_END', 31);
    await expectParseError(claims.slice(0, 13), 'MISSING_END', 14);
  });

  it('refuses anything but empty lines after the end record', async () => {
    await expectParseError([...mandates, mandates[0] as string], 'TRAILING_DATA', 12);
    await expectParseError([...mandates, ' '], 'TRAILING_DATA', 12);
    await expect(parseBankFile(`${joinLines(mandates)}\n\r\n`)).resolves.toBeDefined();
    await expect(parseBankFile(joinLines(mandates).slice(0, -1))).resolves.toBeDefined();
  });

  it('stops at the first fault, after yielding what came before it', async () => {
    const events: string[] = [];
    await expect(
      (async () => {
        for await (const event of readBankFile(patchLine(ocr, 7, 3, '05'))) events.push(event.type);
      })(),
    ).rejects.toMatchObject({ code: 'UNKNOWN_SERVICE_CODE', line: 7 });
    // A transaction is yielded once the next record shows it complete: here line 5 completed
    // transaction 1, and line 7 failed before completing transaction 2.
    expect(events).toEqual(['transmission', 'assignment', 'ocr-transaction']);
  });
});
