import type { FastifyInstance, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { refuseCrossSiteWrite } from './csrf.ts';
import { answerWhileDraining, registerDraining, refuseWithoutHost } from './errors.ts';
import { securityHeaderWriter, type CspSources } from './security-headers.ts';

/**
 * The rules every request meets at the edge, before and after its route, in one `onRequest` and
 * one `onSend` hook (ADR 039). Fastify runs each hook of a request through its hook runner at
 * about 5,400 instructions a hook, more than most of these rules cost themselves; as separate
 * hooks they were six of the fourteen on every API call. Each rule stays in its own module, with
 * its reasons; this is only their order:
 * - the request id goes back on every answer, the refusals too;
 * - while the server closes, every new request is answered 503 (plugins/errors.ts);
 * - an HTTP/1.1 request without Host is a 400 (plugins/errors.ts);
 * - a state-changing API call from another site, or not JSON, is refused (plugins/csrf.ts);
 * - every answer carries the security headers and, where it did not choose its caching, no-store
 *   (plugins/security-headers.ts), and `Connection: close` while the server closes.
 * A throw in a hook is that hook's error (plugins/errors.ts answers it); the draining answer is
 * sent without `done`, as Fastify's callback hooks take it.
 */
export function registerEdgeRules(app: FastifyInstance, options: { https: boolean; sources?: CspSources }): void {
  const isDraining = registerDraining(app);
  const writeSecurityHeaders = securityHeaderWriter(options);
  const edgeOnRequest: onRequestHookHandler = (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (isDraining()) {
      answerWhileDraining(request, reply);
      return;
    }
    refuseWithoutHost(request);
    refuseCrossSiteWrite(request);
    done();
  };
  const edgeOnSend: onSendHookHandler = (request, reply, _payload, done) => {
    if (isDraining()) reply.header('connection', 'close');
    writeSecurityHeaders(request, reply);
    done();
  };
  app.addHook('onRequest', edgeOnRequest);
  app.addHook('onSend', edgeOnSend);
}
