// Analytics (SPEC §3 tracking object, §7 analytics, §9 tab id, development hosts, experiments).
import { consentStore, writeCookie } from '../consent/index.ts';
import { createAnalytics, type Analytics, type AnalyticsSetUp, type PageLocation } from './analytics.ts';
import { createTrackingInitializer, type TrackingSetUp } from './initializer.ts';
import { systemClock } from '@minside/domain';

export type { TrackingSetUp } from './initializer.ts';
export type { Analytics, AnalyticsSetUp, PageLocation } from './analytics.ts';
export { pageTypeOf, shouldTrackPageView } from './page-view.ts';

let instance: Analytics | undefined;

/** The page's analytics, made on first use (it reads the browser's location and storage). */
function analytics(): Analytics {
  instance ??= createAnalytics({
    consent: consentStore,
    storage: window.localStorage,
    hostname: window.location.hostname,
    initialReferrer: document.referrer,
    now: () => systemClock().getTime(),
    newId: () => crypto.randomUUID(),
    setCookie: (name, value) => writeCookie(name, value, { maxAgeSeconds: 24 * 60 * 60 }),
    log: (...values) => console.warn(...values),
  });
  return instance;
}

export function configureAnalytics(setUp: AnalyticsSetUp): void {
  analytics().configure(setUp);
}

export function trackPageView(pageType: string, location: PageLocation): void {
  analytics().trackPageView(pageType, location);
}

export function currentDeployStage() {
  return analytics().deployStage;
}

/** SPEC §4 step 5: the guard calls this after login; the provider is set up once. */
export const initTrackingProvider: TrackingSetUp = createTrackingInitializer((identity) => analytics().identify(identity));
