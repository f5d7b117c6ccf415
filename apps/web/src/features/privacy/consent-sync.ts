import type { QueryClient } from '../../lib/query/index.ts';
import { sameConsentChoices, type ConsentChoices, type ConsentSource } from '@minside/domain';
import { consentStore, PENDING_SYNC_KEY, type ConsentStore } from '../../lib/consent/index.ts';
import { sessionStore } from '../auth/index.ts';
import { consentKeys, getConsent, putConsent } from './api/consent.ts';

export { PENDING_SYNC_KEY };

export interface ConsentSyncDeps {
  consent: ConsentStore;
  isSignedIn: () => boolean;
  titleCode: () => string | undefined;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  put: typeof putConsent;
  get: typeof getConsent;
  queryClient?: QueryClient;
}

/**
 * Keeps a signed-in user's consent on the server, with its history (the privacy pages show
 * it). The browser's copy (SPEC §5 keys) is what the page obeys at once; the server's is the
 * user's record across browsers.
 */
export function createConsentSync(deps: ConsentSyncDeps) {
  async function send(choices: ConsentChoices, source: ConsentSource): Promise<void> {
    const titleCode = deps.titleCode();
    const state = await deps.put({ choices, source, ...(titleCode ? { titleCode } : {}) });
    deps.queryClient?.setQueryData(consentKeys.consent, state);
  }

  async function keep(choices: ConsentChoices, source: ConsentSource): Promise<void> {
    if (!deps.isSignedIn()) {
      deps.storage.setItem(PENDING_SYNC_KEY, '1');
      return;
    }
    try {
      await send(choices, source);
      deps.storage.removeItem(PENDING_SYNC_KEY);
    } catch (error) {
      // The browser's copy holds; the next login tries again.
      deps.storage.setItem(PENDING_SYNC_KEY, '1');
      console.error('The consent choice could not be saved on the server', error);
    }
  }

  return {
    /** The visitor chose: keep it here now, and on the server when signed in (else at the next login). */
    async save(choices: ConsentChoices, source: ConsentSource): Promise<void> {
      deps.consent.choose(choices);
      await keep(choices, source);
    },

    /**
     * The server's part of `save`, for a choice the page has applied already: the consent manager
     * applies it at once and loads this module only then (issue 27).
     */
    keep,

    /** After login: send a choice made while signed out, or take the user's own from the server. */
    async onSignedIn(): Promise<void> {
      deps.consent.settle();
      const local = deps.consent.getState().choices;
      try {
        if (local && deps.storage.getItem(PENDING_SYNC_KEY) === '1') {
          await send(local, 'dialog');
          deps.storage.removeItem(PENDING_SYNC_KEY);
          return;
        }
        const state = await deps.get();
        deps.queryClient?.setQueryData(consentKeys.consent, state);
        // Chosen here while the server answered: that choice stands (its own save sends it), not the older one.
        if (deps.consent.getState().choices !== local) return;
        if (state.current && !sameConsentChoices(local, state.current.choices)) deps.consent.choose(state.current.choices);
        // The user chose before, on another visit: the first-visit prompt has nothing left to ask.
        if (state.current && local === null) deps.consent.closeDialog();
      } catch (error) {
        console.error('The consent choice could not be synchronised', error);
      }
    },
  };
}

export type ConsentSync = ReturnType<typeof createConsentSync>;

let titleCodeOfPage: string | undefined;
let queryClientOfPage: QueryClient | undefined;

/** The consent manager tells the page's sync which title and query cache it works with. */
export function bindConsentSync(titleCode: string, queryClient: QueryClient): void {
  titleCodeOfPage = titleCode;
  queryClientOfPage = queryClient;
}

export const consentSync: ConsentSync = createConsentSync({
  consent: consentStore,
  isSignedIn: () => sessionStore.getState().status === 'signedIn',
  titleCode: () => titleCodeOfPage,
  storage: {
    getItem: (key) => safeStorage()?.getItem(key) ?? null,
    setItem: (key, value) => safeStorage()?.setItem(key, value),
    removeItem: (key) => safeStorage()?.removeItem(key),
  },
  put: putConsent,
  get: getConsent,
  get queryClient() {
    return queryClientOfPage;
  },
});

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
