import { options } from 'preact';
import { act } from 'preact/test-utils';
import { afterAll, afterEach } from 'vitest';

/**
 * Preact runs useEffect callbacks, and the cleanups of unmounted components, after the next paint:
 * on the next animation frame, or after 35 ms when no frame comes, through a setTimeout of Node's.
 * @testing-library/preact's cleanup() unmounts outside act(), so the last test of a file leaves
 * that flush pending; when jsdom is torn down first, it runs without a window and fails
 * ("cancelAnimationFrame is not defined", "window is not defined" from QueryClientProvider's
 * cleanup) after every test has passed.
 *
 * Preact schedules that flush through options.requestAnimationFrame when it is set (act() does the
 * same). This one keeps Preact's own timing, next frame or 35 ms, then a macrotask, but remembers
 * what is pending, and after each test (and file) runs it inside act(): the cleanups run while the
 * test's environment is still there, and whatever they schedule is flushed with them.
 */
const pending = new Set<() => void>();

options.requestAnimationFrame = (callback) => {
  let timeout: ReturnType<typeof setTimeout> | undefined;
  let frame: number | undefined;
  const stop = () => {
    clearTimeout(timeout);
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
  const run = () => {
    if (!pending.delete(run)) return;
    stop();
    callback();
  };
  const afterFrame = () => {
    stop();
    timeout = setTimeout(run);
  };
  pending.add(run);
  timeout = setTimeout(afterFrame, 35);
  if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(afterFrame);
};

/** Runs the pending after-paint work now, and what it schedules in turn. */
function flushAfterPaint(): void {
  while (pending.size > 0) {
    void act(() => {
      for (const run of [...pending]) run();
    });
  }
}

// Setup files' hooks run after the test file's own (Vitest's sequence.hooks 'stack'), so this
// follows their cleanup() and @testing-library/preact's automatic one.
afterEach(flushAfterPaint);
afterAll(flushAfterPaint);
