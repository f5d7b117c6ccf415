import type { ClientConfig, ConsentChoices } from '@minside/domain';

export type SourcepointConfig = NonNullable<ClientConfig['consent']['sourcepoint']>;

/** What the vendor's script reads before it loads, and the TCF API it installs. */
interface SourcepointWindow {
  _sp_queue?: unknown[];
  _sp_?: {
    config?: Record<string, unknown>;
    gdpr?: { loadPrivacyManagerModal?: (privacyManagerId: number) => void };
  };
  __tcfapi?: (command: string, version: number, callback: (data: CustomVendorConsents | null, success: boolean) => void) => void;
}

interface CustomVendorConsents {
  grants?: Record<string, { vendorGrant?: boolean } | undefined>;
}

/**
 * The vendor's answer in our purposes: the title's own vendor (its sourcepointId) carries
 * the grant for analytics, marketing and personalisation alike (ADR 012).
 */
export function choicesFromVendorConsents(data: CustomVendorConsents | null, vendorId: string): ConsentChoices {
  const granted = data?.grants?.[vendorId]?.vendorGrant === true;
  return { analytics: granted, marketing: granted, personalisation: granted };
}

/** The `_sp_.config` the vendor's script reads: ids from configuration and the title. */
function sourcepointWindowConfig(config: SourcepointConfig, onChoice: () => void): Record<string, unknown> {
  return {
    accountId: config.accountId,
    propertyId: config.propertyId,
    baseEndpoint: config.baseEndpoint,
    gdpr: { groupPmId: config.groupId },
    events: { onConsentReady: onChoice },
  };
}

/**
 * Hands consent to Sourcepoint: sets its configuration from our own bundle (the CSP allows no
 * inline script), loads its script, and reports each choice in our purposes. Returns the
 * opener of the title's privacy manager, for the footer button.
 */
export function loadSourcepoint(config: SourcepointConfig, onChoices: (choices: ConsentChoices) => void, target: Window = window): () => void {
  const vendorWindow = target as Window & SourcepointWindow;
  const readChoices = () => {
    vendorWindow.__tcfapi?.('getCustomVendorConsents', 2, (data, success) => {
      if (success) onChoices(choicesFromVendorConsents(data, config.vendorId));
    });
  };
  vendorWindow._sp_queue = [];
  vendorWindow._sp_ = { config: sourcepointWindowConfig(config, readChoices) };
  const script = target.document.createElement('script');
  script.src = config.scriptUrl;
  script.async = true;
  target.document.head.append(script);
  return () => vendorWindow._sp_?.gdpr?.loadPrivacyManagerModal?.(config.privacyManagerId);
}
