/**
 * What the app reads from the browser about the page it runs in: its address, its cookies, and
 * `fetch`. In the browser these are window.location, document.cookie and the global fetch. The
 * server render (src/entry-server.tsx, docs/decisions/032) answers them for the request it renders
 * instead, through `setServerScope`; nothing in the browser calls that.
 */
export interface PageScope {
  location: Pick<Location, 'origin' | 'href' | 'host' | 'hostname' | 'protocol' | 'pathname' | 'search' | 'hash'>;
  /** The request's cookies, as document.cookie would read them. */
  cookie: string;
  fetch: typeof fetch;
  /** An SVG the server serves itself (a title's wordmark), as the page inlines it (lib/load-svg.ts). */
  svg: (url: string, options: { decorative: boolean }) => Promise<string>;
}

let serverScope: (() => PageScope) | undefined;

/** Server render only: where the scope of the request being rendered comes from. */
export function setServerScope(scope: () => PageScope): void {
  serverScope = scope;
}

/** Whether this code runs in the server render rather than in a browser. */
export function isServerRender(): boolean {
  return serverScope !== undefined;
}

/** The page's address (window.location in the browser). */
export function pageLocation(): PageScope['location'] {
  return serverScope ? serverScope().location : window.location;
}

/** The page's cookies (document.cookie in the browser; '' where there is no document). */
export function pageCookies(): string {
  if (serverScope) return serverScope().cookie;
  return typeof document === 'undefined' ? '' : document.cookie;
}

/** Server render only: how the server inlines an SVG it serves itself (it has no DOM to sanitise one with). */
export function serverSvg(): PageScope['svg'] | undefined {
  return serverScope?.().svg;
}

/** fetch, for the page's own requests: relative URLs are the page's origin. */
export function pageFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return serverScope ? serverScope().fetch(input, init) : fetch(input, init);
}
