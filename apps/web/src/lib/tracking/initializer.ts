import type { Account, Subscription, User } from '@minside/domain';

/** Who the tracking provider is set up for (SPEC §7 analytics: the actor). */
export interface TrackingIdentity {
  user: User;
  account: Account | null;
  subscription: Subscription | null;
}

export type TrackingSetUp = (identity: TrackingIdentity) => void;

/**
 * SPEC §4 step 5: "after login, initialise a tracking provider once". Wraps `setUp` so that
 * only the first call runs it; later logins in the same page load reuse the provider.
 */
export function createTrackingInitializer(setUp: TrackingSetUp): TrackingSetUp {
  let done = false;
  return (identity) => {
    if (done) return;
    done = true;
    try {
      setUp(identity);
    } catch (error) {
      // Analytics must never stand between a subscriber and their page.
      console.error('The tracking provider could not be set up', error);
    }
  };
}
