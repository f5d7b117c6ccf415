import type { FastifyInstance, InjectOptions } from 'fastify';

/**
 * A minimal browser for server tests: a cookie jar per host, and requests either injected
 * into a Fastify app (no network) or sent over the network with fetch. It follows the OIDC
 * login the way a browser does: portal → provider login form → back to /callback → handlecode.
 */
export interface BrowserResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  /** The body as bytes (a PDF). */
  raw: Buffer;
  json<T = Record<string, unknown>>(): T;
}

type Transport = (request: { method: string; url: URL; headers: Record<string, string>; body?: string }) => Promise<BrowserResponse>;

/** Requests to `app` through `inject`, whatever host the URL names. */
export function injectTransport(app: FastifyInstance): Transport {
  return async ({ method, url, headers, body }) => {
    const response = await app.inject({
      method: method as InjectOptions['method'],
      url: url.pathname + url.search,
      headers: { ...headers, host: url.host },
      ...(body === undefined ? {} : { payload: body }),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body, raw: response.rawPayload, json: <T>() => response.json<T>() };
  };
}

/** Real HTTP: for a provider running as a separate process. */
export const fetchTransport: Transport = async ({ method, url, headers, body }) => {
  const response = await fetch(url, { method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) });
  const raw = Buffer.from(await response.arrayBuffer());
  const text = raw.toString('utf8');
  const responseHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => (responseHeaders[name] = value));
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 0) responseHeaders['set-cookie'] = setCookies;
  return { status: response.status, headers: responseHeaders, body: text, raw, json: () => JSON.parse(text) };
};

export class TestBrowser {
  /** host → cookie name → value. Paths are ignored: every cookie of the host is sent. */
  private readonly jar = new Map<string, Map<string, string>>();

  constructor(private readonly transportFor: (url: URL) => Transport) {}

  cookies(host: string): Map<string, string> {
    let cookies = this.jar.get(host);
    if (!cookies) this.jar.set(host, (cookies = new Map()));
    return cookies;
  }

  /** Deep copy: a second browser that starts with the same cookies (a stolen cookie jar). */
  clone(): TestBrowser {
    const copy = new TestBrowser(this.transportFor);
    for (const [host, cookies] of this.jar) copy.jar.set(host, new Map(cookies));
    return copy;
  }

  async request(method: string, href: string, options: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<BrowserResponse> {
    const url = new URL(href);
    const headers: Record<string, string> = { ...options.headers };
    const cookies = this.cookies(url.host);
    if (cookies.size > 0) headers['cookie'] = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const response = await this.transportFor(url)({ method, url, headers, ...(body === undefined ? {} : { body }) });
    this.store(url.host, response.headers['set-cookie']);
    return response;
  }

  private store(host: string, setCookie: string | string[] | number | undefined): void {
    const cookies = this.cookies(host);
    for (const line of setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [String(setCookie)]) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute) || /^\s*expires=Thu, 01 Jan 1970/i.test(attribute));
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  /** Follows redirects from `href` until a response that is not one, or until `stopAt` matches. */
  async follow(href: string, stopAt: (url: URL) => boolean = () => false): Promise<{ url: URL; response: BrowserResponse | null }> {
    let url = new URL(href);
    for (let hop = 0; hop < 15; hop++) {
      if (stopAt(url)) return { url, response: null };
      const response = await this.request('GET', url.href);
      const location = response.headers['location'];
      if (response.status < 300 || response.status >= 400 || typeof location !== 'string') return { url, response };
      url = new URL(location, url);
    }
    throw new Error(`too many redirects from ${href}`);
  }
}

export interface LoginOptions {
  /** The portal origin the browser is on, e.g. http://adresseavisen.localhost:3000 */
  portal: string;
  email: string;
  password: string;
  titleCode?: string;
  returnTo?: string;
  /** Which issuer to pick on the portal's login page when there are several; the main one (`account`) by default. */
  issuer?: string;
}

export interface ProviderRoundTrip {
  /** The /callback URL the provider sent the browser back to. */
  callback: URL;
  loginToken: string;
  authorizationUrl: URL;
}

/** The first half of a login: loginToken, the provider's login form, the password, back to /callback. */
export async function loginAtProvider(browser: TestBrowser, options: LoginOptions): Promise<ProviderRoundTrip> {
  const query = new URLSearchParams();
  if (options.returnTo) query.set('returnTo', options.returnTo);
  if (options.titleCode) query.set('titleCode', options.titleCode);
  const tokenResponse = await browser.request('GET', `${options.portal}/api/loginToken?${query}`);
  if (tokenResponse.status !== 200) throw new Error(`loginToken answered ${tokenResponse.status}: ${tokenResponse.body}`);
  const { loginToken, authorizationUrl: firstUrl } = tokenResponse.json<{ loginToken: string; authorizationUrl: string }>();
  // With a second issuer (issue 24) the token's URL is the portal's login page: pick the main issuer there, as a person would.
  let authorizationUrl = firstUrl;
  if (new URL(firstUrl).pathname === '/logg-inn') {
    const chosen = await browser.request('POST', `${options.portal}/api/login/choose`, { json: { loginToken, issuer: options.issuer ?? 'account' } });
    if (chosen.status !== 200) throw new Error(`login/choose answered ${chosen.status}: ${chosen.body}`);
    authorizationUrl = chosen.json<{ authorizationUrl: string }>().authorizationUrl;
  }
  const callback = await submitLoginForm(browser, authorizationUrl, options);
  return { callback, loginToken, authorizationUrl: new URL(authorizationUrl) };
}

/** From an authorization URL: fill in the provider's form and follow it back to /callback. */
export async function submitLoginForm(browser: TestBrowser, authorizationUrl: string, credentials: { email: string; password: string }): Promise<URL> {
  const isCallback = (url: URL) => url.pathname === '/callback';
  const atForm = await browser.follow(authorizationUrl, isCallback);
  if (atForm.response === null) return atForm.url; // already signed in at the provider
  const action = /<form[^>]*action="([^"]+)"/.exec(atForm.response.body)?.[1];
  if (!action) throw new Error(`no login form at ${atForm.url.href} (status ${atForm.response.status}): ${atForm.response.body.slice(0, 300)}`);
  const posted = await browser.request('POST', new URL(action.replaceAll('&amp;', '&'), atForm.url).href, {
    form: { email: credentials.email, password: credentials.password },
  });
  const location = posted.headers['location'];
  if (typeof location !== 'string') throw new Error(`login form answered ${posted.status}: ${posted.body.slice(0, 300)}`);
  const back = await browser.follow(new URL(location, atForm.url).href, isCallback);
  if (back.response !== null) throw new Error(`the provider did not return to /callback: ${back.url.href} ${back.response.status}`);
  return back.url;
}

/** What the /callback page posts to /api/handlecode. */
export function callbackBody(callback: URL): Record<string, string> {
  const body: Record<string, string> = {};
  for (const name of ['code', 'state', 'iss']) {
    const value = callback.searchParams.get(name);
    if (value !== null) body[name] = value;
  }
  return body;
}

/** A whole login, as the browser does it; returns handlecode's response. */
export async function login(browser: TestBrowser, options: LoginOptions): Promise<BrowserResponse> {
  const { callback } = await loginAtProvider(browser, options);
  return browser.request('POST', `${options.portal}/api/handlecode`, { json: callbackBody(callback) });
}
