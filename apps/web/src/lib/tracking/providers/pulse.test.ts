import { describe, expect, it, vi } from 'vitest';
import { createPulseProvider, pulseTrackerConfig } from './pulse.ts';

describe('SPEC §7 Pulse-style tracker', () => {
  it('is initialised with the provider id, advertising opt-in required, tracker id polaris-{provider}-unified and beacon transport', () => {
    expect(pulseTrackerConfig('adressa')).toEqual({ providerId: 'adressa', requireAdvertisingOptIn: true, trackerId: 'polaris-adressa-unified', transport: 'beacon' });
  });

  it('sends each page view as a beacon to the collector', () => {
    const sendBeacon = vi.fn((_url: string, _body: string) => true);
    const provider = createPulseProvider({ providerId: 't-a', collectorUrl: 'https://c.example.test/e', deployStage: 'pro', tabId: 'tab', advertisingOptIn: () => false, sendBeacon });
    provider.trackPageView('home', {
      actor: null,
      origin: { referrer: { kind: 'none' }, utm: {} },
      provider: { id: 't-a', titleCode: 'TRA' },
      object: { pageType: 'home', url: 'https://minside.t-a.no/' },
    });
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    const [url, body] = sendBeacon.mock.calls[0]!;
    expect(url).toBe('https://c.example.test/e');
    expect(JSON.parse(body)).toMatchObject({ trackerId: 'polaris-t-a-unified', pageType: 'home' });
  });
});
