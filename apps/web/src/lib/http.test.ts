import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { titleSchema } from '@minside/domain';
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
      if (request.url === '/api/title/ADR') return json(200, { ...adresseavisen, extra: 'stripped' });
      if (request.url === '/api/title/XX') return json(404, { code: 'UNKNOWN_TITLE', message: 'Fant ingen avis med koden XX.' });
      if (request.url === '/api/echo') return json(200, { ...adresseavisen, name: JSON.parse(body).name });
      if (request.url === '/api/private') return json(401, { code: 'UNAUTHENTICATED', message: 'Du må logge inn.' });
      if (request.url === '/api/notacceptable') return json(406, { code: 'NOT_ACCEPTABLE', message: 'Logg inn på nytt.' });
      if (request.url === '/api/bad') return json(200, { name: 42 });
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
  it('GETs JSON and parses it with the schema', async () => {
    const client = createHttpClient({ baseUrl: base });
    const title = await client.get('title/ADR', titleSchema);
    expect(title).toEqual(adresseavisen);
  });

  it('POSTs a JSON body', async () => {
    const client = createHttpClient({ baseUrl: base });
    const title = await client.post('/echo', { name: 'Varden' }, titleSchema);
    expect(title.name).toBe('Varden');
    expect(received.at(-1)).toMatchObject({ method: 'POST', url: '/api/echo', contentType: 'application/json', body: '{"name":"Varden"}' });
  });

  it('throws an ApiError with the status, code and message of a {code, message} error', async () => {
    const client = createHttpClient({ baseUrl: base });
    const error = await client.get('title/XX', titleSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'UNKNOWN_TITLE', message: 'Fant ingen avis med koden XX.' });
  });

  it('throws a generic ApiError when the error body is not {code, message}', async () => {
    const client = createHttpClient({ baseUrl: base });
    await expect(client.get('gateway', titleSchema)).rejects.toMatchObject({ status: 502, code: 'INTERNAL_ERROR' });
  });

  it('throws INVALID_RESPONSE when a 2xx body does not match the schema', async () => {
    const client = createHttpClient({ baseUrl: base });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(client.get('bad', titleSchema)).rejects.toMatchObject({ status: 200, code: INVALID_RESPONSE });
  });

  it('throws NETWORK_ERROR when the server cannot be reached', async () => {
    const client = createHttpClient({ baseUrl: 'http://127.0.0.1:1/api/' });
    await expect(client.get('title/ADR', titleSchema)).rejects.toMatchObject({ status: 0, code: NETWORK_ERROR });
  });

  it('calls the unauthenticated hook on 401 and 406 only, then still throws to the caller', async () => {
    const client = createHttpClient({ baseUrl: base });
    const onUnauthenticated = vi.fn();
    client.setUnauthenticatedHandler(onUnauthenticated);
    await expect(client.get('private', titleSchema)).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    await expect(client.get('notacceptable', titleSchema)).rejects.toMatchObject({ status: 406 });
    await expect(client.get('title/XX', titleSchema)).rejects.toMatchObject({ status: 404 });
    expect(onUnauthenticated).toHaveBeenCalledTimes(2);
    expect(onUnauthenticated.mock.calls.map(([error]) => (error as ApiError).status)).toEqual([401, 406]);
  });

  it('leaves the unauthenticated hook out when the request asks to', async () => {
    const client = createHttpClient({ baseUrl: base });
    const onUnauthenticated = vi.fn();
    client.setUnauthenticatedHandler(onUnauthenticated);
    await expect(client.get('private', titleSchema, { skipUnauthenticatedHandler: true })).rejects.toMatchObject({ status: 401 });
    await expect(client.get('notacceptable', titleSchema, { skipUnauthenticatedHandler: true })).rejects.toMatchObject({ status: 406 });
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });
});
