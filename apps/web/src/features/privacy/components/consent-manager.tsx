import { lazy, Suspense, useEffect, useState } from 'react';
import type { ClientConfig, ConsentChoices, ConsentSource } from '@minside/domain';
import type { ConsentSync } from '../consent-sync.ts';
import { useQuery, useQueryClient, type QueryClient } from '../../../lib/query/index.ts';
import { useLocation } from '../../../lib/router/index.ts';
import { consentStore, markConsentPending } from '../../../lib/consent/index.ts';
import { preloadable } from '../../../lib/preloadable.ts';
import { useStore } from '../../../lib/create-store.ts';
import { whenIdle } from '../../../lib/idle.ts';
import { sessionStore } from '../../auth/index.ts';
import { useTitle } from '../../titles/index.ts';
import { clientConfigQueryOptions } from '../api/client-config.ts';
import { useConsentedServices } from '../hooks/use-consented-services.ts';

// The bar and the dialog load when they are first shown (issue 27): a returning visitor who has
// chosen never downloads them, and the first screen of `/` does not wait for them. The bar is in
// a page the server rendered for a first visitor, so it is loaded before that page hydrates.
const ConsentBanner = preloadable(() => import('./consent-banner.tsx').then((module) => module.ConsentBanner));
const ConsentDialog = lazy(() => import('./consent-dialog.tsx').then((module) => ({ default: module.ConsentDialog })));

let vendorLoaded = false;

/**
 * Runs `act` with the server's side of consent (consent-sync.ts), which loads when first used
 * (issue 27): on a choice, or once a signed-in page has rendered. The first screen does not wait for it.
 */
function withConsentSync(titleCode: string, queryClient: QueryClient, act: (sync: ConsentSync) => Promise<void>): void {
  import('../consent-sync.ts')
    .then(({ bindConsentSync, consentSync }) => {
      bindConsentSync(titleCode, queryClient);
      return act(consentSync);
    })
    .catch((error: unknown) => console.error('The consent choice could not be synchronised', error));
}

/**
 * A choice holds in this browser at once (the bar goes away), marked as not yet on the server until
 * the sync's module is here and the server has it: if that module cannot load, the next login sends it.
 */
function chooseConsent(titleCode: string, queryClient: QueryClient, next: ConsentChoices, source: ConsentSource): void {
  consentStore.choose(next);
  markConsentPending();
  withConsentSync(titleCode, queryClient, (sync) => sync.keep(next, source));
}

/** Whether the first-visit bar asks: the built-in dialog's title, no choice yet, no dialog open; not while /callback completes a login. */
function asksOnFirstVisit(config: ClientConfig | undefined, choices: unknown, dialogOpen: boolean, pathname: string): boolean {
  return config?.consent.promptOnFirstVisit === true && config.consent.sourcepoint === null && choices === null && !dialogOpen && pathname !== '/callback';
}

/**
 * Loads the first-visit bar when a page the server renders shows it, so that the page renders
 * on the server, and hydrates in the browser, without suspending (docs/decisions/032). The server
 * knows the choice from the cookies alone. True when the bar shows.
 */
export async function preloadConsentBar(config: ClientConfig | undefined, pathname: string): Promise<boolean> {
  const { choices, dialogOpen } = consentStore.getServerState?.() ?? consentStore.getState();
  if (!asksOnFirstVisit(config, choices, dialogOpen, pathname)) return false;
  await ConsentBanner.preload();
  return true;
}

/** Loads the first-visit bar's module, whether or not a page shows it (the server render, ahead of its first page). */
export function loadConsentBar(): Promise<void> {
  return ConsentBanner.preload();
}

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

  const choose = (next: ConsentChoices, source: ConsentSource) => chooseConsent(title.titleCode, queryClient, next, source);

  useEffect(() => {
    const vendor = config?.consent.sourcepoint;
    if (!vendor || vendorLoaded) return;
    vendorLoaded = true;
    // The vendor's adapter only for a title that has the vendor.
    import('../../../lib/consent/sourcepoint.ts')
      .then(({ loadSourcepoint }) => consentStore.setVendorManager(loadSourcepoint(vendor, (vendorChoices) => chooseConsent(title.titleCode, queryClient, vendorChoices, 'vendor'))))
      .catch((error: unknown) => {
        // Not loaded: the footer's button keeps the built-in dialog on this page, and the next
        // configuration this effect sees (another title's, a reload) tries again.
        vendorLoaded = false;
        console.error('The consent vendor could not be loaded', error);
      });
  }, [config, title.titleCode, queryClient]);

  // At once, not at idle: a user whose choice is on the server (made in another browser) should not
  // be asked again for longer than the call takes.
  useEffect(() => {
    if (sessionStatus === 'signedIn') withConsentSync(title.titleCode, queryClient, (sync) => sync.onSignedIn());
  }, [sessionStatus, title.titleCode, queryClient]);

  // The choice in local storage too (SPEC §5) once the page is up, if nothing has asked for it before (consent-store.ts, `settle`).
  useEffect(() => whenIdle(() => consentStore.settle()), []);

  useConsentedServices(config, title);

  useEffect(() => {
    if (dialogOpen) setDialogMounted(true);
  }, [dialogOpen]);

  // Not while the login is being completed on /callback: the page it lands on asks.
  const ask = asksOnFirstVisit(config, choices, dialogOpen, pathname);
  // The cookies hold no choice: local storage may (consent-store.ts, `settle`), and then the bar goes at once.
  useEffect(() => {
    if (ask) consentStore.settle();
  }, [ask]);

  return (
    // Its own boundary: while a part loads, the rest of the page stays as it is.
    <Suspense fallback={null}>
      {ask ? <ConsentBanner onChoose={(next) => choose(next, 'dialog')} onCustomise={() => consentStore.openManager()} /> : null}
      {dialogOpen || dialogMounted ? (
        <ConsentDialog
          open={dialogOpen}
          current={choices}
          onChoose={(next) => {
            choose(next, 'dialog');
            consentStore.closeDialog();
          }}
          onDismiss={() => consentStore.closeDialog()}
        />
      ) : null}
    </Suspense>
  );
}
