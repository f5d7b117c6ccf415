import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import { errorCodes, errorMessages } from '@minside/domain';
import { AppError } from '../lib/app-error.ts';
import type { IdempotencyStore } from '../lib/shared-state/index.ts';
import { hooksOf, onScopedRoute, stateChangingMethods } from './route-scope.ts';
import type { SessionStore } from './session.ts';

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on an answer that is the stored first answer, not a new run. */
const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';

/** The web sends v4 UUIDs; any opaque token of printable ASCII is accepted, as the IETF draft allows. */
const keyPattern = /^[\x21-\x7e]{8,200}$/;

/** The scope of the claim this request holds, kept until its answer is sent. */
const claims = new WeakMap<FastifyRequest, string>();

/** What was asked: the same key with another body, params or query is another request. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([request.params ?? null, request.query ?? null, request.body ?? null]))
    .digest('base64url');
}

/**
 * `Idempotency-Key` on every state-changing API call of a session (docs/decisions/029): the
 * first answer of (user, method, route, key) is stored and sent again for the same request,
 * which is not run again. So a retry after a lost answer, or a second click, changes nothing
 * twice. The same key for another request answers 409 `IDEMPOTENCY_KEY_REUSED`; while the
 * first is still running, 409 `IDEMPOTENT_REQUEST_IN_PROGRESS`.
 *
 * It runs after validation (an invalid request is refused before anything is kept, and a
 * corrected one may use the key) and needs a session: without one there is no user to keep
 * the answer for, and the call refuses itself or needs none (login). A 5xx or a 429 is not
 * kept, so the retry runs the call again. Register it before @fastify/compress: its onSend
 * must see the answer as text, before it is compressed.
 */
export function registerIdempotency(app: FastifyInstance, options: { store: IdempotencyStore; sessions: Pick<SessionStore, 'find'> }): void {
  const { store, sessions } = options;

  /** Claims the key of a write, or answers it from the stored answer: true when it answered. */
  async function claimOrReplay(request: FastifyRequest, reply: FastifyReply, key: string | string[]): Promise<boolean> {
    if (typeof key !== 'string' || !keyPattern.test(key)) {
      throw new AppError(400, errorCodes.validation, errorMessages.validation, 'Idempotency-Key must be 8 to 200 printable ASCII characters');
    }
    const session = await sessions.find(request);
    if (!session) return false;
    const scope = `${session.user.id}:${request.method} ${request.routeOptions.url ?? ''}:${key}`;
    const claim = await store.claim(scope, fingerprintOf(request));
    switch (claim.kind) {
      case 'claimed':
        claims.set(request, scope);
        return false;
      case 'mismatch':
        throw new AppError(409, errorCodes.idempotencyKeyReused, errorMessages.idempotencyKeyReused);
      case 'inProgress':
        throw new AppError(409, errorCodes.idempotentRequestInProgress, errorMessages.idempotentRequestInProgress);
      case 'completed': {
        const { status, contentType, body } = claim.response;
        reply.code(status).header(IDEMPOTENT_REPLAY_HEADER, 'true');
        if (contentType) reply.header('content-type', contentType);
        reply.send(body === '' ? undefined : body);
        return true;
      }
    }
  }

  /** Keeps the answer to a claimed key for its retries, or lets the claim go; never fails the answer. */
  async function keepAnswer(request: FastifyRequest, reply: FastifyReply, scope: string, payload: unknown): Promise<void> {
    try {
      const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : null;
      if (reply.statusCode >= 500 || reply.statusCode === 429 || text === null) {
        await store.release(scope);
      } else {
        const contentType = reply.getHeader('content-type');
        await store.complete(scope, { status: reply.statusCode, contentType: typeof contentType === 'string' ? contentType : null, body: text });
      }
    } catch (error) {
      // The answer still goes out; the claim ends with its lease and a retry runs the call then.
      request.log.error({ err: error }, 'idempotency: could not keep the answer');
    }
  }

  // Callback style (ADR 038): on every request but a keyed write, both hooks pass at once, without a promise.
  const claimIdempotencyKey: preHandlerHookHandler = (request, reply, done) => {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (!stateChangingMethods.has(request.method) || key === undefined) {
      done();
      return;
    }
    // An answer replayed from the store has been sent: then `done` is never called, so the handler
    // cannot run (Fastify's `reply.sent` turns true only when the answer has been written out).
    claimOrReplay(request, reply, key).then(
      (replayed) => {
        if (!replayed) done();
      },
      (error: unknown) => done(error instanceof Error ? error : new Error('idempotency: the claim failed', { cause: error })),
    );
  };

  const keepIdempotentAnswer: onSendHookHandler = (request, reply, payload, done) => {
    const scope = claims.get(request);
    if (scope === undefined) {
      done();
      return;
    }
    claims.delete(request);
    // Keeping the answer: the promise goes to Fastify's runner (not `done` in a `then`), whose try/catch takes what the rest of the chain throws.
    return keepAnswer(request, reply, scope, payload).then(() => payload);
  };

  // Hooks of the API's state-changing routes only, added as they are registered (ADR 039): a read
  // runs neither. The route's own hooks come after them, and @fastify/compress (registered later) after those.
  onScopedRoute(app, (route, scope) => {
    if (scope !== 'api' || ![route.method].flat().some((method) => stateChangingMethods.has(method))) return;
    route.preHandler = [claimIdempotencyKey, ...hooksOf(route.preHandler)];
    route.onSend = [keepIdempotentAnswer, ...hooksOf(route.onSend)];
  });
}
