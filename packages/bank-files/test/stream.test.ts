/**
 * 100,000 OCR Giro transactions go from the writer straight into the reader, record by record:
 * no array of transactions or records exists anywhere, and the heap stays flat.
 */
import { describe, expect, it } from 'vitest';
import { OCR_TRANSACTION_TYPES, readBankFile, writeOcrGiro } from '../src/index.ts';
import type { OcrTransactionInput, OcrTransactionType } from '../src/index.ts';

const COUNT = 100_000;
const TYPES = Object.values(OCR_TRANSACTION_TYPES);

function* transactions(count: number): Generator<OcrTransactionInput> {
  for (let i = 0; i < count; i++) {
    const transactionType = TYPES[i % TYPES.length] as OcrTransactionType;
    const withText = transactionType === 20 || transactionType === 21;
    yield {
      transactionType,
      netsDate: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
      centreId: '13',
      dayCode: (i % 28) + 1,
      partialSettlementNumber: 0,
      partialSettlementSerialNumber: '00001',
      sign: transactionType === 18 ? '-' : '0',
      amount: 10_000 + (i % 1000),
      kid: String(1_000_000 + i),
      formNumber: '0000000000',
      archiveReference: '000000000',
      bankDate: null,
      debitAccount: '00000000000',
      text: withText ? `Kjøp ${i}` : null,
    };
  }
}

describe('streaming', () => {
  it(`writes and reads ${COUNT.toLocaleString('en')} transactions in constant memory`, async () => {
    const lines = writeOcrGiro({
      transmissionNumber: '0000001',
      dataRecipient: '00123456',
      netsDate: '2026-01-31',
      assignments: [{ agreementId: '000000001', assignmentNumber: '0000001', account: '12345678903', netsDate: '2026-01-31', transactions: transactions(COUNT) }],
    });
    let seen = 0;
    let amount = 0;
    let baseline = 0;
    let peak = 0;
    let records = 0;
    let withText = 0;
    for await (const event of readBankFile(lines)) {
      if (event.type === 'ocr-transaction') {
        seen++;
        amount += event.amount;
        if (event.text !== null) withText++;
        if (seen === 5_000) baseline = process.memoryUsage().heapUsed;
        if (seen % 5_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
      } else if (event.type === 'transmission-end') {
        records = event.totals.records;
        expect(event.totals.transactions).toBe(COUNT);
        expect(event.totals.amount).toBe(amount);
      }
    }
    expect(seen).toBe(COUNT);
    // Two records per transaction, a third for types 20 and 21, and the four start/end records.
    expect(withText).toBe(2 * Math.floor(COUNT / 12));
    expect(records).toBe(COUNT * 2 + withText + 4);
    // Keeping the transactions takes about 60 MB here, streaming them under 10 MB; the limit leaves room for garbage not yet collected.
    expect(peak - baseline).toBeLessThan(32 * 1024 * 1024);
  }, 20_000);
});
