import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from './errors.ts';

/** A database error the way drizzle wraps it: the PostgreSQL code sits on the cause. */
function wrapped(code: string): Error {
  const cause = Object.assign(new Error('database said no'), { code });
  return Object.assign(new Error('Failed query: insert …'), { cause });
}

describe('error handling of values PostgreSQL refuses', () => {
  it.each([
    ['22021', 'invalid byte sequence (a NUL in text)'],
    ['22P05', 'untranslatable character (a NUL in json)'],
    ['22001', 'value too long for its column'],
  ])('answers %s (%s) with 400 VALIDATION_FAILED, not 500', async (code) => {
    const app = Fastify();
    registerErrorHandling(app);
    app.get('/x', async () => {
      throw wrapped(code);
    });
    const response = await app.inject({ method: 'GET', url: '/x' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'Forespørselen inneholder ugyldige data.' });
  });

  it('still answers other database errors with 500 and no internals', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/x', async () => {
      throw wrapped('23505');
    });
    const response = await app.inject({ method: 'GET', url: '/x' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('insert');
  });
});

describe('error handling when the database is away', () => {
  // What pg, pg-pool and PGlite throw when the database cannot be reached (test/reliability.test.ts plays the outages).
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a query without an answer', new Error('Query read timeout')],
    ['no connection within the pool timeout', new Error('timeout exceeded when trying to connect')],
    ['a connection that broke earlier', new Error('Client has encountered a connection error and is not queryable')],
    ['a closed PGlite', new Error('PGlite is closed')],
    ['the server shutting down (57P01)', wrapped('57P01')],
  ])('answers %s with 503 SERVICE_UNAVAILABLE in Norwegian', async (_, error) => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/x', async () => {
      throw Object.assign(new Error('Failed query: select …'), { cause: error });
    });
    const response = await app.inject({ method: 'GET', url: '/x' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Tjenesten er midlertidig utilgjengelig. Prøv igjen om litt.' });
  });
});
