import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { titleMaintenance } from '../src/db/schema.ts';
import { buildTestApp, createScratchDatabase, testDatabases, type TestApp } from './helper.ts';

describe.each(testDatabases)('platform on $name', ({ name }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(name);
  });
  afterAll(async () => t?.close());

  it('applies the migrations: the tables exist and migrating again changes nothing', async () => {
    const tables = await t.database.rows<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`);
    const names = tables.map((row) => row.table_name);
    expect(names).toContain('title_maintenance');
    const before = await t.database.rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    await migrate(t.database);
    const after = await t.database.rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(before[0]?.n).toBeGreaterThan(0);
    expect(after).toEqual(before);
  });

  it('/healthz answers while the process is up', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers ready while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('sets the security headers and echoes a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const generated = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the OpenAPI document generated from the schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/title/{id}', '/api/retrieveTitleCode', '/api/maintenanceTitle']));
  });
});

describe.each(testDatabases)('readiness when the database is down ($name)', ({ name }) => {
  it('/readyz fails with 503 and a Norwegian message while /healthz still answers', async () => {
    const t = await buildTestApp(name);
    try {
      await t.database.close();
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Tjenesten er midlertidig utilgjengelig. Prøv igjen om litt.' });
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const api = await t.app.inject({ method: 'POST', url: '/api/maintenanceTitle', payload: { minsideUrl: 'https://minside.adressa.no/' } });
      expect(api.statusCode).toBe(503);
      expect(api.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      await t.close();
    }
  });
});

describe('PGlite persistence', () => {
  it('keeps data across a restart under DATA_DIR', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'minside-pglite-'));
    try {
      const first = await createDatabase({ kind: 'pglite', dataDir: dir });
      await migrate(first);
      await first.db.insert(titleMaintenance).values({ titleCode: 'VAR', enabled: true });
      await first.close();
      const second = await createDatabase({ kind: 'pglite', dataDir: dir });
      await migrate(second);
      const rows = await second.db.select().from(titleMaintenance);
      expect(rows).toMatchObject([{ titleCode: 'VAR', enabled: true }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a failing migration', () => {
  it('throws instead of starting on a broken schema', async () => {
    const scratch = await createScratchDatabase('pglite');
    const database = await createDatabase(scratch.options);
    // A table with the migration's name but the wrong shape makes the migration fail.
    await database.db.execute(sql`create table title_maintenance (x int)`);
    await expect(migrate(database)).rejects.toThrow(/Database migration failed/);
    await database.close();
  });
});

describe('serving the SPA', () => {
  it('answers / and client routes with index.html, assets with long caching, /api with JSON 404', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const webDist = mkdtempSync(path.join(tmpdir(), 'minside-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Min Side</title>');
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
    const t = await buildTestApp('pglite', { config: { webDist } });
    try {
      for (const url of ['/', '/kundeservice', '/betal-faktura/123', '/finnes-ikke?x=1']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toContain('text/html');
        expect(res.body, url).toContain('<title>Min Side</title>');
        expect(res.headers['cache-control'], url).toBe('private, no-store');
      }
      const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
      const api = await t.app.inject({ method: 'GET', url: '/api/nope' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
      const post = await t.app.inject({ method: 'POST', url: '/kundeservice', payload: {} });
      expect(post.statusCode).toBe(404);
    } finally {
      await t.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });

  it('compresses JSON answers over 1 KB for a browser that accepts it, and leaves small ones and other browsers alone', { timeout: 90_000 }, async () => {
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const t = await buildTestApp('pglite');
    try {
      const url = '/api/content/support/faq?titleCode=ADR';
      const host = 'adresseavisen.localhost:3000';
      const plain = await t.app.inject({ method: 'GET', url, headers: { host } });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Buffer.byteLength(plain.body)).toBeGreaterThan(1024);
      const br = await t.app.inject({ method: 'GET', url, headers: { host, 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['vary']).toContain('accept-encoding');
      expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.body) / 2);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      const gzip = await t.app.inject({ method: 'GET', url, headers: { host, 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
      // Under the threshold: sent as it is.
      const small = await t.app.inject({ method: 'GET', url: '/api/nope', headers: { host, 'accept-encoding': 'br' } });
      expect(small.statusCode).toBe(404);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.json()).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await t.close();
    }
  });

  it('sends the build’s Brotli or gzip copy of an asset to a browser that accepts it, the plain file otherwise', { timeout: 90_000 }, async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } = await import('node:zlib');
    const webDist = mkdtempSync(path.join(tmpdir(), 'minside-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    const code = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Min Side</title>');
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), code);
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js.br'), brotliCompressSync(code));
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js.gz'), gzipSync(code));
    const t = await buildTestApp('pglite', { config: { webDist } });
    try {
      const url = '/assets/app-abc123.js';
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toContain('javascript');
      expect(br.headers['cache-control']).toContain('immutable');
      expect(br.headers['vary']).toContain('accept-encoding');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(code);
      const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(code);
      const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(code);
    } finally {
      await t.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });
});
