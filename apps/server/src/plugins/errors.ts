import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCodes, errorMessages, type ApiError } from '@minside/domain';
import { AppError } from '../lib/app-error.ts';

/** Connection-level failures that mean "the database is not there right now", not a bug. */
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);

function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && unavailableCodes.has(code)) return true;
    if (typeof message === 'string' && /database is closed|Connection terminated|PGlite is closed|Cannot use a pool after calling end|Query read timeout|timeout exceeded when trying to connect|is not queryable/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * PostgreSQL refusing a value the caller sent (a NUL byte, bytes that are not UTF-8, text longer
 * than its column): the input is wrong, not the server, and nothing was stored.
 */
const invalidInputCodes = new Set(['22021', '22P05', '22001']);

function isInvalidInput(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && invalidInputCodes.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function send(reply: FastifyReply, statusCode: number, body: ApiError): FastifyReply {
  return reply.status(statusCode).type('application/json; charset=utf-8').send(body);
}

/**
 * Turns every error into `{ code, message }`: 4xx for what the caller can fix, 503 when the
 * database is away, 500 without internals otherwise (logged with the request id).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      const body: ApiError = { code: error.code, message: error.message };
      if (error.detail) body.detail = error.detail;
      return send(reply, error.statusCode, body);
    }
    if (error.validation) {
      return send(reply, 400, {
        code: errorCodes.validation,
        message: errorMessages.validation,
        detail: error.validation.map((issue) => `${issue.instancePath || error.validationContext || ''} ${issue.message ?? ''}`.trim()).join('; ').slice(0, 500),
      });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return send(reply, 415, { code: errorCodes.unsupportedMediaType, message: errorMessages.unsupportedMediaType });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(reply, 413, { code: errorCodes.payloadTooLarge, message: errorMessages.payloadTooLarge });
    }
    if (error.statusCode === 429) {
      return send(reply, 429, { code: errorCodes.rateLimited, message: errorMessages.rateLimited });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, empty bodies and the like: Fastify's own client errors.
      return send(reply, error.statusCode, { code: errorCodes.validation, message: errorMessages.validation });
    }
    if (isInvalidInput(error)) {
      return send(reply, 400, { code: errorCodes.validation, message: errorMessages.validation });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return send(reply, 503, { code: errorCodes.unavailable, message: errorMessages.unavailable });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, { code: errorCodes.internal, message: errorMessages.internal });
  });
}

/**
 * A request that reaches the server after it has begun to close (SIGTERM in a rolling deploy)
 * gets the same 503 `{ code, message }` as any other unavailability, with `Connection: close`
 * so that the client or the load balancer goes elsewhere. Fastify's own answer for this
 * (`return503OnClosing`, off in app.ts) is English and has no code. In-flight requests are
 * not touched: they finish before the server closes. The log line tells a request refused at
 * the door from one that was accepted (test/reliability.test.ts relies on it).
 */
export function registerDrainingAnswer(app: FastifyInstance): void {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    request.log.info('refused while closing');
    reply.header('connection', 'close');
    return send(reply, 503, { code: errorCodes.unavailable, message: errorMessages.unavailable });
  });
}

export function sendApiNotFound(reply: FastifyReply): FastifyReply {
  return send(reply, 404, { code: errorCodes.notFound, message: errorMessages.notFound });
}

/** The one answer for "not there" and "not yours": another user's id must look like a missing one. */
export function notFound(): AppError {
  return new AppError(404, errorCodes.notFound, errorMessages.notFound);
}
