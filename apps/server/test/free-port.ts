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
