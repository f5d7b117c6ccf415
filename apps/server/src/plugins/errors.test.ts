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
