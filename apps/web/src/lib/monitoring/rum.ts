import { buildRumConfig, type RumSettings } from './rum-config.ts';

let started = false;

/**
 * Starts browser RUM once. The SDK is loaded with a dynamic import, so it is not in the main
 * bundle and never downloaded unless RUM is configured and analytics consent is given.
 */
export async function startRum(settings: RumSettings): Promise<void> {
  if (started) return;
  started = true;
  try {
    const { datadogRum } = await import('@datadog/browser-rum');
    datadogRum.init(buildRumConfig(settings));
  } catch (error) {
    console.error('Browser monitoring could not start', error);
  }
}

/** Consent withdrawn: stop sending for the rest of this page load. */
export async function stopRum(): Promise<void> {
  if (!started) return;
  const { datadogRum } = await import('@datadog/browser-rum');
  datadogRum.stopSession();
}
