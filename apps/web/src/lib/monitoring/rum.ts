import { buildRumConfig, type RumSettings } from './rum-config.ts';

let started = false;

/**
 * Starts browser RUM once. The SDK is loaded with a dynamic import, so it is not in the main
 * bundle and never downloaded unless RUM is configured and analytics consent is given.
 */
export async function startRum(settings: RumSettings): Promise<void> {
  if (started) {
    // Consent given again after a withdrawal on the same page load.
    const { datadogRum } = await import('@datadog/browser-rum');
    datadogRum.setTrackingConsent('granted');
    return;
  }
  started = true;
  try {
    const { datadogRum } = await import('@datadog/browser-rum');
    datadogRum.init(buildRumConfig(settings));
  } catch (error) {
    console.error('Browser monitoring could not start', error);
  }
}

/**
 * Consent withdrawn: nothing more is collected or sent. (stopSession alone would let the SDK
 * start a new session at the next interaction.)
 */
export async function stopRum(): Promise<void> {
  if (!started) return;
  const { datadogRum } = await import('@datadog/browser-rum');
  datadogRum.setTrackingConsent('not-granted');
  datadogRum.stopSession();
}
