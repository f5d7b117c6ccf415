import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { errorCodes, errorMessages, type ApiError } from '@minside/domain';
import { AppError } from '../lib/app-error.ts';
import { isDatabaseUnavailable, isInvalidInput } from '../lib/pg-errors.ts';

function send(reply: FastifyReply, statusCode: number, body: ApiError): FastifyReply {
  return reply.status(statusCode).type('application/json; charset=utf-8').send(body);
}

/**
 * An HTTP/1.1 request without Host is a 400 like any other refusal. Node's own check answers a bare
 * 400 without headers or body; app.ts turns it off (`requireHostHeader`) for this one, which the
 * edge's onRequest runs (plugins/edge.ts).
 */
export function refuseWithoutHost(request: FastifyRequest): void {
  const { httpVersionMajor, httpVersionMinor } = request.raw;
  const http11 = httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
  if (http11 && !request.headers.host) throw new AppError(400, errorCodes.validation, errorMessages.validation);
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
        detail: error.validation
          .map((issue) => `${issue.instancePath || error.validationContext || ''} ${issue.message ?? ''}`.trim())
          .join('; ')
          .slice(0, 500),
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

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * From now on every new request is answered 503 and every answer carries `Connection:
     * close` (lib/graceful-close.ts calls it at SIGTERM, before the listener closes; closing the
     * app does it too).
     */
    beginDraining(): void;
  }
}

/**
 * A request that reaches the server after it has begun to close (SIGTERM in a rolling deploy)
 * gets the same 503 `{ code, message }` as any other unavailability, with `Connection: close`
 * so that the client or the load balancer goes elsewhere. Fastify's own answer for this
 * (`return503OnClosing`, off in app.ts) is English and has no code. In-flight requests are
 * not touched: they finish before the server closes, their answers with `Connection: close`
 * too, so that a keep-alive connection ends after the answer it is owed. The log line tells a
 * request refused at the door from one that was accepted (test/reliability.test.ts relies on it).
 */
export function registerDraining(app: FastifyInstance): () => boolean {
  let draining = false;
  app.decorate('beginDraining', () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    draining = true;
  });
  // The edge's hooks (plugins/edge.ts) answer with answerWhileDraining and close the connection after each answer while it is true.
  return () => draining;
}

/** The answer to a request that arrived while the server closes. */
export function answerWhileDraining(request: FastifyRequest, reply: FastifyReply): void {
  request.log.info('refused while closing');
  reply.header('connection', 'close');
  send(reply, 503, { code: errorCodes.unavailable, message: errorMessages.unavailable });
}

export function sendApiNotFound(reply: FastifyReply): FastifyReply {
  return send(reply, 404, { code: errorCodes.notFound, message: errorMessages.notFound });
}

const routedMethods: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * A request no route took: 405 with `Allow` when the path is a route for other methods
 * (Fastify itself answers 404 for both), else the JSON 404.
 */
export function sendNoRoute(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const allowed = routedMethods.filter((method) => method !== request.method && app.findRoute({ method, url: request.url }) !== null);
  if (allowed.length === 0) return sendApiNotFound(reply);
  return send(reply.header('allow', allowed.join(', ')), 405, { code: errorCodes.methodNotAllowed, message: errorMessages.methodNotAllowed });
}

/** An answer given before there is a route: Fastify's own refusals and the HTTP parser's. */
interface EdgeAnswer {
  status: number;
  body: ApiError;
}

const invalidRequest: EdgeAnswer = { status: 400, body: { code: errorCodes.validation, message: errorMessages.validation } };

/**
 * What Fastify raises before any route or hook runs (its `frameworkErrors` option): a path
 * that does not decode (FST_ERR_BAD_URL), a path parameter over `maxParamLength`
 * (FST_ERR_MAX_PARAM_LENGTH), a route constraint that failed. Fastify's own answers are
 * English, repeat the path and carry none of our headers.
 */
function frameworkErrorAnswer(error: FastifyError): EdgeAnswer {
  if (error.code === 'FST_ERR_BAD_URL') return invalidRequest;
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return { status: 414, body: { code: errorCodes.urlTooLong, message: errorMessages.urlTooLong } };
  return { status: 500, body: { code: errorCodes.internal, message: errorMessages.internal } };
}

/**
 * The `frameworkErrors` option of app.ts. The request has no route, so no hook runs for it:
 * the security headers (`headers`, the same as plugins/security-headers.ts sets) and the
 * request id are set here.
 */
export function createFrameworkErrorHandler(headers: Record<string, string>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const { status, body } = frameworkErrorAnswer(error);
    if (status >= 500) request.log.error({ err: error }, 'framework error before routing');
    else request.log.info({ code: error.code }, 'refused before routing');
    reply.headers({ ...headers, 'cache-control': 'no-store', 'x-request-id': request.id });
    return reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
  };
}

type ClientError = Error & { code?: string; rawPacket?: unknown };

/** Whether the parser's last packet starts a request whose request line (the URL) is what overflowed. */
function requestLineTooLong(packet: unknown): boolean {
  if (!Buffer.isBuffer(packet)) return false;
  const text = packet.toString('latin1', 0, Math.min(packet.length, 64 * 1024));
  if (!/^[A-Z]+ [^ \r\n]/.test(text)) return false;
  const end = text.indexOf('\r\n');
  return end === -1 || end > 8 * 1024;
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (the `clientError` event): a
 * URL or headers over `maxHeaderSize` (16 KB: 414 when the request line is what overflowed,
 * else 431), a request that did not arrive within `headersTimeout` (408), and anything that is
 * not HTTP (an unknown method, a control character in a header, Content-Length together with
 * Transfer-Encoding: 400).
 */
function clientErrorAnswer(error: ClientError): EdgeAnswer {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, body: { code: errorCodes.requestTimeout, message: errorMessages.requestTimeout } };
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return requestLineTooLong(error.rawPacket)
      ? { status: 414, body: { code: errorCodes.urlTooLong, message: errorMessages.urlTooLong } }
      : { status: 431, body: { code: errorCodes.headersTooLarge, message: errorMessages.headersTooLarge } };
  }
  return invalidRequest;
}

/**
 * The `clientErrorHandler` option of app.ts: there is no request or reply, so a minimal HTTP
 * answer is written on the socket itself, with the security headers, and the connection closed
 * (what follows on it cannot be parsed). Fastify's default writes English without our headers.
 */
export function createClientErrorHandler(headers: Record<string, string>) {
  // Fastify calls it with the instance as `this`.
  return function onClientError(this: FastifyInstance, error: ClientError, socket: Duplex): void {
    // A reset connection has no one to answer; a second error on one already answered needs nothing more.
    if (error.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
    // An answer already under way on this connection (pipelining) must not be cut into.
    if ((socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const { status, body } = clientErrorAnswer(error);
    this.log.info({ code: error.code, status }, 'refused by the HTTP parser');
    const payload = JSON.stringify(body);
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(payload)}`,
      'cache-control: no-store',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      'connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${payload}`);
    // Closed for good a moment later, whether or not the client closes its side: destroying at
    // once could reset the connection before the client has read the answer.
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
}

/** The one answer for "not there" and "not yours": another user's id must look like a missing one. */
export function notFound(): AppError {
  return new AppError(404, errorCodes.notFound, errorMessages.notFound);
}
