import { lazy, Suspense, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { consentStore, loadSourcepoint } from '../../../lib/consent/index.ts';
import { useStore } from '../../../lib/create-store.ts';
import { sessionStore } from '../../auth/index.ts';
import { useTitle } from '../../titles/index.ts';
import { clientConfigQueryOptions } from '../api/consent.ts';
import { bindConsentSync, consentSync } from '../consent-sync.ts';
import { useConsentedServices } from '../hooks/use-consented-services.ts';

// The bar and the dialog load when they are first shown (issue 27): a returning visitor who has
// chosen never downloads them, and the first screen of `/` does not wait for them.
const ConsentBanner = lazy(() => import('./consent-banner.tsx').then((module) => ({ default: module.ConsentBanner })));
const ConsentDialog = lazy(() => import('./consent-dialog.tsx').then((module) => ({ default: module.ConsentDialog })));

let vendorLoaded = false;

/**
 * The consent manager of the page (rendered once, after the footer): on the first visit a bar
 * at the bottom of the page that asks without covering it, and the built-in dialog from the
 * bar's "Tilpass" and the footer button; or, when the title's vendor ids and the property and
 * group ids are configured, the consent vendor's script instead.
 */
export function ConsentManager() {
  const title = useTitle();
  const queryClient = useQueryClient();
  const { data: config } = useQuery(clientConfigQueryOptions(title.titleCode));
  const choices = useStore(consentStore, (state) => state.choices);
  const dialogOpen = useStore(consentStore, (state) => state.dialogOpen);
  const sessionStatus = useStore(sessionStore, (state) => state.status);
  const { pathname } = useLocation();
  // Once opened, the dialog stays mounted: closing it is the native <dialog>'s close (focus goes back), not its removal.
  const [dialogMounted, setDialogMounted] = useState(dialogOpen);

  useEffect(() => bindConsentSync(title.titleCode, queryClient), [title.titleCode, queryClient]);

  useEffect(() => {
    const vendor = config?.consent.sourcepoint;
    if (!vendor || vendorLoaded) return;
    vendorLoaded = true;
    consentStore.setVendorManager(loadSourcepoint(vendor, (vendorChoices) => void consentSync.save(vendorChoices, 'vendor')));
  }, [config]);

  useEffect(() => {
    if (sessionStatus === 'signedIn') void consentSync.onSignedIn();
  }, [sessionStatus]);

  useConsentedServices(config, title);

  useEffect(() => {
    if (dialogOpen) setDialogMounted(true);
  }, [dialogOpen]);

  // Not while the login is being completed on /callback: the page it lands on asks.
  const ask = config?.consent.promptOnFirstVisit === true && config.consent.sourcepoint === null && choices === null && !dialogOpen && pathname !== '/callback';

  return (
    // Its own boundary: while a part loads, the rest of the page stays as it is.
    <Suspense fallback={null}>
      {ask ? <ConsentBanner onChoose={(next) => void consentSync.save(next, 'dialog')} onCustomise={() => consentStore.openManager()} /> : null}
      {dialogOpen || dialogMounted ? (
        <ConsentDialog
          open={dialogOpen}
          current={choices}
          onChoose={(next) => {
            void consentSync.save(next, 'dialog');
            consentStore.closeDialog();
          }}
          onDismiss={() => consentStore.closeDialog()}
        />
      ) : null}
    </Suspense>
  );
}
