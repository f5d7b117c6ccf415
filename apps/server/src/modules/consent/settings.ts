import type { ClientConfig } from '@minside/domain';
import type { PublicationConfig } from '@minside/titles';
import type { ClientSettings } from '../../config/client-settings.ts';

/** The Datadog intake for the EU site (SPEC §9 production monitoring: EU region). */
const RUM_INTAKE_ORIGIN = 'https://browser-intake-datadoghq.eu';

/** What the browser's consent, analytics and monitoring configuration (config/client-settings.ts) means for the page and its CSP. */

/**
 * The origins the Content-Security-Policy must allow for what is configured: nothing extra
 * when nothing is (the demo keeps `'self'` only).
 */
export function thirdPartySources(settings: ClientSettings): { script: string[]; connect: string[]; frame: string[] } {
  const script: string[] = [];
  const connect: string[] = [];
  const frame: string[] = [];
  if (settings.sourcepoint) {
    const vendor = [new URL(settings.sourcepoint.scriptUrl).origin, new URL(settings.sourcepoint.baseEndpoint).origin];
    script.push(...vendor);
    connect.push(...vendor);
    frame.push(...vendor);
  }
  if (settings.analyticsCollectorUrl) connect.push(new URL(settings.analyticsCollectorUrl).origin);
  if (settings.rum) connect.push(RUM_INTAKE_ORIGIN);
  const unique = (list: string[]) => [...new Set(list)];
  return { script: unique(script), connect: unique(connect), frame: unique(frame) };
}

/**
 * GET /api/client-config's answer for a title's catalogue entry. One function, so the page's
 * bootstrap block (pages/spa-bootstrap.ts) and the endpoint cannot disagree.
 */
export function clientConfigOf(settings: ClientSettings, entry: Pick<PublicationConfig, 'sourcepointPmId' | 'sourcepointId' | 'pulseProvider'>): ClientConfig {
  return {
    consent: {
      promptOnFirstVisit: settings.consentPrompt,
      sourcepoint: settings.sourcepoint ? { ...settings.sourcepoint, privacyManagerId: entry.sourcepointPmId, vendorId: entry.sourcepointId } : null,
    },
    analytics: settings.analyticsCollectorUrl ? { collectorUrl: settings.analyticsCollectorUrl, providerId: entry.pulseProvider } : null,
    rum: settings.rum,
  };
}
