/**
 * Housekeeping that piggybacks on normal traffic: `sweep` runs at most once per interval per
 * process, and its failure is reported, never thrown (a failed clean-up must not fail the
 * request that happened to trigger it).
 */
export function occasionalSweep(options: { intervalMs: number; sweep: (at: Date) => Promise<unknown>; onError?: (error: unknown) => void }): (at: Date) => Promise<void> {
  let lastSweep = Number.NEGATIVE_INFINITY;
  return async (at) => {
    if (at.getTime() - lastSweep < options.intervalMs) return;
    lastSweep = at.getTime();
    try {
      await options.sweep(at);
    } catch (error) {
      options.onError?.(error);
    }
  };
}
