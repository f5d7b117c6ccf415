import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { FALLBACK_TITLE_CODE, titleSchema } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { titleMaintenance } from '../src/db/schema.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';

describe.each(testDatabases)('title API on $name', ({ name }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(name);
  });
  afterAll(async () => t?.close());

  describe('GET /api/title/{id}', () => {
    it('returns the Title entity of SPEC §3 for a known code', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/title/ADR' });
      expect(res.statusCode).toBe(200);
      const title = titleSchema.parse(res.json());
      expect(title).toMatchObject({
        titleCode: 'ADR',
        name: 'Adresseavisen',
        titleDomain: 'adressa.no',
        pageUrl: 'https://www.adressa.no',
        minsideUrl: 'https://minside.adressa.no',
        logoPath: '/logos/adressa.no.svg',
        spidCredential: { clientId: 'minside' },
        identityProviderName: 'spid',
      });
      expect(title.customerCenterPhoneNumber).not.toBe('');
      expect(title.customerCenterEmail).toContain('@');
      expect(title.organizationNumber).toMatch(/^\d{9}$/);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('looks codes up case-insensitively and also by publication', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/title/var' })).json()).toMatchObject({ titleCode: 'VAR', name: 'Varden' });
      expect((await t.app.inject({ method: 'GET', url: '/api/title/adresseavisen' })).json()).toMatchObject({ titleCode: 'ADR' });
    });

    it('answers 404 with a stable code, a Norwegian message and the catalogue message for an unknown id', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/title/XYZ' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        code: 'UNKNOWN_TITLE',
        message: 'Fant ingen avis med koden XYZ.',
        detail: 'No publication config found for titleCode XYZ',
      });
    });

    it('treats excluded codes as unknown: they are never offered', async () => {
      for (const code of ['XX', 'VI', 'RUI', 'KOF', 'KUL']) {
        const res = await t.app.inject({ method: 'GET', url: `/api/title/${code}` });
        expect(res.statusCode, code).toBe(404);
      }
    });

    it('refuses an oversized id with 400 and a code', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/title/${'A'.repeat(100)}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Forespørselen inneholder ugyldige data.' });
    });
  });

  describe('POST /api/retrieveTitleCode', () => {
    it.each([
      ['https://minside.adressa.no/', 'ADR'],
      ['https://minside.varden.no/fakturaoversikt', 'VAR'],
      ['http://adresseavisen.localhost:3000/kundeservice', 'ADR'],
      ['http://varden.localhost:3000/', 'VAR'],
      ['http://localhost:3000/?title=var', 'VAR'],
    ])('maps %s to %s', async (minsideUrl, titleCode) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/retrieveTitleCode', payload: { minsideUrl } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ titleCode });
    });

    it('ignores the ?title= override on production hosts', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/retrieveTitleCode', payload: { minsideUrl: 'https://minside.adressa.no/?title=VAR' } });
      expect(res.json()).toEqual({ titleCode: 'ADR' });
    });

    it.each(['https://example.com/', 'not a url', 'http://localhost:3000/'])('answers 404 UNKNOWN_TITLE for %s', async (minsideUrl) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/retrieveTitleCode', payload: { minsideUrl } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'UNKNOWN_TITLE', message: 'Fant ingen avis for denne adressen.' });
    });

    it('answers 415 for no body at all: every state-changing call is JSON (plugins/csrf.ts)', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/retrieveTitleCode' });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    });

    it.each([
      ['an empty JSON object', {}],
      ['a wrong type', { minsideUrl: 42 }],
      ['an empty string', { minsideUrl: '' }],
      ['a huge string', { minsideUrl: 'x'.repeat(5000) }],
    ])('answers 400 VALIDATION_FAILED for %s', async (_label, payload) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/retrieveTitleCode', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('answers 400 with a code for malformed JSON, never 500', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/retrieveTitleCode', headers: { 'content-type': 'application/json' }, payload: '{"minsideUrl":' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('answers 415 for a non-JSON body', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/retrieveTitleCode', headers: { 'content-type': 'text/plain' }, payload: 'https://minside.adressa.no' });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    });
  });

  describe('POST /api/maintenanceTitle', () => {
    it('is off by default and names the resolved title', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/maintenanceTitle', payload: { minsideUrl: 'http://varden.localhost:3000/' } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ titleCode: 'VAR', name: 'Varden', maintenance: false });
    });

    it('falls back to the catalogue fallback, the same POL the web falls back to', async () => {
      expect(defaultCatalogue.fallback().titleCode).toBe(FALLBACK_TITLE_CODE);
      const res = await t.app.inject({ method: 'POST', url: '/api/maintenanceTitle', payload: { minsideUrl: 'https://example.com/' } });
      expect(res.json()).toMatchObject({ titleCode: 'POL', maintenance: false });
    });

    it('reports one title in maintenance from its row, leaving the others up', async () => {
      await t.database.db.insert(titleMaintenance).values({ titleCode: 'ADR', enabled: true, message: 'Vi er tilbake kl. 06.' });
      try {
        const adr = await t.app.inject({ method: 'POST', url: '/api/maintenanceTitle', payload: { minsideUrl: 'https://minside.adressa.no/' } });
        expect(adr.json()).toEqual({ titleCode: 'ADR', name: 'Adresseavisen', maintenance: true, message: 'Vi er tilbake kl. 06.' });
        const varden = await t.app.inject({ method: 'POST', url: '/api/maintenanceTitle', payload: { minsideUrl: 'https://minside.varden.no/' } });
        expect(varden.json()).toMatchObject({ maintenance: false });
      } finally {
        await t.database.db.delete(titleMaintenance).where(eq(titleMaintenance.titleCode, 'ADR'));
      }
    });
  });

  describe('GET /logos/{titleDomain}.svg', () => {
    it('serves a generated wordmark with the title name', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/logos/adressa.no.svg' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
      expect(res.body).toMatch(/^<svg /);
      expect(res.body).toContain('<title>Adresseavisen</title>');
    });

    it('answers 404 for an unknown domain', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/logos/example.com.svg' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Fant ikke det du lette etter.' });
  });
});

describe('maintenance for every title (MAINTENANCE=on)', () => {
  it('reports maintenance for any title', async () => {
    const t = await buildTestApp('pglite', { config: { maintenance: true } });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/maintenanceTitle', payload: { minsideUrl: 'https://minside.adressa.no/' } });
      expect(res.json()).toMatchObject({ titleCode: 'ADR', maintenance: true });
    } finally {
      await t.close();
    }
  });
});
