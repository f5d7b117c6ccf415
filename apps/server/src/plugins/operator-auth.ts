import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import { notFound } from './errors.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Operators (carrier desk, customer centre) are not subscribers: they present OPERATOR_TOKEN as
 * a bearer token and have no session. While the token is unset the operator endpoints do not
 * exist (404), so a deployment that forgot it exposes nothing.
 */
export function operatorAuth(operatorToken: string | undefined): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    if (!operatorToken) throw notFound();
    const header = request.headers.authorization ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    // Compared as digests: constant time whatever the length presented.
    if (!timingSafeEqual(digest(presented), digest(operatorToken))) {
      throw new AppError(401, 'OPERATOR_AUTH_REQUIRED', 'Denne tjenesten krever operatørtilgang.');
    }
  };
}
