import { useEffect } from 'react';
import type { ClientConfig, Title } from '@minside/domain';
import type * as monitoring from '../../../lib/monitoring/index.ts';
import { consentStore } from '../../../lib/consent/index.ts';
import { configureAnalytics, currentDeployStage } from '../../../lib/tracking/index.ts';

type Monitoring = typeof monitoring;
let monitoringModule: Promise<Monitoring> | undefined;

/**
 * RUM's starter loads only for a title that has RUM configured and consented (issue 27), not with
 * every page. One promise, so a start and a stop right after it run in that order.
 */
function withMonitoring(use: (loaded: Monitoring) => Promise<void>, failure: string): void {
  const loading = (monitoringModule ??= import('../../../lib/monitoring/index.ts'));
  loading.then(use).catch((error: unknown) => {
    // A module that did not load is asked for again next time, not remembered as failed.
    if (monitoringModule === loading) monitoringModule = undefined;
    console.error(failure, error);
  });
}

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
      withMonitoring(({ startRum }) => startRum({ ...rum, minsideUrl: title.minsideUrl, production: currentDeployStage() === 'pro' }), 'Browser monitoring could not start');
    });
    const unsubscribe = consentStore.subscribe(() => {
      if (started && !consentStore.isGranted('analytics')) withMonitoring(({ stopRum }) => stopRum(), 'Browser monitoring could not be stopped');
    });
    return () => {
      cancel();
      unsubscribe();
    };
  }, [config?.rum, title.minsideUrl]);
}
