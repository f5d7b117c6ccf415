/**
 * Marks the browser's consent choice as not yet kept on the server: made while signed out, or its
 * save failed, or the module that saves it could not load. The next login sends it
 * (features/privacy/consent-sync.ts, which clears the mark once the server has it). Set when the
 * choice is made, before anything can fail, so that no choice is lost and an older one from the
 * server never replaces it.
 */
export const PENDING_SYNC_KEY = 'CMP:pendingSync';

export function markConsentPending(): void {
  try {
    window.localStorage.setItem(PENDING_SYNC_KEY, '1');
  } catch {
    // Storage refused: only the mark is lost (the choice itself is in the cookies too, SPEC §5).
  }
}
