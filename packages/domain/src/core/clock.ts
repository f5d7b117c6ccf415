/**
 * The one source of "now" for business time. Every service, job and the seed take a `Clock`;
 * the processes (apps/server/src/bin/) hand them `systemClock`, tests hand them a clock they
 * set. Reading the machine's time anywhere else is a lint error (`no-restricted-syntax` in
 * eslint.config.js), so a rule can never quietly depend on the day the code happens to run.
 */
export type Clock = () => Date;

/** The machine's time: what production runs on, and the only place that reads it. */
export const systemClock: Clock = () => new Date();

/** A clock stopped at one instant (an ISO string or a Date). */
export function fixedClock(instant: Date | string): Clock {
  const at = toMillis(instant);
  return () => new Date(at);
}

/** A clock a test moves by hand: starts at `instant` and stands still until told otherwise. */
export interface ManualClock extends Clock {
  set(instant: Date | string): void;
  advance(milliseconds: number): void;
}

export function manualClock(instant: Date | string): ManualClock {
  let at = toMillis(instant);
  const clock = (() => new Date(at)) as ManualClock;
  clock.set = (next) => {
    at = toMillis(next);
  };
  clock.advance = (milliseconds) => {
    at += milliseconds;
  };
  return clock;
}

function toMillis(instant: Date | string): number {
  const millis = new Date(instant).getTime();
  if (Number.isNaN(millis)) throw new RangeError(`Not an instant: ${String(instant)}`);
  return millis;
}
