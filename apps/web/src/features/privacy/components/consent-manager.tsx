import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { consentStore, loadSourcepoint } from '../../../lib/consent/index.ts';
import { useStore } from '../../../lib/create-store.ts';
import { sessionStore } from '../../auth/index.ts';
import { useTitle } from '../../titles/index.ts';
import { clientConfigQueryOptions } from '../api/consent.ts';
import { bindConsentSync, consentSync } from '../consent-sync.ts';
import { useConsentedServices } from '../hooks/use-consented-services.ts';
import { ConsentDialog } from './consent-dialog.tsx';

let vendorLoaded = false;

/**
 * The consent manager of the page (rendered once, in the footer): the built-in dialog, opened
 * on the first visit and from the footer button; or, when the title's vendor ids and the
 * property and group ids are configured, the consent vendor's script instead.
 */
export function ConsentManager() {
  const title = useTitle();
  const queryClient = useQueryClient();
  const { data: config } = useQuery(clientConfigQueryOptions(title.titleCode));
  const choices = useStore(consentStore, (state) => state.choices);
  const dialogOpen = useStore(consentStore, (state) => state.dialogOpen);
  const sessionStatus = useStore(sessionStore, (state) => state.status);
  const { pathname } = useLocation();

  useEffect(() => bindConsentSync(title.titleCode, queryClient), [title.titleCode, queryClient]);

  useEffect(() => {
    if (!config) return;
    const vendor = config.consent.sourcepoint;
    if (vendor) {
      if (vendorLoaded) return;
      vendorLoaded = true;
      consentStore.setVendorManager(loadSourcepoint(vendor, (vendorChoices) => void consentSync.save(vendorChoices, 'vendor')));
      return;
    }
    // The login is being completed on /callback: ask on the page it lands on.
    if (config.consent.promptOnFirstVisit && consentStore.getState().choices === null && pathname !== '/callback') consentStore.openManager();
  }, [config, pathname]);

  useEffect(() => {
    if (sessionStatus === 'signedIn') void consentSync.onSignedIn();
  }, [sessionStatus]);

  useConsentedServices(config, title);

  return (
    <ConsentDialog
      open={dialogOpen}
      current={choices}
      onChoose={(next) => {
        void consentSync.save(next, 'dialog');
        consentStore.closeDialog();
      }}
      onDismiss={() => consentStore.closeDialog()}
    />
  );
}
