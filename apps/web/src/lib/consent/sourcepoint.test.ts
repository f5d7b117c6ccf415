import { describe, expect, it, vi } from 'vitest';
import { choicesFromVendorConsents, loadSourcepoint, type SourcepointConfig } from './sourcepoint.ts';

const config: SourcepointConfig = {
  accountId: 1234,
  propertyId: 5678,
  groupId: 91011,
  privacyManagerId: 700101,
  vendorId: '337ddfc1fcbbb6429c4ee646',
  scriptUrl: 'https://cdn.privacy-mgmt.com/unified/wrapperMessagingWithoutDetection.js',
  baseEndpoint: 'https://cdn.privacy-mgmt.com',
};

describe('Sourcepoint adapter', () => {
  it("maps the title vendor's grant to our purposes", () => {
    expect(choicesFromVendorConsents({ grants: { [config.vendorId]: { vendorGrant: true } } }, config.vendorId)).toEqual({ analytics: true, marketing: true, personalisation: true });
    expect(choicesFromVendorConsents({ grants: { other: { vendorGrant: true } } }, config.vendorId)).toEqual({ analytics: false, marketing: false, personalisation: false });
    expect(choicesFromVendorConsents(null, config.vendorId).analytics).toBe(false);
  });

  it('configures the vendor from our bundle, loads its script, reports choices and opens the title privacy manager', () => {
    const onChoices = vi.fn();
    const open = loadSourcepoint(config, onChoices);
    const script = document.head.querySelector<HTMLScriptElement>(`script[src="${config.scriptUrl}"]`);
    expect(script?.async).toBe(true);
    const vendorWindow = window as unknown as {
      _sp_: { config: { accountId: number; propertyId: number; gdpr: { groupPmId: number }; events: { onConsentReady: () => void } }; gdpr?: { loadPrivacyManagerModal: (id: number) => void } };
      __tcfapi?: (command: string, version: number, callback: (data: unknown, success: boolean) => void) => void;
    };
    expect(vendorWindow._sp_.config).toMatchObject({ accountId: 1234, propertyId: 5678, gdpr: { groupPmId: 91011 } });

    vendorWindow.__tcfapi = (command, _version, callback) => {
      expect(command).toBe('getCustomVendorConsents');
      callback({ grants: { [config.vendorId]: { vendorGrant: true } } }, true);
    };
    vendorWindow._sp_.config.events.onConsentReady();
    expect(onChoices).toHaveBeenCalledWith({ analytics: true, marketing: true, personalisation: true });

    const loadPrivacyManagerModal = vi.fn();
    vendorWindow._sp_.gdpr = { loadPrivacyManagerModal };
    open();
    expect(loadPrivacyManagerModal).toHaveBeenCalledWith(700101);
  });
});
