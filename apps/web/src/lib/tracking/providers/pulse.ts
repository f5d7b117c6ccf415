import type { DeployStage } from '../deploy-stage.ts';
import type { TrackerUpdate, TrackingProvider } from './types.ts';

/**
 * SPEC §7: the behavioural analytics tracker is initialised with the provider id, advertising
 * opt-in required, a tracker id `polaris-{provider}-unified` and a beacon transport.
 */
export interface PulseTrackerConfig {
  providerId: string;
  requireAdvertisingOptIn: true;
  trackerId: string;
  transport: 'beacon';
}

export function pulseTrackerConfig(providerId: string): PulseTrackerConfig {
  return { providerId, requireAdvertisingOptIn: true, trackerId: `polaris-${providerId}-unified`, transport: 'beacon' };
}

export interface PulseProviderOptions {
  providerId: string;
  collectorUrl: string;
  deployStage: DeployStage;
  tabId: string;
  /** Advertising identifiers go along only with marketing consent (advertising opt-in required). */
  advertisingOptIn: () => boolean;
  sendBeacon?: (url: string, body: string) => boolean;
}

/** The event a page view sends: the tracker's identity, the update and the page type. */
function pulseEvent(config: PulseTrackerConfig, options: Pick<PulseProviderOptions, 'deployStage' | 'tabId'>, pageType: string, update: TrackerUpdate, advertisingOptIn: boolean) {
  return {
    type: 'View',
    trackerId: config.trackerId,
    provider: { ...update.provider, id: config.providerId },
    deployStage: options.deployStage,
    tabId: options.tabId,
    pageType,
    actor: update.actor,
    origin: update.origin,
    object: update.object,
    ...(update.experiments ? { experiments: update.experiments } : {}),
    advertising: { requireOptIn: config.requireAdvertisingOptIn, optIn: advertisingOptIn },
  };
}

/** Sends each page view to the configured collector with navigator.sendBeacon: it survives leaving the page. */
export function createPulseProvider(options: PulseProviderOptions): TrackingProvider & { config: PulseTrackerConfig } {
  const config = pulseTrackerConfig(options.providerId);
  const send = options.sendBeacon ?? ((url: string, body: string) => navigator.sendBeacon(url, body));
  return {
    name: 'pulse',
    config,
    trackPageView(pageType, update) {
      const event = pulseEvent(config, options, pageType, update, options.advertisingOptIn());
      // A string goes as text/plain: a "simple" request, so no CORS preflight to the collector.
      send(options.collectorUrl, JSON.stringify(event));
    },
  };
}
