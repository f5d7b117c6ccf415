/**
 * The client's three ways to fail, for three different decisions by the caller:
 * `VippsApiError` — the provider answered no (4xx): the outcome is known, nothing happened;
 * `VippsUnavailableError` — no usable answer (network, timeout, 5xx after retries): the outcome is
 * unknown, read the state again (with the same Idempotency-Key, a repeat is safe);
 * `VippsContractError` — an answer that breaks the published contract: a bug on one side.
 * Messages never carry credentials, tokens or request bodies.
 */

/** A 4xx answer (a 3xx too, which the APIs never document). */
export class VippsApiError extends Error {
  override readonly name = 'VippsApiError';
  readonly status: number;
  readonly operation: string;
  /** The parsed error body (the API's Problem shape), its text if it is not JSON, or null. */
  readonly problem: unknown;

  constructor(operation: string, status: number, problem: unknown) {
    super(`${operation}: Vipps MobilePay answered ${status}${problemSummary(problem)}`);
    this.operation = operation;
    this.status = status;
    this.problem = problem;
  }
}

/** No answer, or a 5xx after the retries: the caller must treat the outcome as unknown. */
export class VippsUnavailableError extends Error {
  override readonly name = 'VippsUnavailableError';
  readonly operation: string;
  /** The status of the last answer when it was a 5xx; undefined after a network error or timeout. */
  readonly status: number | undefined;

  constructor(operation: string, detail: string, options: { status?: number; cause?: unknown } = {}) {
    super(`${operation}: Vipps MobilePay unavailable (${detail}); the outcome is unknown`, { cause: options.cause });
    this.operation = operation;
    this.status = options.status;
  }
}

/** An answer that breaks the contract: wrong status, not JSON, or a body its schema refuses. */
export class VippsContractError extends Error {
  override readonly name = 'VippsContractError';
  readonly operation: string;
  /** `path: message` per problem, e.g. `aggregate.capturedAmount: Invalid input: expected object, received undefined`. */
  readonly issues: string[];

  constructor(operation: string, issues: string[]) {
    super(`${operation}: the answer breaks the contract: ${issues.slice(0, 5).join('; ')}${issues.length > 5 ? ` (+${issues.length - 5} more)` : ''}`);
    this.operation = operation;
    this.issues = issues;
  }
}

function problemSummary(problem: unknown): string {
  if (typeof problem !== 'object' || problem === null) return '';
  const record = problem as Record<string, unknown>;
  const parts = [record['title'], record['detail']].filter((part): part is string => typeof part === 'string' && part !== '');
  return parts.length === 0 ? '' : `: ${parts.join(' — ').slice(0, 300)}`;
}
