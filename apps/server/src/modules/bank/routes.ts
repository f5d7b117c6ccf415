import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fileAnswer, fileSchema } from '@minside/domain';
import { AppError } from '../../lib/app-error.ts';
import { operatorAuth } from '../../plugins/operator-auth.ts';
import type { BankService } from './service.ts';
import { settlementCsv } from './settlement.ts';
import { apiErrors } from '../../lib/api-errors.ts';

/** A bank file of 100,000 OCR transactions is about 25 MB; this leaves room and stops a runaway upload. */
const BANK_FILE_BODY_LIMIT = 64 * 1024 * 1024;

const importResponseSchema = z.object({
  kind: z.enum(['ocr-giro', 'avtalegiro-mandates']),
  transmissionNumber: z.string(),
  transactions: z.number().int(),
  settled: z.number().int(),
  duplicate: z.boolean(),
  unmatched: z.array(z.object({ kid: z.string(), amountOre: z.number().int(), reason: z.string() })),
  unmatchedCount: z.number().int(),
});

const reconciliationItemSchema = z.object({
  fileId: z.string(),
  transmissionNumber: z.string(),
  seq: z.number().int(),
  titleCode: z.string().nullable(),
  kid: z.string(),
  amountOre: z.number().int(),
  reason: z.string(),
  reasonText: z.string(),
  ariaInvoiceNo: z.number().int().nullable(),
  settledOn: z.string().nullable(),
  debitAccount: z.string().nullable(),
});

const errors = apiErrors(400, 401, 404, 409, 413, 415, 422);

/** The operator's bank endpoints (issue 21): a bearer token, no session. 404 while OPERATOR_TOKEN is unset. */
export const bankRoutes: FastifyPluginAsyncZod<{ bank: BankService; operatorToken: string | undefined }> = async (app, { bank, operatorToken }) => {
  app.addHook('onRequest', operatorAuth(operatorToken));
  // The bank's file as it is: text/plain (ISO-8859-1 or UTF-8 text) or octet-stream, only here.
  app.addContentTypeParser(['text/plain', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: BANK_FILE_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post(
    '/bank-files',
    {
      config: { bearerTextBody: true },
      bodyLimit: BANK_FILE_BODY_LIMIT,
      schema: {
        tags: ['operator'],
        querystring: z.object({
          fileName: z
            .string()
            .regex(/^[A-Za-z0-9._-]{1,120}$/, 'a file name: letters, digits, . _ -')
            .optional(),
        }),
        // The file as the bank wrote it; the handler refuses anything that is not these bytes (415).
        consumes: ['text/plain', 'application/octet-stream'],
        body: fileSchema,
        response: { 200: importResponseSchema, ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send filen som text/plain.');
      const charset = /charset=([^;]+)/i
        .exec(request.headers['content-type'] ?? '')?.[1]
        ?.trim()
        .toLowerCase();
      // A UTF-8 body is read as text (æøå arrive as two bytes each otherwise); anything else is the bank's ISO-8859-1.
      return charset === 'utf-8' || charset === 'utf8'
        ? bank.importText(body.toString('utf8'), request.query.fileName ?? null)
        : bank.importBytes(new Uint8Array(body), request.query.fileName ?? null);
    },
  );

  app.get(
    '/bank-files/avtalegiro-claims',
    { schema: { tags: ['operator'], querystring: z.object({ date: z.iso.date() }), response: { 200: fileAnswer('text/plain', "The day's AvtaleGiro claim file (as UTF-8 text)."), ...errors } } },
    // A GET only reads: today's file is made by the avtalegiro-claims job (05:30) or `npm run admin -- bank claims`.
    async (request, reply) => {
      const file = await bank.claimFile(request.query.date);
      if (!file) {
        throw new AppError(
          404,
          'BANK_CLAIMS_NOT_WRITTEN',
          `Ingen AvtaleGiro-trekkfil er laget for ${request.query.date}. Dagens fil lages av jobben avtalegiro-claims (05:30), eller med npm run admin -- bank claims.`,
        );
      }
      return (
        reply
          // The text as JSON-era clients read it (UTF-8); the bank's ISO-8859-1 bytes are the archived file (BANK_FILES_DIR/archive/out).
          .type('text/plain; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('x-transactions', String(file.transactions))
          .send(file.text)
      );
    },
  );

  app.get(
    '/bank-files/settlement',
    { schema: { tags: ['operator'], querystring: z.object({ date: z.iso.date() }), response: { 200: fileAnswer('text/csv', "The day's settlement, one row per payment."), ...errors } } },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="oppgjor-${request.query.date}.csv"`)
        .send(settlementCsv(await bank.settlement(request.query.date))),
  );

  app.get('/bank-files/reconciliation', { schema: { tags: ['operator'], response: { 200: z.object({ items: z.array(reconciliationItemSchema) }), ...errors } } }, async () => ({
    items: await bank.reconciliation(),
  }));
};
