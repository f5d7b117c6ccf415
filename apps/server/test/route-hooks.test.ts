import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';

// The rules that are hooks of the routes they guard (ADR 039: idempotency on the API's writes,
// input hygiene on the API and the identity provider's forms) are added as each route is
// registered. A route registered where that does not reach (a plugin loaded before the rule, a
// new way to add routes) would go without them and say nothing: this holds every route of the
// built app to them. A hook added from Fastify's `fastify.initialization` channel runs before
// every other `onRoute`, and keeps each route's options object, which the rules then extend.

const unsafe = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const namesOf = (hooks: unknown): string[] => (Array.isArray(hooks) ? hooks : hooks ? [hooks] : []).map((hook: { name: string }) => hook.name);
const methodsOf = (route: RouteOptions): string[] => [route.method].flat();

describe('route hooks of the built app (PGlite)', () => {
  let test: TestApp;
  const routes: RouteOptions[] = [];
  const keepRoutes = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => {
      routes.push(route);
    });
  };

  beforeAll(async () => {
    subscribe('fastify.initialization', keepRoutes);
    try {
      test = await buildTestApp('pglite');
    } finally {
      unsubscribe('fastify.initialization', keepRoutes);
    }
  });
  afterAll(async () => {
    await test.close();
  });

  it('sees every route of the route table', () => {
    expect(routes.length).toBeGreaterThan(150);
    const seen = new Set(routes.flatMap((route) => methodsOf(route).map((method) => `${method} ${route.url}`)));
    const missing = test.app
      .routeTable()
      .map((entry) => `${entry.method} ${entry.url}`)
      .filter((key) => !seen.has(key));
    expect(missing).toEqual([]);
  });

  it('puts idempotency on every state-changing /api route, before compression, and on no other', () => {
    const wrong = routes.flatMap((route) => {
      const write = route.url.startsWith('/api/') && methodsOf(route).some((method) => unsafe.has(method));
      const preHandler = namesOf(route.preHandler);
      const onSend = namesOf(route.onSend);
      const guarded =
        preHandler.filter((name) => name === 'claimIdempotencyKey').length === 1 && onSend[0] === 'keepIdempotentAnswer' && onSend.filter((name) => name === 'keepIdempotentAnswer').length === 1;
      const untouched = !preHandler.includes('claimIdempotencyKey') && !onSend.includes('keepIdempotentAnswer');
      return (write ? guarded : untouched) ? [] : [`${methodsOf(route).join(',')} ${route.url}: preHandler ${preHandler.join(',')}; onSend ${onSend.join(',')}`];
    });
    expect(routes.some((route) => route.url === '/api/delivery/complaints' && methodsOf(route).includes('POST'))).toBe(true);
    expect(wrong).toEqual([]);
  });

  it('puts input hygiene on every /api and identity form route, once, and on no other', () => {
    const wrong = routes.flatMap((route) => {
      const guarded = route.url.startsWith('/api/') || route.url.startsWith('/idp/interaction/');
      const count = namesOf(route.preValidation).filter((name) => name === 'refuseUnstorableText').length;
      return count === (guarded ? 1 : 0) ? [] : [`${methodsOf(route).join(',')} ${route.url}: ${count}`];
    });
    expect(wrong).toEqual([]);
  });
});
