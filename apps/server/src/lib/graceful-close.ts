import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface GracefulCloseOptions {
  /** The door closes once no new connection has arrived for this long. */
  quietMs?: number;
  /** The longest the door stays open after the signal, quiet or not. */
  doorMaxMs?: number;
  /** After the door has closed: the longest an accepted connection may take to send its request. */
  firstRequestMaxMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Resolves in the event loop's check phase, that is after one more poll for I/O (and new connections). */
const afterPoll = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Stopping the server without resetting a connection (issue 20.5). Node's `server.close()`,
 * which `app.close()` calls, stops listening and at once destroys every connection that has
 * not started a request yet; a request already on its way on such a connection (or waiting in
 * the kernel's accept queue, which closing the listener resets) got a TCP reset instead of an
 * answer. So, from the signal on:
 *
 * 1. Draining: every new request is answered 503 `SERVICE_UNAVAILABLE` with `Connection: close`
 *    (plugins/errors.ts), and every answer closes its connection afterwards, keep-alive or not.
 * 2. The listener stays open until the door is quiet: no new connection for `quietMs`, checked
 *    after one more poll so that what the kernel has already queued is accepted and answered
 *    (at most `doorMaxMs`). Behind Kubernetes the pod has been out of the Service since its
 *    preStop sleep, so this is one `quietMs`. Then the listener closes; later connections are
 *    refused (ECONNREFUSED), which a client can tell from a reset: nothing was sent.
 * 3. Each connection accepted so far gets to send its request (at most `firstRequestMaxMs`),
 *    and is answered.
 * 4. `app.close()`: requests in flight finish, idle keep-alive connections are closed, the
 *    job runner stops after the run in progress; then the caller closes the database.
 *
 * Call it before `listen`: it counts connections from the start.
 */
export function gracefulClose(app: FastifyInstance, options: GracefulCloseOptions = {}): () => Promise<void> {
  const { quietMs = 250, doorMaxMs = 5_000, firstRequestMaxMs = 2_000 } = options;
  const server = app.server;
  /** Accepted connections that have not yet started a request. */
  const waiting = new Set<net.Socket>();
  let lastConnectionAt = performance.now();
  server.on('connection', (socket: net.Socket) => {
    lastConnectionAt = performance.now();
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
  });
  server.on('request', (request: IncomingMessage) => waiting.delete(request.socket as net.Socket));

  async function untilDoorQuiet(): Promise<'quiet' | 'busy'> {
    const opened = performance.now();
    for (;;) {
      const quietFor = performance.now() - lastConnectionAt;
      if (quietFor >= quietMs) {
        await afterPoll();
        if (performance.now() - lastConnectionAt >= quietMs) return 'quiet';
      } else {
        const left = doorMaxMs - (performance.now() - opened);
        if (left <= 0) return 'busy';
        await sleep(Math.min(quietMs - quietFor, left) + 1);
      }
    }
  }

  return async () => {
    app.beginDraining();
    const signalledAt = performance.now();
    const door = await untilDoorQuiet();
    // Stop listening, and nothing else: net.Server's close leaves the accepted connections be
    // (http.Server's would also destroy those that have not started a request).
    net.Server.prototype.close.call(server);
    app.log.info({ door, afterMs: Math.round(performance.now() - signalledAt), waitingForRequest: waiting.size }, 'stopped listening');
    const closedAt = performance.now();
    while (waiting.size > 0 && performance.now() - closedAt < firstRequestMaxMs) await sleep(10);
    await app.close();
  };
}
