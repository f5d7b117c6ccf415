import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Title } from '@minside/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adresseavisen } from '../test/fixtures.ts';
import { ApiError, createHttpClient, INVALID_RESPONSE, isConnectionError, NETWORK_ERROR, OFFLINE, TIMEOUT } from './http.ts';

let server: Server;
let base: string;
const received: Array<{ method?: string; url?: string; contentType?: string; idempotencyKey?: string | string[]; body: string }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, contentType: request.headers['content-type'], idempotencyKey: request.headers['idempotency-key'], body });
      const json = (status: number, data: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
      if (request.url === '/api/title/ADR') return json(200, adresseavisen);
      if (request.url === '/api/title/XX') return json(404, { code: 'UNKNOWN_TITLE', message: 'Fant ingen avis med koden XX.' });
      if (request.url === '/api/echo') return json(200, { ...adresseavisen, name: JSON.parse(body).name });
      if (request.url === '/api/private') return json(401, { code: 'UNAUTHENTICATED', message: 'Du må logge inn.' });
      if (request.url === '/api/notacceptable') return json(406, { code: 'NOT_ACCEPTABLE', message: 'Logg inn på nytt.' });
      if (request.url === '/api/half-error') return json(409, { code: 'CONFLICT', message: 42 });
      if (request.url === '/api/html') return response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Min Side</p>');
      if (request.url === '/api/empty') return response.writeHead(200).end();
      if (request.url === '/api/scalar') return json(200, 'ok');
      if (request.url === '/api/null') return json(200, null);
      if (request.url === '/api/list') return json(200, [{ code: 'MISSING' }]);
      return response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('http client', () => {
  it('GETs JSON and returns it as the contract type', async () => {
    const client = createHttpClient({ baseUrl: base });
    const title = await client.get<Title>('title/ADR');
    expect(title).toEqual(adresseavisen);
  });

  it('POSTs a JSON body', async () => {
    const client = createHttpClient({ baseUrl: base });
    const title = await client.post<Title>('/echo', { name: 'Varden' });
    expect(title.name).toBe('Varden');
    expect(received.at(-1)).toMatchObject({ method: 'POST', url: '/api/echo', contentType: 'application/json', body: '{"name":"Varden"}' });
  });

  it('throws an ApiError with the status, code and message of a {code, message} error', async () => {
    const client = createHttpClient({ baseUrl: base });
    const error = await client.get('title/XX').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'UNKNOWN_TITLE', message: 'Fant ingen avis med koden XX.' });
  });

  it('throws a generic ApiError when the error body is not {code, message}', async () => {
    const client = createHttpClient({ baseUrl: base });
    await expect(client.get('gateway')).rejects.toMatchObject({ status: 502, code: 'INTERNAL_ERROR', message: 'Noe gikk galt hos oss. Prøv igjen om litt.' });
    await expect(client.get('half-error')).rejects.toMatchObject({ status: 409, code: 'INTERNAL_ERROR' });
  });

  it('throws INVALID_RESPONSE when a 2xx body is not JSON data (ADR 020: its fields are for the server to check)', async () => {
    const client = createHttpClient({ baseUrl: base });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const path of ['html', 'empty', 'scalar', 'null']) {
      await expect(client.get(path)).rejects.toMatchObject({ status: 200, code: INVALID_RESPONSE, message: 'Noe gikk galt hos oss. Prøv igjen om litt.' });
    }
    expect(logged).toHaveBeenCalledTimes(4);
    logged.mockRestore();
  });

  it('returns a JSON array as it is', async () => {
    const client = createHttpClient({ baseUrl: base });
    await expect(client.get('list')).resolves.toEqual([{ code: 'MISSING' }]);
  });

  it('throws NETWORK_ERROR when the server cannot be reached', async () => {
    const client = createHttpClient({ baseUrl: 'http://127.0.0.1:1/api/' });
    await expect(client.get('title/ADR')).rejects.toMatchObject({ status: 0, code: NETWORK_ERROR });
  });

  it('calls the unauthenticated hook on 401 and 406 only, then still throws to the caller', async () => {
    const client = createHttpClient({ baseUrl: base });
    const onUnauthenticated = vi.fn();
    client.setUnauthenticatedHandler(onUnauthenticated);
    await expect(client.get('private')).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    await expect(client.get('notacceptable')).rejects.toMatchObject({ status: 406 });
    await expect(client.get('title/XX')).rejects.toMatchObject({ status: 404 });
    expect(onUnauthenticated).toHaveBeenCalledTimes(2);
    expect(onUnauthenticated.mock.calls.map(([error]) => (error as ApiError).status)).toEqual([401, 406]);
  });

  it('leaves the unauthenticated hook out when the request asks to', async () => {
    const client = createHttpClient({ baseUrl: base });
    const onUnauthenticated = vi.fn();
    client.setUnauthenticatedHandler(onUnauthenticated);
    await expect(client.get('private', { skipUnauthenticatedHandler: true })).rejects.toMatchObject({ status: 401 });
    await expect(client.get('notacceptable', { skipUnauthenticatedHandler: true })).rejects.toMatchObject({ status: 406 });
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('gives every write an Idempotency-Key, the same for the same action until it is answered (ADR 029)', async () => {
    let made = 0;
    const client = createHttpClient({ baseUrl: base, newKey: () => `key-${++made}` });
    await client.get<Title>('title/ADR');
    expect(received.at(-1)?.idempotencyKey).toBeUndefined();

    // Answered: the same request again is a new action with a new key.
    await client.post('echo', { name: 'Varden' });
    await client.post('echo', { name: 'Varden' });
    expect(received.slice(-2).map((request) => request.idempotencyKey)).toEqual(['key-1', 'key-2']);

    // Another body is another action; a caller's own key wins.
    await client.put('echo', { name: 'Varden' });
    await client.post('echo', { name: 'Adresseavisen' }, { idempotencyKey: 'my-own-key' });
    expect(received.slice(-2).map((request) => request.idempotencyKey)).toEqual(['key-3', 'my-own-key']);
  });

  it('keeps the key of a write that got no answer, so "Prøv igjen" is the same action', async () => {
    let made = 0;
    let failNext = true;
    const sent: Array<string | null> = [];
    const client = createHttpClient({
      baseUrl: base,
      newKey: () => `key-${++made}`,
      fetch: (input, init) => {
        sent.push(new Headers(init?.headers).get('idempotency-key'));
        if (failNext) {
          failNext = false;
          return Promise.reject(new TypeError('Failed to fetch'));
        }
        return fetch(input, init);
      },
    });
    const lost = await client.post('echo', { name: 'Varden' }).catch((error: unknown) => error);
    expect(lost).toMatchObject({ status: 0, code: NETWORK_ERROR });
    expect(isConnectionError(lost)).toBe(true);
    await client.post('echo', { name: 'Varden' });
    await client.post('echo', { name: 'Varden' });
    expect(sent).toEqual(['key-1', 'key-1', 'key-2']);
  });

  it('fails at once with OFFLINE when the browser has no network, and sends nothing', async () => {
    const fetched = vi.fn<typeof fetch>();
    const client = createHttpClient({ baseUrl: base, fetch: fetched, isOnline: () => false });
    const error = await client.post('echo', { name: 'Varden' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: OFFLINE, message: 'Du er uten nettforbindelse. Koble til internett og prøv igjen.' });
    expect(isConnectionError(error)).toBe(true);
    expect(fetched).not.toHaveBeenCalled();
  });

  it('gives up with TIMEOUT when no answer comes in time, instead of waiting on', async () => {
    const hanging: typeof fetch = (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const client = createHttpClient({ baseUrl: base, fetch: hanging, timeoutMs: 20 });
    await expect(client.post('echo', {})).rejects.toMatchObject({ status: 0, code: TIMEOUT, message: 'Min Side svarer ikke. Sjekk nettforbindelsen og prøv igjen.' });
  });

  it('passes the caller’s own abort on as it is, not as a timeout', async () => {
    const hanging: typeof fetch = (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const client = createHttpClient({ baseUrl: base, fetch: hanging, timeoutMs: 10_000 });
    const caller = new AbortController();
    const pending = client.get('title/ADR', { signal: caller.signal }).catch((e: unknown) => e);
    caller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
  });
});
