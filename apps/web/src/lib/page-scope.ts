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
  /** This request's own instances of the app's per-page state (`perPage`): a new, empty map per render. */
  instances: Map<() => object, object>;
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

/**
 * State the app keeps for the page it runs in (the session, the consent choice, the spinner): in
 * the browser the one instance, made here; in the server render one per request rendered, made on
 * first use within that request (docs/decisions/032, "Signed-in pages"), so that two visitors'
 * renders at the same moment never read or write each other's. Used outside a render on the
 * server, it throws, as the page's other answers do. The browser's build never has the proxy
 * (`import.meta.env.SSR` is false there, and in the component tests).
 */
export function perPage<T extends object>(create: () => T): T {
  if (!import.meta.env.SSR) return create();
  const current = (): T => {
    if (!serverScope) throw new Error('Per-page state was asked for outside a page');
    const { instances } = serverScope();
    let instance = instances.get(create) as T | undefined;
    if (!instance) {
      instance = create();
      instances.set(create, instance);
    }
    return instance;
  };
  // Every property is read from the request's own instance; the stores' methods are closures, so no `this` is lost.
  return new Proxy({} as T, {
    get: (_target, property) => Reflect.get(current(), property) as unknown,
    has: (_target, property) => Reflect.has(current(), property),
  });
}
