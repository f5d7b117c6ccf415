import { shareableUrl } from './shareable-url.ts';
import type { OptionalConsentPurpose } from '@minside/domain';
import { applyDeployStage, type DeployStage } from './deploy-stage.ts';
import { experimentsFromSearch, forgetExperiments, readExperiments, storeExperiments, type Experiment } from './experiments.ts';
import type { TrackingIdentity } from './initializer.ts';
import { createConsoleProvider } from './providers/console.ts';
import { createPulseProvider } from './providers/pulse.ts';
import type { Actor, TrackerUpdate, TrackingProvider } from './providers/types.ts';
import { classifyReferrer } from './referrer.ts';
import { TAB_ID_KEY, tabIdOf } from './tab-id.ts';
import { buildTrackingObject } from './tracking-object.ts';

/** What the server's client configuration and the title say about analytics. */
export interface AnalyticsSetUp {
  /** Null: no collector configured. */
  collectorUrl: string | null;
  /** The title's pulseProvider; null for AN and VA (SPEC §9: no pulse). */
  providerId: string | null;
  titleCode: string;
}

export interface PageLocation {
  href: string;
  search: string;
  params: Readonly<Record<string, string | undefined>>;
}

export interface AnalyticsDeps {
  consent: { isGranted(purpose: OptionalConsentPurpose): boolean; subscribe(listener: () => void): () => void };
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  hostname: string;
  /** document.referrer: where the first page came from. */
  initialReferrer: string;
  now: () => number;
  newId: () => string;
  setCookie: (name: string, value: string) => void;
  sendBeacon?: (url: string, body: string) => boolean;
  log?: (...values: unknown[]) => void;
}

export interface Analytics {
  readonly deployStage: DeployStage;
  configure(setUp: AnalyticsSetUp): void;
  /** SPEC §4 step 5: the signed-in user becomes the actor. */
  identify(identity: TrackingIdentity): void;
  trackPageView(pageType: string, location: PageLocation): void;
}

/**
 * The analytics of the portal. Nothing is sent and nothing is kept in the browser (tab id,
 * experiments) before analytics consent: until then the latest page view waits in memory and
 * goes out the moment consent is given; withdrawing consent forgets what was kept.
 */
export function createAnalytics(deps: AnalyticsDeps): Analytics {
  const deployStage = applyDeployStage(deps.hostname, deps.setCookie);
  let setUp: AnalyticsSetUp | null = null;
  let provider: TrackingProvider | null | undefined;
  let actor: Actor | null = null;
  let pending: { pageType: string; update: Omit<TrackerUpdate, 'actor' | 'experiments' | 'provider'> } | null = null;
  let pendingExperiments: Experiment[] = [];
  let previousUrl = deps.initialReferrer;
  const granted = () => deps.consent.isGranted('analytics');

  function chooseProvider(current: AnalyticsSetUp): TrackingProvider | null {
    if (current.collectorUrl) {
      if (!current.providerId) return null;
      return createPulseProvider({
        providerId: current.providerId,
        collectorUrl: current.collectorUrl,
        deployStage,
        tabId: tabIdOf(deps.storage, deps.now(), deps.newId),
        advertisingOptIn: () => deps.consent.isGranted('marketing'),
        ...(deps.sendBeacon ? { sendBeacon: deps.sendBeacon } : {}),
      });
    }
    return deployStage === 'dev' ? createConsoleProvider() : null;
  }

  function flush(): void {
    if (!granted()) return;
    if (pendingExperiments.length > 0) {
      storeExperiments(deps.storage, pendingExperiments, true);
      pendingExperiments = [];
    }
    if (!setUp || !pending) return;
    provider ??= chooseProvider(setUp);
    const { pageType, update } = pending;
    pending = null;
    if (!provider) return;
    const experiments = readExperiments(deps.storage);
    try {
      provider.trackPageView(pageType, {
        ...update,
        actor,
        provider: { id: setUp.providerId ?? '', titleCode: setUp.titleCode },
        ...(experiments ? { experiments } : {}),
      });
    } catch (error) {
      // Analytics must never stand between a subscriber and their page.
      deps.log?.('analytics failed', error);
    }
  }

  deps.consent.subscribe(() => {
    if (granted()) {
      flush();
      return;
    }
    provider = undefined;
    forgetExperiments(deps.storage);
    deps.storage.removeItem(TAB_ID_KEY);
  });

  return {
    deployStage,
    configure(next) {
      setUp = next;
      provider = undefined;
      flush();
    },
    identify({ user }) {
      actor = { id: user.sp_id, realm: 'minside' };
    },
    trackPageView(pageType, location) {
      const search = new URLSearchParams(location.search);
      const { tracking, utm } = buildTrackingObject(location.params, search);
      pendingExperiments.push(...experimentsFromSearch(search));
      // Only the shareable part of the address leaves the browser: no tokens from links.
      const url = shareableUrl(location.href);
      pending = { pageType, update: { origin: { referrer: classifyReferrer(previousUrl), utm }, object: { ...tracking, pageType, url } } };
      previousUrl = url;
      flush();
    },
  };
}
