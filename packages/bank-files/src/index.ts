/**
 * @minside/bank-files: the fixed-width files publishers exchange with Mastercard Payment Services
 * (formerly Nets): OCR Giro transactions, AvtaleGiro claims and cancellations, AvtaleGiro
 * mandates. A strict streaming reader, streaming writers, ISO-8859-1 in and out. See README.md.
 */
export { BankFileError, BankFileWriteError } from './errors.ts';
export type { BankFileErrorCode, BankFileWriteErrorCode } from './errors.ts';
export { AVTALEGIRO_CANCELLATION_TYPE, AVTALEGIRO_CLAIM_TYPES, AVTALEGIRO_MANDATE_TYPE, MANDATE_REGISTRATION_TYPES, NETS_ID, OCR_TRANSACTION_TYPES } from './types.ts';
export type * from './types.ts';
export { bankFileText, decodeBankFile, encodeBankFile, linesFromBytes, linesFromText, splitLines, withLineEndings } from './text.ts';
export type { LineEnding } from './text.ts';
export { parseBankFile, readBankFile } from './reader.ts';
export { writeAvtaleGiroClaims, writeAvtaleGiroMandates, writeOcrGiro, writeParsedBankFile } from './writer.ts';
export { MAX_SPECIFICATION_LINES, SPECIFICATION_LINE_LENGTH, specificationFromText, specificationToText } from './specification.ts';
