import type { Experiment } from '../experiments.ts';
import type { ReferrerClass } from '../referrer.ts';
import type { TrackingObject, Utm } from '../tracking-object.ts';

/** SPEC §7: who acts (the signed-in user), or nobody before login. */
export interface Actor {
  id: string;
  realm: string;
}

/** SPEC §7: the tracker "receives updates with actor, origin, provider, object and experiments". */
export interface TrackerUpdate {
  actor: Actor | null;
  origin: { referrer: ReferrerClass; utm: Utm };
  provider: { id: string; titleCode: string };
  object: TrackingObject & { pageType: string; url: string };
  /** Only when the stored experiments form a non-empty array (SPEC §5). */
  experiments?: Experiment[];
}

/** An analytics provider: the Pulse-style collector in production, the console in development. */
export interface TrackingProvider {
  readonly name: string;
  /** A page view with the lowercased page type (SPEC §7) and the update that describes it. */
  trackPageView(pageType: string, update: TrackerUpdate): void;
}
