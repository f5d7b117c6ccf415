import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, errorMessages } from '@minside/domain';
import { buildTestApp, type TestApp } from './helper.ts';

// Issue 20.6: the answers Fastify and Node's HTTP parser give by themselves (a URL that does
// not decode, one that is too long, headers that are too big, a body that is not JSON, no
// route, another method, a request the parser cannot read) are the portal's own: one shape
// `{ code, message }` in Norwegian, the same security headers as every other answer, and
// nothing of what the client sent repeated back.
//
// Sent over a real socket byte for byte: `app.inject` cannot send what a parser refuses.

const HOST = 'adresseavisen.localhost:3000';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as is and reads the answer until the server closes the connection. */
function rawRequest(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
    socket.write(request);
  });
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\n${extra}Connection: close\r\n\r\n`;
const post = (path: string, body: string, type = 'application/json') =>
  `POST ${path} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: ${type}\r\nSec-Fetch-Site: same-origin\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

/** The one shape, in Norwegian, with the portal's headers, not repeating `echo`. */
function expectPortalError(answer: RawAnswer, expected: { status: number; code: string; message: string }, echo: string[]): void {
  const what = `${answer.status} ${answer.body.slice(0, 200)}`;
  expect(answer.status, what).toBe(expected.status);
  expect(answer.headers['content-type'], what).toMatch(/^application\/json; charset=utf-8$/);
  expect(JSON.parse(answer.body), what).toEqual({ code: expected.code, message: expected.message });
  for (const fragment of echo) expect(answer.body, `echoes ${fragment}`).not.toContain(fragment);
  expect(answer.headers['content-security-policy'], what).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
  expect(answer.headers['x-content-type-options'], what).toBe('nosniff');
  expect(answer.headers['x-frame-options'], what).toBe('DENY');
  expect(answer.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(answer.headers['cache-control'], what).toBe('no-store');
}

const invalid = { status: 400, code: errorCodes.validation, message: errorMessages.validation };
const notFound = { status: 404, code: errorCodes.notFound, message: errorMessages.notFound };
const urlTooLong = { status: 414, code: errorCodes.urlTooLong, message: errorMessages.urlTooLong };

describe('framework errors answer like the portal', () => {
  let test: TestApp;
  let port: number;

  beforeAll(async () => {
    test = await buildTestApp('pglite', { seed: false });
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    port = (test.app.server.address() as AddressInfo).port;
  });
  afterAll(() => test?.close());

  const cases: { name: string; request: () => string; expected: { status: number; code: string; message: string }; echo: string[] }[] = [
    { name: 'a path that does not decode (FST_ERR_BAD_URL)', request: () => get('/%E0%A4%A'), expected: invalid, echo: ['%E0', 'url component'] },
    { name: 'an /api path that does not decode', request: () => get('/api/title/%E0%A4%A?x=<b>'), expected: invalid, echo: ['%E0', '<b>'] },
    { name: 'a path parameter over the router’s limit (FST_ERR_MAX_PARAM_LENGTH, 414)', request: () => get(`/api/title/${'Q'.repeat(150)}`), expected: urlTooLong, echo: ['QQQQQQQQ', 'param length'] },
    { name: 'a URL longer than the HTTP parser takes (414)', request: () => get(`/api/title/ADR?q=${'Q'.repeat(20_000)}`), expected: urlTooLong, echo: ['QQQQQQQQ'] },
    {
      name: 'headers larger than the HTTP parser takes (431)',
      request: () => get('/api/title/ADR', `X-Filler: ${'Q'.repeat(20_000)}\r\n`),
      expected: { status: 431, code: errorCodes.headersTooLarge, message: errorMessages.headersTooLarge },
      echo: ['QQQQQQQQ'],
    },
    { name: 'a JSON body that does not parse', request: () => post('/api/retrieveTitleCode', '{"minsideUrl": <script>alert(1)</script>'), expected: invalid, echo: ['<script>', 'Unexpected token'] },
    { name: 'an empty JSON body (FST_ERR_CTP_EMPTY_JSON_BODY)', request: () => post('/api/retrieveTitleCode', ''), expected: invalid, echo: ['FST_'] },
    {
      name: 'a JSON body over the limit (413)',
      request: () => post('/api/retrieveTitleCode', `{"minsideUrl":"${'Q'.repeat(300 * 1024)}"}`),
      expected: { status: 413, code: errorCodes.payloadTooLarge, message: errorMessages.payloadTooLarge },
      echo: ['QQQQQQQQ'],
    },
    { name: 'an unknown /api route', request: () => get('/api/finnes-ikke/%3Cscript%3E'), expected: notFound, echo: ['finnes-ikke', 'script', 'Route GET'] },
    { name: 'an unknown method (the parser refuses it)', request: () => `FOO /api/title/ADR HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`, expected: invalid, echo: ['FOO', 'Client Error'] },
    { name: 'a request line that is not HTTP', request: () => 'HELLO <script>\r\n\r\n', expected: invalid, echo: ['HELLO', 'script'] },
    {
      name: 'Content-Length and Transfer-Encoding together (request smuggling)',
      request: () => `POST /api/retrieveTitleCode HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      expected: invalid,
      echo: ['Transfer-Encoding'],
    },
    { name: 'a control character in a header', request: () => get('/api/title/ADR', 'X-Bad: a\u0001b\r\n'), expected: invalid, echo: ['X-Bad'] },
    { name: 'no Host header on HTTP/1.1', request: () => 'GET /api/title/ADR HTTP/1.1\r\nConnection: close\r\n\r\n', expected: invalid, echo: [] },
  ];

  it.each(cases)('$name', async ({ request, expected, echo }) => {
    expectPortalError(await rawRequest(port, request()), expected, echo);
  });

  it('answers another method on a known route with 405 and the methods it has (Allow)', async () => {
    const answer = await rawRequest(
      port,
      `DELETE /api/title/ADR HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nSec-Fetch-Site: same-origin\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expectPortalError(answer, { status: 405, code: errorCodes.methodNotAllowed, message: errorMessages.methodNotAllowed }, ['DELETE']);
    expect(answer.headers['allow']).toBe('GET, HEAD');
  });

  it('answers a request the parser gave up waiting for (408), from the clientError handler', async () => {
    // Node raises ERR_HTTP_REQUEST_TIMEOUT after headersTimeout (a minute): played on a socket of our own.
    const written: Buffer[] = [];
    const socket = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk);
        done();
      },
    });
    test.app.server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);
    await new Promise((resolve) => setImmediate(resolve));
    const text = Buffer.concat(written).toString('utf8');
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(head).toMatch(/\r\nconnection: close(\r\n|$)/i);
    expect(head).toMatch(/\r\ncontent-security-policy: default-src 'self'/i);
    expect(head).toMatch(/\r\nx-content-type-options: nosniff/i);
    expect(JSON.parse(body)).toEqual({ code: errorCodes.requestTimeout, message: errorMessages.requestTimeout });
    socket.destroy();
  });
});
