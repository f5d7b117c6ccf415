import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Title } from '@minside/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adresseavisen } from '../test/fixtures.ts';
import { ApiError, createHttpClient, INVALID_RESPONSE, NETWORK_ERROR } from './http.ts';

let server: Server;
let base: string;
const received: Array<{ method?: string; url?: string; contentType?: string; body: string }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, contentType: request.headers['content-type'], body });
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
});
