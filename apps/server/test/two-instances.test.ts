import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitUntilReady } from './server-process.ts';
import { fetchTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';
import { createScratchDatabase, DEMO_PASSWORD, type ScratchDatabase } from './helper.ts';
import { createTestRedis, testRedisUrl, type TestRedis } from './redis-support.ts';

// Issue 11 item 1 (ADR 018): two real server processes from the bundle, on one PostgreSQL and
// one Redis, as behind a load balancer. A login on one is a login on the other, a logout on one
// ends it on the other, and the password throttle counts the failures of both.

const bundle = fileURLToPath(new URL('../dist/main.js', import.meta.url));

interface Instance {
  origin: string;
  host: string;
  child: ChildProcess;
  output: () => string;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, JOBS: 'off', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return { origin, host: `127.0.0.1:${port}`, child, output: () => output };
}

const waitForReady = (instance: Instance) => waitUntilReady(`${instance.origin}/readyz`, { child: instance.child, output: instance.output });

async function stop(instance: Instance | undefined): Promise<void> {
  if (!instance || instance.child.exitCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  instance.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server processes on one PostgreSQL and one Redis (needs TEST_DATABASE_URL)', () => {
  let scratch: ScratchDatabase;
  let redis: TestRedis;
  let a: Instance | undefined;
  let b: Instance | undefined;
  let dataDir = '';
  const instanceA = () => a as Instance;
  const instanceB = () => b as Instance;

  beforeAll(async () => {
    expect(existsSync(bundle), 'apps/server/dist/main.js is missing: run `npm run build -w apps/server` first').toBe(true);
    dataDir = mkdtempSync(path.join(tmpdir(), 'minside-two-'));
    scratch = await createScratchDatabase('postgres');
    redis = createTestRedis(testRedisUrl ?? 'redis://127.0.0.1:6379');
    const url = scratch.options.kind === 'postgres' ? scratch.options.url : '';
    const shared = { DATABASE_URL: url, REDIS_URL: redis.config.redisUrl ?? '', REDIS_KEY_PREFIX: redis.config.redisKeyPrefix, DATA_DIR: dataDir };
    // One after the other: the first migrates and seeds, the second finds it done.
    a = await startInstance({ ...shared, SEED_DEMO_DATA: 'on' });
    await waitForReady(instanceA());
    b = await startInstance({ ...shared, SEED_DEMO_DATA: 'off' });
    await waitForReady(instanceB());
  }, 180_000);

  afterAll(async () => {
    await stop(a);
    await stop(b);
    await redis?.dispose();
    await scratch?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** The session cookie of `browser` on A, carried to B, as a load balancer would send it. */
  const carryCookies = (browser: TestBrowser, from: Instance, to: Instance) => {
    for (const [name, value] of browser.cookies(from.host)) browser.cookies(to.host).set(name, value);
  };
  const session = (browser: TestBrowser, instance: Instance) => browser.request('GET', `${instance.origin}/api/session?titleCode=ADR`);

  it('keeps its sessions in Redis, not in a process', async () => {
    const browser = new TestBrowser(() => fetchTransport);
    const response = await login(browser, { portal: instanceA().origin, email: 'papir@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' });
    expect(response.status, response.body).toBe(200);
    expect(await redis.keys('session:*')).not.toHaveLength(0);
  });

  it('a login on A is valid on B; a logout on B ends it on A at once', async () => {
    const browser = new TestBrowser(() => fetchTransport);
    const response = await login(browser, { portal: instanceA().origin, email: 'digital@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' });
    expect(response.status, response.body).toBe(200);
    expect((await session(browser, instanceA())).status).toBe(200);

    carryCookies(browser, instanceA(), instanceB());
    const onB = await session(browser, instanceB());
    expect(onB.status, onB.body).toBe(200);
    expect(onB.json()).toMatchObject({ user: { email: 'digital@minside.test' } });

    const logout = await browser.request('POST', `${instanceB().origin}/api/logout`, { json: {} });
    expect(logout.status, logout.body).toBe(200);
    // The cookie A knows is the same one; only the shared store can tell A it has ended.
    const onA = await session(browser, instanceA());
    expect(onA.status, onA.body).toBe(401);
    expect(onA.json()).toMatchObject({ code: 'NOT_AUTHENTICATED' });
  });

  it('counts failed passwords across both: the eleventh within the minute is refused on either', async () => {
    const email = 'papir@minside.test';
    /** One wrong password at `instance`'s provider, from a fresh browser (a fresh login form). */
    const wrongPassword = async (instance: Instance): Promise<BrowserResponse> => {
      const browser = new TestBrowser(() => fetchTransport);
      const token = await browser.request('GET', `${instance.origin}/api/loginToken`);
      expect(token.status, token.body).toBe(200);
      const form = await browser.follow(token.json<{ authorizationUrl: string }>().authorizationUrl);
      const action = /<form[^>]*action="([^"]+)"/.exec(form.response?.body ?? '')?.[1];
      expect(action, form.response?.body.slice(0, 300)).toBeDefined();
      return browser.request('POST', new URL((action ?? '').replaceAll('&amp;', '&'), form.url).href, { form: { email, password: 'feil-passord' } });
    };
    for (let failure = 1; failure <= 10; failure++) {
      const response = await wrongPassword(failure % 2 === 1 ? instanceA() : instanceB());
      expect(response.status, `failure ${failure}`).toBe(401);
    }
    const eleventhOnA = await wrongPassword(instanceA());
    expect(eleventhOnA.status).toBe(429);
    expect(eleventhOnA.body).toContain('For mange innloggingsforsøk');
    expect((await wrongPassword(instanceB())).status).toBe(429);
    // The counters are in Redis, under this run's prefix.
    expect(await redis.keys('login-failure:*')).toEqual(expect.arrayContaining([`login-failure:email:${email}`]));
  });
});
