import { apiErrorSchema, errorCodes, errorMessages } from '@minside/domain';

/** Anything with zod's `parse`: every response is parsed with its contract from @minside/domain. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

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

export interface HttpClient {
  get<T>(path: string, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body: unknown, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body: unknown, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, body: unknown, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
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

  async function request<T>(method: Method, path: string, body: unknown, schema: ResponseSchema<T>, requestOptions?: RequestOptions): Promise<T> {
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
      const parsed = apiErrorSchema.safeParse(data);
      const error = parsed.success
        ? new ApiError(response.status, parsed.data.code, parsed.data.message)
        : new ApiError(response.status, errorCodes.internal, errorMessages.internal);
      if (LOGIN_REDIRECT_STATUSES.includes(response.status) && !requestOptions?.skipUnauthenticatedHandler) onUnauthenticated(error);
      throw error;
    }

    try {
      return schema.parse(data);
    } catch (cause) {
      console.error(`Unexpected response from ${method} ${path}`, cause);
      throw new ApiError(response.status, INVALID_RESPONSE, errorMessages.internal, { cause });
    }
  }

  return {
    get: (path, schema, requestOptions) => request('GET', path, undefined, schema, requestOptions),
    post: (path, body, schema, requestOptions) => request('POST', path, body, schema, requestOptions),
    put: (path, body, schema, requestOptions) => request('PUT', path, body, schema, requestOptions),
    delete: (path, body, schema, requestOptions) => request('DELETE', path, body, schema, requestOptions),
    setUnauthenticatedHandler(handler) {
      onUnauthenticated = handler;
    },
  };
}

/** The app's one HTTP client for `/api/` (SPEC §9 base path). */
export const http = createHttpClient({ baseUrl: '/api/' });
