// For tests that start the server bundle (or another process) and talk to it over a real port.
import type { ChildProcess } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';

/**
 * A port nobody listens on now, as the system hands one out, for a server process a test starts.
 * A random pick from 20000–40000 once met one in use (EADDRINUSE in CI): that range overlaps the
 * ports the system gives outgoing connections (32768 and up).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '0.0.0.0', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * How long a started server may take to answer. It migrates and seeds first (PGlite's creation,
 * the migrations, scrypt per demo user): about 11 s on a quiet 2-core machine, and well over the
 * 20 s one test allowed on a loaded CI machine, which failed a CI run with every test green (its
 * hook timed out). So the wait is a time, not a count of attempts, each of which may itself be slow.
 */
export const SERVER_START_MS = 75_000;

/**
 * Waits until `url` answers 2xx. Fails at once when `child` has exited, and after `timeoutMs`,
 * with what the process printed (`output`).
 */
export async function waitUntilReady(url: string, options: { child?: ChildProcess; output?: () => string; timeoutMs?: number } = {}): Promise<void> {
  const deadline = performance.now() + (options.timeoutMs ?? SERVER_START_MS);
  const printed = () => (options.output ? `:\n${options.output().slice(-2_000)}` : '');
  while (performance.now() < deadline) {
    if (options.child && options.child.exitCode !== null) throw new Error(`the process exited with ${options.child.exitCode} before ${url} answered${printed()}`);
    const ready = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${(options.timeoutMs ?? SERVER_START_MS) / 1000} s${printed()}`);
}
