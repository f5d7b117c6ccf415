/** Browsers without requestIdleCallback (Safari) wait this long instead: past the first render and its data. */
const FALLBACK_DELAY_MS = 1000;
/** At the latest this long after asking, even on a page that is never idle. */
const IDLE_TIMEOUT_MS = 5000;

/**
 * Runs `run` once the browser is idle, so that code the first screen does not need (analytics,
 * the monitoring SDK) is fetched and started after the page is up, not while it renders (issue
 * 27). Returns a cancel; after `run` has run, cancelling does nothing.
 */
export function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(() => run(), { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, FALLBACK_DELAY_MS);
  return () => window.clearTimeout(handle);
}
