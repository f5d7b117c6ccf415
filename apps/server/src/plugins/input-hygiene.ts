import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { errorCodes, errorMessages } from '@minside/domain';
import { AppError } from '../lib/app-error.ts';
import { hooksOf, onScopedRoute } from './route-scope.ts';

// Matched per UTF-16 code unit (no `u` flag), which is what finds a surrogate without its pair.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- the NUL is what we look for
const loneSurrogateOrNul = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function containsMatch(value: unknown, pattern: RegExp): boolean {
  // Iterative: a hostile body may nest thousands of levels deep.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (pattern.test(current)) return true;
    } else if (Array.isArray(current)) {
      pending.push(...current);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        if (pattern.test(key)) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/**
 * Refuses input holding text PostgreSQL cannot store, before any handler runs. A surrogate
 * without its pair is not Unicode text: a json column refuses it (a 500 otherwise) and a text
 * column silently turns it into U+FFFD. In /api a NUL is left to the modules, which word their
 * own refusal (an invalid e-mail address in a pasted list); one that reaches the database is a
 * 400 in plugins/errors.ts. The provider's login and registration forms refuse both here: their
 * error page answers (they are not /api, and their handler would make a database error a 500).
 * The rule follows the matched route (plugins/route-scope.ts), however the path was spelled.
 */
export function registerInputHygiene(app: FastifyInstance): void {
  // A hook of each route it guards, chosen by the route's scope when it is registered (ADR 039):
  // no hook at all on the others, and no scope to look up per request. Callback style (ADR 038); a throw is the hook's error.
  onScopedRoute(app, (route, scope) => {
    const pattern = scope === 'api' ? loneSurrogate : scope === 'identityForm' ? loneSurrogateOrNul : undefined;
    if (!pattern) return;
    const refuseUnstorableText: preValidationHookHandler = (request, _reply, done) => {
      if (containsMatch(request.body, pattern) || containsMatch(request.params, pattern) || containsMatch(request.query, pattern)) {
        throw new AppError(400, errorCodes.validation, errorMessages.validation);
      }
      done();
    };
    route.preValidation = [refuseUnstorableText, ...hooksOf(route.preValidation)];
  });
}
