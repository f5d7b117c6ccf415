import type { RumEvent, RumInitConfiguration } from '@datadog/browser-rum';
import { shareableUrl } from '../tracking/shareable-url.ts';

export interface RumSettings {
  clientToken: string;
  applicationId: string;
  /** The my-page name: the service is `{name}-rum`. */
  serviceName: string;
  /** The title's my-page URL, e.g. https://minside.adressa.no */
  minsideUrl: string;
  /** Development hosts keep the library's defaults (SPEC §9: 100 % sessions elsewhere). */
  production: boolean;
  version?: string;
}

/** SPEC §7: the local development server whose requests are traced too. */
const LOCAL_DEV_SERVER = 'http://localhost:3000';

/**
 * SPEC §7: requests are traced only when they go to our /api under the title's my-page URL
 * or to the local development server on port 3000. A string matches as a prefix.
 */
export function allowedTracingUrlsFor(minsideUrl: string): string[] {
  return [`${minsideUrl.replace(/\/+$/, '')}/api/`, `${LOCAL_DEV_SERVER}/`];
}

/**
 * SPEC §9 production monitoring: service `{my-page name}-rum`, env prod, EU site, 10 % of
 * sessions, no replay, interactions, resources and long tasks, privacy level mask.
 */
export function buildRumConfig(settings: RumSettings): RumInitConfiguration {
  const common = {
    clientToken: settings.clientToken,
    applicationId: settings.applicationId,
    service: `${settings.serviceName}-rum`,
    site: 'datadoghq.eu',
    trackUserInteractions: true,
    trackResources: true,
    trackLongTasks: true,
    defaultPrivacyLevel: 'mask',
    allowedTracingUrls: allowedTracingUrlsFor(settings.minsideUrl),
    // Started only after analytics consent; withdrawing it calls setTrackingConsent('not-granted').
    trackingConsent: 'granted',
    beforeSend: scrubRumEvent,
    ...(settings.version ? { version: settings.version } : {}),
  } satisfies RumInitConfiguration;
  if (!settings.production) return { ...common, env: 'dev' };
  return { ...common, env: 'prod', sessionSampleRate: 10, sessionReplaySampleRate: 0 };
}

/**
 * Removes secrets from what RUM records: page and resource URLs keep only their shareable
 * parameters (lib/tracking/shareable-url.ts), so pay-link, invitation and confirmation tokens
 * never reach the monitoring vendor.
 */
export function scrubRumEvent(event: RumEvent): boolean {
  const view = event.view as { url: string; referrer?: string | undefined };
  view.url = shareableUrl(view.url);
  if (view.referrer) view.referrer = shareableUrl(view.referrer);
  if ('resource' in event && event.resource && typeof (event.resource as { url?: unknown }).url === 'string') {
    const resource = event.resource as { url: string };
    resource.url = shareableUrl(resource.url);
  }
  return true;
}
