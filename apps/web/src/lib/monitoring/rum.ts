import { whenIdle } from '../idle.ts';
import type { RumSettings } from './rum-config.ts';

type Phase = { kind: 'off' } | { kind: 'waiting'; cancel: () => void } | { kind: 'started' };
let phase: Phase = { kind: 'off' };

/** The SDK and our configuration of it, in one lazily loaded chunk beside the SDK's own. */
const loadSdk = () => Promise.all([import('@datadog/browser-rum'), import('./rum-config.ts')]);

/**
 * Starts browser RUM once. The SDK is loaded with a dynamic import, so it is not in the main
 * bundle and never downloaded unless RUM is configured and analytics consent is given; and then
 * only when the browser is idle (issue 27), so it never competes with the page's first render.
 */
export function startRum(settings: RumSettings): Promise<void> {
  if (phase.kind === 'waiting') return Promise.resolve();
  if (phase.kind === 'started') {
    // Consent given again after a withdrawal on the same page load.
    return loadSdk().then(([{ datadogRum }]) => datadogRum.setTrackingConsent('granted'));
  }
  return new Promise<void>((resolve) => {
    const cancel = whenIdle(() => {
      phase = { kind: 'started' };
      loadSdk()
        .then(([{ datadogRum }, { buildRumConfig }]) => datadogRum.init(buildRumConfig(settings)))
        .catch((error: unknown) => console.error('Browser monitoring could not start', error))
        .finally(resolve);
    });
    phase = {
      kind: 'waiting',
      cancel: () => {
        cancel();
        resolve();
      },
    };
  });
}

/**
 * Consent withdrawn: nothing more is collected or sent. (stopSession alone would let the SDK
 * start a new session at the next interaction.) Withdrawn before the SDK was started: it never is.
 */
export async function stopRum(): Promise<void> {
  if (phase.kind === 'waiting') {
    phase.cancel();
    phase = { kind: 'off' };
    return;
  }
  if (phase.kind !== 'started') return;
  const [{ datadogRum }] = await loadSdk();
  datadogRum.setTrackingConsent('not-granted');
  datadogRum.stopSession();
}
