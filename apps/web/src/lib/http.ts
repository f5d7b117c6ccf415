import { errorCodes, errorMessages } from '@minside/domain';

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

/** SPEC §9: these statuses send the user to the login flow (SPEC §8). */
export const LOGIN_REDIRECT_STATUSES: readonly number[] = [401, 406];

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  signal?: AbortSignal;
  /**
   * Answer 401/406 to the caller only, without the login redirect. For the identity calls
   * themselves: a session check answering 401 means "not logged in", and redirecting on it
   * would loop.
   */
  skipUnauthenticatedHandler?: boolean;
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

export function createHttpClient(options: HttpClientOptions): HttpClient {
  let onUnauthenticated: (error: ApiError) => void = () => {};
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  async function request<T>(method: Method, path: string, body: unknown, requestOptions?: RequestOptions): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const init: RequestInit = { method, headers, credentials: 'same-origin' };
    if (requestOptions?.signal) init.signal = requestOptions.signal;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }

    let response: Response;
    try {
      response = await doFetch(join(options.baseUrl, path), init);
    } catch (cause) {
      if (requestOptions?.signal?.aborted) throw cause;
      throw new ApiError(0, NETWORK_ERROR, 'Kunne ikke kontakte Min Side. Sjekk nettforbindelsen og prøv igjen.', { cause });
    }

    const data = await readJson(response);
    if (!response.ok) {
      const reported = apiErrorOf(data);
      const error = reported
        ? new ApiError(response.status, reported.code, reported.message)
        : new ApiError(response.status, errorCodes.internal, errorMessages.internal);
      if (LOGIN_REDIRECT_STATUSES.includes(response.status) && !requestOptions?.skipUnauthenticatedHandler) onUnauthenticated(error);
      throw error;
    }

    // Every contract is a JSON object or array. Anything else (an empty body, an HTML page from
    // a proxy in front of us) is not a response of ours; its fields are not checked (ADR 020).
    if (typeof data !== 'object' || data === null) {
      console.error(`Unexpected response from ${method} ${path}: not JSON data`);
      throw new ApiError(response.status, INVALID_RESPONSE, errorMessages.internal);
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
