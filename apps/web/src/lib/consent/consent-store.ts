import { sameConsentChoices, type ConsentChoices, type OptionalConsentPurpose } from '@minside/domain';
import { createStore, type Store } from '../create-store.ts';
import { isServerRender, perPage } from '../page-scope.ts';
import { readCookieChoices, readStoredChoices, writeStoredChoices } from './storage.ts';

interface ConsentState {
  /** Null until the visitor has chosen (in this browser, or on the server once signed in). */
  choices: ConsentChoices | null;
  /** The built-in dialog is open. */
  dialogOpen: boolean;
}

export interface ConsentStore extends Store<ConsentState> {
  isGranted(purpose: OptionalConsentPurpose): boolean;
  /** Keeps the choice in this browser (SPEC §5 keys) and tells everyone waiting for it. */
  choose(choices: ConsentChoices): void;
  /** Opens the consent manager: the vendor's privacy manager when one took over, else the built-in dialog. */
  openManager(): void;
  closeDialog(): void;
  /** A consent vendor (Sourcepoint) replaces the built-in dialog; null gives it back. */
  setVendorManager(open: (() => void) | null): void;
  /**
   * Runs `start` once the purpose is granted: now if it is, else when it becomes so. The one
   * gate for everything that needs consent (analytics, experiments, RUM). Returns a cancel.
   */
  whenGranted(purpose: OptionalConsentPurpose, start: () => void): () => void;
  /**
   * Takes in the whole choice kept in this browser, local storage too (SPEC §5), once. Until then
   * the state is the cookies' (what the server rendered with): opening local storage is one of the
   * dearest calls of the page's first task (docs/performance.md, "2026-11-27 afternoon"), so it is
   * read when something acts on consent (isGranted, whenGranted, choose, openManager, the sync, the
   * settings page), when the first-visit bar would show (ConsentManager: it may be a choice the
   * cookies lost, Safari drops script-set cookies after 7 days), or once the page is idle, whichever
   * comes first.
   */
  settle(): void;
}

export interface ConsentStoreOptions {
  read?: () => ConsentChoices | null;
  write?: (choices: ConsentChoices) => void;
  /** The choice as the server sees it (the cookies alone): what a server-rendered page shows. */
  readServer?: () => ConsentChoices | null;
}

export function createConsentStore({ read = readStoredChoices, write = writeStoredChoices, readServer = readCookieChoices }: ConsentStoreOptions = {}): ConsentStore {
  // The page as the server rendered it (docs/decisions/032): read once in the browser, for the
  // hydration; in the server render, per request. The store starts from it too (see `settle`).
  const pageStart: ConsentState = { choices: readServer(), dialogOpen: false };
  const store = createStore<ConsentState>(pageStart);
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    const stored = read();
    store.setState((state) => (sameConsentChoices(state.choices, stored) ? state : { ...state, choices: stored }));
  };
  let vendorManager: (() => void) | null = null;
  const isGranted = (purpose: OptionalConsentPurpose) => {
    settle();
    return store.getState().choices?.[purpose] === true;
  };

  return {
    ...store,
    getServerState: () => (isServerRender() ? { choices: readServer(), dialogOpen: false } : pageStart),
    isGranted,
    settle,
    choose(choices) {
      settled = true;
      write(choices);
      store.setState((state) => ({ ...state, choices: { ...choices } }));
    },
    openManager() {
      // The dialog starts from the choice as it is, local storage too.
      settle();
      if (vendorManager) vendorManager();
      else store.setState((state) => (state.dialogOpen ? state : { ...state, dialogOpen: true }));
    },
    closeDialog() {
      store.setState((state) => (state.dialogOpen ? { ...state, dialogOpen: false } : state));
    },
    setVendorManager(open) {
      vendorManager = open;
    },
    whenGranted(purpose, start) {
      if (isGranted(purpose)) {
        start();
        return () => {};
      }
      const unsubscribe = store.subscribe(() => {
        if (!isGranted(purpose)) return;
        unsubscribe();
        start();
      });
      return unsubscribe;
    },
  };
}

/** The browser's consent: what the dialog writes and what analytics, experiments and RUM wait for. In the server render, the request's. */
export const consentStore: ConsentStore = perPage(() => createConsentStore());
