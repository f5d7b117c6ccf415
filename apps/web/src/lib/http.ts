import { internalError } from '@minside/domain';
import { createActionKeys } from './idempotency.ts';
import { pageFetch } from './page-scope.ts';

/**
 * The data a contract schema of @minside/domain describes (zod's output type), for contracts
 * without a named type. Name the schema with `import type` so only its type is imported:
 * `http.get<ResponseOf<typeof fooResponseSchema>>(...)`. The browser does not parse responses
 * (ADR 020): the server validates every response against this schema before sending it.
 */
export type ResponseOf<S extends { parse(data: unknown): unknown }> = ReturnType<S['parse']>;

/** A failed call: the HTTP status (0 when the server was not reached) and the API's `{code, message}`. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export const NETWORK_ERROR = 'NETWORK_ERROR';
export const INVALID_RESPONSE = 'INVALID_RESPONSE';
/** The browser says it has no network: nothing was sent. */
export const OFFLINE = 'OFFLINE';
/** No answer within the client's timeout: the request was given up. */
export const TIMEOUT = 'TIMEOUT';

/** What the user reads when the server could not be reached, by code. */
const connectionMessages = {
  [OFFLINE]: 'Du er uten nettforbindelse. Koble til internett og prøv igjen.',
  [NETWORK_ERROR]: 'Kunne ikke kontakte Min Side. Sjekk nettforbindelsen og prøv igjen.',
  [TIMEOUT]: 'Min Side svarer ikke. Sjekk nettforbindelsen og prøv igjen.',
} as const;

/**
 * A call that got no answer: offline, the network failed, or it timed out. The same action
 * may be retried safely: a write keeps its Idempotency-Key until it has an answer.
 */
export function isConnectionError(error: unknown): error is ApiError {
  return isApiError(error) && error.status === 0 && error.code in connectionMessages;
}

/** How long a call may go without an answer before the user is told (issue 25.11: never a silent spinner). */
const REQUEST_TIMEOUT_MS = 15_000;

/** The header of a write's idempotency key (ADR 029). */
const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** SPEC §9: these statuses send the user to the login flow (SPEC §8). */
const LOGIN_REDIRECT_STATUSES: readonly number[] = [401, 406];

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestOptions {
  signal?: AbortSignal;
  /**
   * Answer 401/406 to the caller only, without the login redirect. For the identity calls
   * themselves: a session check answering 401 means "not logged in", and redirecting on it
   * would loop.
   */
  skipUnauthenticatedHandler?: boolean;
  /** A write's own idempotency key, instead of the one the client keeps per action. */
  idempotencyKey?: string;
}

/**
 * `T` is the contract's type from @minside/domain (`import type`). The response is not parsed
 * here (ADR 020): the server's response schema already validated it and stripped unknown keys,
 * and parsing again would put zod on every page. Only a body that is not JSON data at all is
 * rejected, with INVALID_RESPONSE.
 */
export interface HttpClient {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  /**
   * THE hook point for SPEC §8 "any call returning 401 or 406 sends the user to the login
   * flow". Called once per such response, before the ApiError is thrown to the caller.
   * A no-op until the auth feature registers the login redirect.
   */
  setUnauthenticatedHandler(handler: (error: ApiError) => void): void;
}

export interface HttpClientOptions {
  /** Where `/api/` lives; a path or an absolute URL, with a trailing slash. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Default REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Whether the browser has a network (default `navigator.onLine`); false fails a call at once with OFFLINE. */
  isOnline?: () => boolean;
  /** Makes the keys of writes (default a v4 UUID). */
  newKey?: () => string;
}

function join(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
}

/** The API's `{code, message}` error body, checked by hand: no schema library for two strings. */
function apiErrorOf(data: unknown): { code: string; message: string } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { code, message } = data as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : undefined;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function connectionError(code: keyof typeof connectionMessages, cause?: unknown): ApiError {
  return new ApiError(0, code, connectionMessages[code], { cause });
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  let onUnauthenticated: (error: ApiError) => void = () => {};
  const doFetch = options.fetch ?? pageFetch;
  const isOnline = options.isOnline ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false);
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const actions = createActionKeys(options.newKey);

  /** Sends, and gives up after `timeoutMs` without an answer; the caller's own abort is passed on as it is. */
  async function send(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Response> {
    const timeout = new AbortController();
    const giveUp = setTimeout(() => timeout.abort(), timeoutMs);
    const follow = () => timeout.abort();
    signal?.addEventListener('abort', follow);
    try {
      return await doFetch(url, { ...init, signal: timeout.signal });
    } catch (cause) {
      if (signal?.aborted) throw cause;
      if (timeout.signal.aborted) throw connectionError(TIMEOUT, cause);
      throw connectionError(isOnline() ? NETWORK_ERROR : OFFLINE, cause);
    } finally {
      clearTimeout(giveUp);
      signal?.removeEventListener('abort', follow);
    }
  }

  async function request<T>(method: Method, path: string, body: unknown, requestOptions?: RequestOptions): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const init: RequestInit = { method, headers, credentials: 'same-origin' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const url = join(options.baseUrl, path);
    // Every write is one user action with one key until it is answered (ADR 029).
    const action = method === 'GET' ? undefined : `${method} ${url} ${init.body ?? ''}`;
    if (action !== undefined) headers[IDEMPOTENCY_KEY_HEADER] = requestOptions?.idempotencyKey ?? actions.keyFor(action);

    if (!isOnline()) throw connectionError(OFFLINE);
    const response = await send(url, init, requestOptions?.signal);
    if (action !== undefined) actions.answered(action);

    const data = await readJson(response);
    if (!response.ok) {
      const reported = apiErrorOf(data);
      const error = reported ? new ApiError(response.status, reported.code, reported.message) : new ApiError(response.status, internalError.code, internalError.message);
      if (LOGIN_REDIRECT_STATUSES.includes(response.status) && !requestOptions?.skipUnauthenticatedHandler) onUnauthenticated(error);
      throw error;
    }

    // Every contract is a JSON object or array. Anything else (an empty body, an HTML page from
    // a proxy in front of us) is not a response of ours; its fields are not checked (ADR 020).
    if (typeof data !== 'object' || data === null) {
      console.error(`Unexpected response from ${method} ${path}: not JSON data`);
      throw new ApiError(response.status, INVALID_RESPONSE, internalError.message);
    }
    return data as T;
  }

  return {
    get: (path, requestOptions) => request('GET', path, undefined, requestOptions),
    post: (path, body, requestOptions) => request('POST', path, body, requestOptions),
    put: (path, body, requestOptions) => request('PUT', path, body, requestOptions),
    delete: (path, body, requestOptions) => request('DELETE', path, body, requestOptions),
    setUnauthenticatedHandler(handler) {
      onUnauthenticated = handler;
    },
  };
}

/** The app's one HTTP client for `/api/` (SPEC §9 base path). */
export const http = createHttpClient({ baseUrl: '/api/' });
