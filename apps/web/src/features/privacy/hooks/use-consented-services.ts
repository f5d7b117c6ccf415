import { useEffect } from 'react';
import type { ClientConfig, Title } from '@minside/domain';
import { consentStore } from '../../../lib/consent/index.ts';
import { startRum, stopRum } from '../../../lib/monitoring/index.ts';
import { configureAnalytics, currentDeployStage } from '../../../lib/tracking/index.ts';

/**
 * Sets up what needs consent once the client configuration is known: analytics (which holds
 * every event until analytics consent) and browser RUM (started only when configured and
 * analytics consent is given, stopped when it is withdrawn).
 */
export function useConsentedServices(config: ClientConfig | undefined, title: Pick<Title, 'titleCode' | 'minsideUrl'>): void {
  useEffect(() => {
    if (!config) return;
    configureAnalytics({ collectorUrl: config.analytics?.collectorUrl ?? null, providerId: config.analytics?.providerId ?? null, titleCode: title.titleCode });
  }, [config, title.titleCode]);

  useEffect(() => {
    const rum = config?.rum;
    if (!rum) return;
    let started = false;
    const cancel = consentStore.whenGranted('analytics', () => {
      started = true;
      void startRum({ ...rum, minsideUrl: title.minsideUrl, production: currentDeployStage() === 'pro' });
    });
    const unsubscribe = consentStore.subscribe(() => {
      if (started && !consentStore.isGranted('analytics')) void stopRum();
    });
    return () => {
      cancel();
      unsubscribe();
    };
  }, [config?.rum, title.minsideUrl]);
}
