import http from 'node:http';
import net from 'node:net';
import type { TestBrowser } from './browser.ts';

type Transport = ConstructorParameters<typeof TestBrowser>[0] extends (url: URL) => infer T ? T : never;

/**
 * A TCP proxy between the app and the shared PostgreSQL server. Cutting it is what a database
 * outage looks like to the app (every connection dropped, new ones refused) without stopping
 * the server other tests and agents use. `stall` plays the nastier network fault: connections
 * stay open but nothing comes back (a partition, a hung server).
 */
export interface DatabaseProxy {
  readonly port: number;
  /** The upstream URL with its host and port replaced by the proxy's. */
  url(upstream: string): string;
  /** Drops every connection and refuses new ones (ECONNREFUSED) until `restore`. */
  cut(): Promise<void>;
  /** Keeps connections open but forwards nothing either way (new ones connect and hang) until `restore`. */
  stall(): void;
  /** Listens and forwards again. */
  restore(): Promise<void>;
  /** Connections the proxy has accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startDatabaseProxy(target: { host: string; port: number }): Promise<DatabaseProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let mode: 'up' | 'stalled' = 'up';
  let accepted = 0;

  const server = net.createServer((client) => {
    accepted += 1;
    const upstream = net.connect(target);
    const pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
    // A stalled link delivers nothing until restored; TCP keeps what was sent, as after a partition heals.
    if (mode === 'stalled') pause(pair);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  const pause = (pair: { client: net.Socket; upstream: net.Socket }) => {
    pair.client.pause();
    pair.upstream.pause();
  };
  const dropAll = () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };

  return {
    port,
    get accepted() {
      return accepted;
    },
    url(upstream) {
      const url = new URL(upstream);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async cut() {
      mode = 'up';
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      dropAll();
      await closed;
    },
    stall() {
      mode = 'stalled';
      for (const pair of pairs) pause(pair);
    },
    async restore() {
      mode = 'up';
      for (const { client, upstream } of pairs) {
        client.resume();
        upstream.resume();
      }
      if (!server.listening) await listen(port);
    },
    async close() {
      dropAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Why a request got no complete answer; `connected` tells a refused connection from one the server took and dropped. */
export type HttpRequestError = NodeJS.ErrnoException & {
  /** The TCP connection was established: the request went to an open listener (a reset, not a refusal). */
  connected: boolean;
};

/**
 * One HTTP request to a server on 127.0.0.1:`port` under any host name (the portal's
 * `<title>.localhost` hosts need no DNS), on a fresh connection. Resolves with the complete
 * answer; rejects (with an HttpRequestError) when the connection fails or the answer is cut off.
 */
export function httpRequest(port: number, request: { method: string; host: string; path: string; headers?: Record<string, string>; body?: string }): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: request.host, ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    let connected = false;
    const fail = (error: Error) => reject(Object.assign(error, { connected }));
    const req = http.request({ host: '127.0.0.1', port, method: request.method, path: request.path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('aborted', () => fail(new Error('answer cut off')));
      res.on('error', fail);
    });
    req.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    req.on('error', fail);
    req.end(request.body);
  });
}

/** A TestBrowser transport to a server process listening on 127.0.0.1 (any host name). */
export function processTransport(): Transport {
  return async ({ method, url, headers, body }) => {
    const answer = await httpRequest(Number(url.port), { method, host: url.host, path: url.pathname + url.search, headers, ...(body === undefined ? {} : { body }) });
    return { status: answer.status, headers: answer.headers, body: answer.body, raw: Buffer.from(answer.body), json: <T>() => JSON.parse(answer.body) as T };
  };
}
