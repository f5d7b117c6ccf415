/**
 * Ends the current task and goes on in a new one: `scheduler.yield()` where the browser has it
 * (it goes on before other queued tasks), else a zero-delay timer. Start-up work that would
 * otherwise run as one long task (over 50 ms on a phone, which counts as blocking) is cut in two
 * with it; each part then leaves room for input and rendering (issue 27).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
