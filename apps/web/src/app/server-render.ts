import type { QueryClient } from '../lib/query/index.ts';

// docs/decisions/032: the server renders the public pages into #root, and puts what it rendered
// them with, beyond the bootstrap block (docs/decisions/022), into a second data block: the page it
// rendered, and the answers of the calls the page made (the FAQ, a terms text, the prices). The
// browser reads it once at start, puts the answers where the calls would, and hydrates the markup
// instead of rendering the page again. Shared by the server render (src/entry-server.tsx) and
// main.tsx; nothing here is server-only.

export const SERVER_RENDER_ELEMENT_ID = 'minside-server-render';
/**
 * On #root while it holds the server's markup and the browser has not taken it over yet (hydrated
 * it, or replaced it): the page shows, but does not act on a click yet. The e2e journeys wait for it
 * to go before they act (e2e/fixtures.ts).
 */
export const SERVER_RENDERED_ATTRIBUTE = 'data-server-rendered';
export const SERVER_RENDER_VERSION = 1;

/** One call's answer, as the query cache keeps it. */
export interface RenderedQuery {
  key: readonly unknown[];
  data: unknown;
  /** When the server had the answer (epoch ms): the cache's staleness counts from it. */
  updatedAt: number;
}

export interface ServerRenderData {
  version: typeof SERVER_RENDER_VERSION;
  /** The path the markup is of; the browser hydrates it only when its router lands on the same page. */
  path: string;
  queries: RenderedQuery[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isServerRenderData(value: unknown): value is ServerRenderData {
  return (
    isObject(value) &&
    value['version'] === SERVER_RENDER_VERSION &&
    typeof value['path'] === 'string' &&
    Array.isArray(value['queries']) &&
    value['queries'].every((query) => isObject(query) && Array.isArray(query['key']) && typeof query['updatedAt'] === 'number')
  );
}

/**
 * The server render's data block, taken out of the document, when #root holds the server's
 * markup for this very path; null otherwise (no server render: the page is rendered as before).
 */
export function takeServerRender(container: Element, doc: Document = document, location: Pick<Location, 'pathname'> = window.location): ServerRenderData | null {
  const element = doc.getElementById(SERVER_RENDER_ELEMENT_ID);
  if (!element) return null;
  element.remove();
  try {
    const value: unknown = JSON.parse(element.textContent ?? '');
    if (isServerRenderData(value) && value.path === location.pathname && container.firstElementChild !== null) return value;
  } catch (error) {
    console.warn('The server render’s data could not be read; rendering the page in the browser', error);
  }
  return null;
}

/** Puts the answers the server rendered with into the cache, as fresh as when the server had them. */
export function seedRenderedQueries(data: ServerRenderData, queryClient: QueryClient): void {
  for (const query of data.queries) queryClient.setQueryData(query.key, query.data, { updatedAt: query.updatedAt });
}
