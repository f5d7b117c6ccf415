import { beforeEach, describe, expect, it, vi } from 'vitest';
import { kari, paperSubscription } from '../../features/auth/testing/fake-identity.ts';
import { createConsentStore } from '../consent/consent-store.ts';
import { createAnalytics, type AnalyticsDeps } from './analytics.ts';
import { EXPERIMENTS_KEY } from './experiments.ts';
import { TAB_ID_KEY } from './tab-id.ts';

const COLLECTOR = 'https://collector.example.test/track';
const home = { href: 'https://minside.adressa.no/?utm_source=newsletter&exp=banner:b', search: '?utm_source=newsletter&exp=banner:b', params: {} };
const delivery = { href: 'https://minside.adressa.no/leveringsadresse', search: '', params: {} };

function setUp(overrides: Partial<AnalyticsDeps> = {}) {
  const consent = createConsentStore({ read: () => null, write: () => {} });
  const beacons: { url: string; event: Record<string, unknown> }[] = [];
  const sendBeacon = vi.fn((url: string, body: string) => {
    beacons.push({ url, event: JSON.parse(body) as Record<string, unknown> });
    return true;
  });
  const log = vi.fn();
  const analytics = createAnalytics({
    consent,
    storage: localStorage,
    hostname: 'minside.adressa.no',
    initialReferrer: 'https://www.adressa.no/i/Kv8xQ2/sak',
    now: () => Date.UTC(2026, 0, 1),
    newId: () => 'tab-1',
    setCookie: vi.fn(),
    sendBeacon,
    log,
    ...overrides,
  });
  return { consent, analytics, beacons, sendBeacon, log };
}

const grantAnalytics = { analytics: true, marketing: false, personalisation: false };

describe('analytics consent gating (nothing before consent)', () => {
  beforeEach(() => localStorage.clear());

  it('sends no page view and keeps nothing in the browser without analytics consent', () => {
    const { analytics, sendBeacon, consent } = setUp();
    analytics.configure({ collectorUrl: COLLECTOR, providerId: 'adressa', titleCode: 'ADR' });
    analytics.trackPageView('home', home);
    consent.choose({ analytics: false, marketing: true, personalisation: true });
    analytics.trackPageView('deliveryaddress', delivery);
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(localStorage.getItem(EXPERIMENTS_KEY)).toBeNull();
    expect(localStorage.getItem(TAB_ID_KEY)).toBeNull();
  });

  it('sends the waiting page view and stores the experiments the moment analytics is granted', () => {
    const { analytics, beacons, consent } = setUp();
    analytics.configure({ collectorUrl: COLLECTOR, providerId: 'adressa', titleCode: 'ADR' });
    analytics.trackPageView('home', home);
    expect(beacons).toHaveLength(0);
    consent.choose(grantAnalytics);
    expect(beacons).toHaveLength(1);
    expect(beacons[0]).toMatchObject({
      url: COLLECTOR,
      event: {
        type: 'View',
        trackerId: 'polaris-adressa-unified',
        pageType: 'home',
        tabId: 'tab-1',
        deployStage: 'pro',
        provider: { id: 'adressa', titleCode: 'ADR' },
        origin: { referrer: { kind: 'article', articleId: 'Kv8xQ2' }, utm: { source: 'newsletter' } },
        object: { source: 'newsletter', pageType: 'home', url: home.href },
        experiments: [{ id: 'banner', name: 'banner', variant: 'b', platform: 'minside' }],
        advertising: { requireOptIn: true, optIn: false },
        actor: null,
      },
    });
    expect(JSON.parse(localStorage.getItem(EXPERIMENTS_KEY) ?? '')).toEqual([{ id: 'banner', name: 'banner', variant: 'b', platform: 'minside' }]);
  });

  it('after consent: one beacon per page view, the previous page as referrer, the signed-in actor, no experiments when none are stored', () => {
    const { analytics, beacons, consent } = setUp();
    consent.choose({ analytics: true, marketing: true, personalisation: false });
    analytics.configure({ collectorUrl: COLLECTOR, providerId: 'adressa', titleCode: 'ADR' });
    analytics.identify({ user: kari, account: null, subscription: paperSubscription });
    analytics.trackPageView('deliveryaddress', { ...delivery, href: 'https://minside.adressa.no/' });
    analytics.trackPageView('deliveryaddress', delivery);
    expect(beacons).toHaveLength(2);
    expect(beacons[1]?.event).toMatchObject({ actor: { id: kari.sp_id }, origin: { referrer: { kind: 'frontpage' } }, advertising: { optIn: true } });
    expect(beacons[1]?.event).not.toHaveProperty('experiments');
  });

  it('withdrawing analytics consent stops the beacons and forgets the experiments and the tab id', () => {
    const { analytics, sendBeacon, consent } = setUp();
    consent.choose(grantAnalytics);
    analytics.configure({ collectorUrl: COLLECTOR, providerId: 'adressa', titleCode: 'ADR' });
    analytics.trackPageView('home', home);
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(TAB_ID_KEY)).not.toBeNull();
    consent.choose({ analytics: false, marketing: false, personalisation: false });
    analytics.trackPageView('home', home);
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(EXPERIMENTS_KEY)).toBeNull();
    expect(localStorage.getItem(TAB_ID_KEY)).toBeNull();
  });
});

describe('analytics providers', () => {
  beforeEach(() => localStorage.clear());

  it('SPEC §9: AN and VA (no pulse provider) send nothing even with a collector', () => {
    const { analytics, sendBeacon, consent } = setUp();
    consent.choose(grantAnalytics);
    analytics.configure({ collectorUrl: COLLECTOR, providerId: null, titleCode: 'AN' });
    analytics.trackPageView('home', home);
    expect(sendBeacon).not.toHaveBeenCalled();
  });

  it('a development host without a collector logs to the console instead, with deployStage dev', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const setCookie = vi.fn();
    const { analytics, sendBeacon, consent } = setUp({ hostname: 'localhost', setCookie });
    expect(analytics.deployStage).toBe('dev');
    expect(setCookie).toHaveBeenCalledWith('minside_debug', 'true');
    consent.choose(grantAnalytics);
    analytics.configure({ collectorUrl: null, providerId: 'adressa', titleCode: 'ADR' });
    analytics.trackPageView('home', home);
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(info).toHaveBeenCalledWith('[analytics] page view', 'home', expect.objectContaining({ provider: { id: 'adressa', titleCode: 'ADR' } }));
  });

  it('production without a collector has no provider at all', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const { analytics, sendBeacon, consent } = setUp();
    consent.choose(grantAnalytics);
    analytics.configure({ collectorUrl: null, providerId: 'adressa', titleCode: 'ADR' });
    analytics.trackPageView('home', home);
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(info).not.toHaveBeenCalled();
  });

  it('a failing provider never breaks the page', () => {
    const { analytics, consent, log } = setUp({
      sendBeacon: () => {
        throw new Error('blocked');
      },
    });
    consent.choose(grantAnalytics);
    analytics.configure({ collectorUrl: COLLECTOR, providerId: 'adressa', titleCode: 'ADR' });
    expect(() => analytics.trackPageView('home', home)).not.toThrow();
    expect(log).toHaveBeenCalled();
  });
});
