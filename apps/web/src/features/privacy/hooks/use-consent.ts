import { useQuery, useQueryClient } from '../../../lib/query/index.ts';
import type { ConsentChoices, ConsentSource, OptionalConsentPurpose } from '@minside/domain';
import { consentStore } from '../../../lib/consent/index.ts';
import { useStore } from '../../../lib/create-store.ts';
import { useSessionUser } from '../../auth/index.ts';
import { consentQueryOptions } from '../api/consent.ts';
import { useTitle } from '../../titles/index.ts';
import { bindConsentSync, consentSync } from '../consent-sync.ts';

export interface UseConsent {
  /** The choice that holds in this browser; null before the visitor has chosen. */
  choices: ConsentChoices | null;
  hasChoice: boolean;
  isGranted(purpose: OptionalConsentPurpose): boolean;
  /** Keeps the choice in the browser (SPEC §5) and, for a signed-in user, on the server with its history. */
  save(choices: ConsentChoices, source: ConsentSource): Promise<void>;
  /** Opens the consent manager (the built-in dialog, or the consent vendor's). */
  openManager(): void;
}

/** The consent state for any page or component (the privacy settings and consent pages use it). */
export function useConsent(): UseConsent {
  // The settings page starts from the whole choice, local storage too, not the cookies' part (consent-store.ts).
  consentStore.settle();
  const choices = useStore(consentStore, (state) => state.choices);
  const title = useTitle();
  const queryClient = useQueryClient();
  return {
    choices,
    hasChoice: choices !== null,
    isGranted: (purpose) => choices?.[purpose] === true,
    save: (next, source) => {
      // The choice's history row names this title, whether or not the consent manager has bound the sync yet.
      bindConsentSync(title.titleCode, queryClient);
      return consentSync.save(next, source);
    },
    openManager: () => consentStore.openManager(),
  };
}

/** The signed-in user's consent history from the server (newest first); disabled while signed out. */
export function useConsentHistory() {
  const user = useSessionUser();
  return useQuery({ ...consentQueryOptions(), enabled: user !== null });
}
