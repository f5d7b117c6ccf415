// Analytics (SPEC §3 tracking object, §7 analytics, §9 tab id, development hosts, experiments).
import { consentStore, writeCookie } from '../consent/index.ts';
import { whenIdle } from '../idle.ts';
import type { Analytics, AnalyticsSetUp, PageLocation } from './analytics.ts';
import { deployStageOf } from './deploy-stage.ts';
import { createTrackingInitializer, type TrackingSetUp } from './initializer.ts';
import { systemClock } from '@minside/domain';

export type { TrackingSetUp } from './initializer.ts';
export type { AnalyticsSetUp, PageLocation } from './analytics.ts';
export { pageTypeOf, shouldTrackPageView } from './page-view.ts';

let instance: Promise<Analytics> | undefined;

/**
 * The page's analytics, made on first use (it reads the browser's location and storage). Its code
 * is not on the first screen's path (issue 27): it is fetched when the browser is first idle, and
 * the calls made before that wait for it in order. Nothing is lost by the wait: analytics holds
 * every event until consent anyway, and each call carries the page it is about.
 */
function analytics(): Promise<Analytics> {
  instance ??= new Promise<void>((resolve) => whenIdle(resolve))
    .then(() => import('./analytics.ts'))
    .then(({ createAnalytics }) =>
      createAnalytics({
        consent: consentStore,
        storage: window.localStorage,
        hostname: window.location.hostname,
        initialReferrer: document.referrer,
        now: () => systemClock().getTime(),
        newId: () => crypto.randomUUID(),
        setCookie: (name, value) => writeCookie(name, value, { maxAgeSeconds: 24 * 60 * 60 }),
        log: (...values) => console.warn(...values),
      }),
    );
  return instance;
}

/** Analytics must never stand between a subscriber and their page: a failure is logged, not thrown. */
function withAnalytics(use: (analytics: Analytics) => void): void {
  analytics()
    .then(use)
    .catch((error: unknown) => console.warn('analytics failed', error));
}

export function configureAnalytics(setUp: AnalyticsSetUp): void {
  withAnalytics((loaded) => loaded.configure(setUp));
}

export function trackPageView(pageType: string, location: PageLocation): void {
  withAnalytics((loaded) => loaded.trackPageView(pageType, location));
}

/** The stage of this host (analytics' own `deployStage` is the same rule on the same hostname). */
export function currentDeployStage() {
  return deployStageOf(window.location.hostname);
}

/** SPEC §4 step 5: the guard calls this after login; the provider is set up once. */
export const initTrackingProvider: TrackingSetUp = createTrackingInitializer((identity) => withAnalytics((loaded) => loaded.identify(identity)));
