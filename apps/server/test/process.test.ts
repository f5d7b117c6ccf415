import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, waitUntilReady } from './server-process.ts';

// These tests run the real bundle (`npm run build` makes it; `npm test` builds first).
const bundle = fileURLToPath(new URL('../dist/main.js', import.meta.url));

function startServer(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let output = '';
  const child = spawn(process.execPath, [bundle], { env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const waitForReady = (port: number, output?: () => string) => waitUntilReady(`http://127.0.0.1:${port}/readyz`, { output });

// Each test starts the real server: PGlite's creation and migrations alone take 10–15 s on a loaded
// 2-core CI machine, so the default 30 s is too little for a start, a request and a shutdown.
describe('the server process', { timeout: 90_000 }, () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it('has a bundle to run', () => {
    expect(existsSync(bundle), 'apps/server/dist/main.js is missing: run `npm run build` first').toBe(true);
  });

  it('logs one line per request at info: when it is done, with the request, the status and the time', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'minside-proc-'));
    const port = await freePort();
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir });
    cleanups.push(() => {
      server.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });
    await waitForReady(port, server.output);
    const answer = await fetch(`http://127.0.0.1:${port}/healthz?code=secret`, { headers: { 'x-request-id': 'one-line' } });
    expect(answer.status).toBe(200);
    const mine = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg?: string; reqId?: string; req?: { method?: string; url?: string }; res?: { statusCode?: number }; responseTime?: number })
        .filter((line) => line.reqId === 'one-line');
    for (let attempt = 0; mine().length === 0 && attempt < 200; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(mine()).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        req: expect.objectContaining({ method: 'GET', url: '/healthz?code=[redacted]' }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
  });

  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'minside-proc-'));
    const port = await freePort();
    // debug: the arrival line (lib/request-log.ts) is how the test knows the server has the request.
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    cleanups.push(() => {
      server.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });
    await waitForReady(port, server.output);

    const body = JSON.stringify({ minsideUrl: 'http://varden.localhost:3000/' });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/retrieveTitleCode', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      // Half the body now; SIGTERM once the server has the request (its log says so: under load a
      // fixed 200 ms was sometimes too soon, and a request it had not yet read is rightly a 503);
      // the rest of the body after SIGTERM has arrived.
      req.write(body.slice(0, 10));
      const started = performance.now();
      const signalWhenReceived = () => {
        if (!server.output().includes('/api/retrieveTitleCode') && performance.now() - started < 15_000) {
          setTimeout(signalWhenReceived, 25);
          return;
        }
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      };
      setTimeout(signalWhenReceived, 25);
    });

    await expect(response).resolves.toEqual({ status: 200, body: JSON.stringify({ titleCode: 'VAR' }) });
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down');
    expect(server.output()).toContain('"msg":"stopped"');
  }, 90_000);

  it('answers a request on a kept-alive connection that is in flight at SIGTERM, with Connection: close', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'minside-proc-'));
    const port = await freePort();
    // debug: the arrival line (lib/request-log.ts) is how the test knows the server has the request.
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => {
      agent.destroy();
      server.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });
    await waitForReady(port);

    const send = (id: string, method: string, pathname: string, body?: string, beforeEnd?: (req: http.ClientRequest) => Promise<void>) =>
      new Promise<{ status: number; connection: string | undefined; body: string; reused: boolean }>((resolve, reject) => {
        const headers: Record<string, string> = { 'x-request-id': id, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }) };
        const req = http.request({ host: '127.0.0.1', port, method, path: pathname, agent, headers }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text, reused: req.reusedSocket }));
        });
        req.on('error', reject);
        if (body === undefined || !beforeEnd) return void req.end(body);
        req.write(body.slice(0, 10));
        void beforeEnd(req).then(() => req.end(body.slice(10)), reject);
      });
    const until = async (condition: () => boolean, what: string) => {
      for (let attempt = 0; !condition(); attempt++) {
        if (attempt > 400) throw new Error(`${what}:\n${server.output().slice(-2_000)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };

    // The connection is kept alive after a first answer, and the second request goes on it.
    const first = await send('ka-1', 'GET', '/healthz');
    expect(first).toMatchObject({ status: 200, connection: 'keep-alive', reused: false });
    const body = JSON.stringify({ minsideUrl: 'http://varden.localhost:3000/' });
    const second = await send('ka-2', 'POST', '/api/retrieveTitleCode', body, async () => {
      // In flight: the server has logged it, half its body is in. Then SIGTERM, and the rest once it is shutting down.
      await until(() => server.output().includes('"reqId":"ka-2"'), 'the second request was never logged');
      server.child.kill('SIGTERM');
      await until(() => server.output().includes('shutting down'), 'the server never started shutting down');
    });
    expect(second).toEqual({ status: 200, connection: 'close', body: JSON.stringify({ titleCode: 'VAR' }), reused: true });
    expect(await server.exited).toBe(0);
  });

  it('refuses to start with invalid configuration, naming the variable', async () => {
    const server = startServer({ PORT: 'not-a-port' });
    cleanups.push(() => server.child.kill('SIGKILL'));
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/Invalid configuration: PORT/);
    expect(server.output()).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('refuses to start with a broken TITLES_FILE', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'minside-titles-'));
    const file = path.join(dir, 'titles.json');
    (await import('node:fs')).writeFileSync(file, JSON.stringify({ groups: [], titles: [{ titleCode: 'ADR' }] }));
    const server = startServer({ TITLES_FILE: file, PORT: String(await freePort()) });
    cleanups.push(() => {
      server.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/TITLES_FILE: .* is not a valid title catalogue/);
  });
});
