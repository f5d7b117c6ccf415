import { describe, expect, it } from 'vitest';
import { allowedTracingUrlsFor, buildRumConfig, scrubRumEvent } from './rum-config.ts';

const settings = { clientToken: 'pub-token', applicationId: 'app-id', serviceName: 'minside', minsideUrl: 'https://minside.adressa.no' };

describe('SPEC §9 browser monitoring', () => {
  it('uses the production settings in production', () => {
    expect(buildRumConfig({ ...settings, production: true })).toEqual({
      clientToken: 'pub-token',
      applicationId: 'app-id',
      service: 'minside-rum',
      env: 'prod',
      site: 'datadoghq.eu',
      sessionSampleRate: 10,
      sessionReplaySampleRate: 0,
      trackUserInteractions: true,
      trackResources: true,
      trackLongTasks: true,
      defaultPrivacyLevel: 'mask',
      allowedTracingUrls: ['https://minside.adressa.no/api/', 'http://localhost:3000/'],
      trackingConsent: 'granted',
      beforeSend: scrubRumEvent,
    });
  });

  it('sends no tokens from links: page, referrer and resource URLs keep only shareable parameters', () => {
    const event = {
      type: 'resource',
      view: { url: 'https://minside.adressa.no/betaling?token=eyJ.secret', referrer: 'https://minside.adressa.no/verifiser-familiemedlem?token=abc' },
      resource: { url: 'https://minside.adressa.no/api/paylink/eyJ.secret' },
    } as unknown as Parameters<typeof scrubRumEvent>[0];
    expect(scrubRumEvent(event)).toBe(true);
    expect(JSON.stringify(event)).not.toContain('secret');
    expect(JSON.stringify(event)).not.toContain('abc');
  });

  it("keeps the library's sampling defaults elsewhere", () => {
    const config = buildRumConfig({ ...settings, production: false });
    expect(config.env).toBe('dev');
    expect(config).not.toHaveProperty('sessionSampleRate');
    expect(config).not.toHaveProperty('sessionReplaySampleRate');
    expect(config.defaultPrivacyLevel).toBe('mask');
  });

  it("traces only our /api under the title's my-page URL and the local dev server on port 3000", () => {
    const [api, local] = allowedTracingUrlsFor('https://minside.varden.no/');
    expect(api).toBe('https://minside.varden.no/api/');
    expect(local).toBe('http://localhost:3000/');
    const traced = (url: string) => allowedTracingUrlsFor('https://minside.varden.no').some((prefix) => url.startsWith(prefix));
    expect(traced('https://minside.varden.no/api/account/1')).toBe(true);
    expect(traced('http://localhost:3000/api/title/VAR')).toBe(true);
    expect(traced('https://minside.varden.no/leveringsadresse')).toBe(false);
    expect(traced('https://minside.varden.no.evil.test/api/x')).toBe(false);
    expect(traced('http://localhost:3001/api/x')).toBe(false);
    expect(traced('https://collector.example.test/api/x')).toBe(false);
  });
});
