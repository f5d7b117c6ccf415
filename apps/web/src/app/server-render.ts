// docs/decisions/032: the server renders the public pages into #root, and puts what it rendered
// them with, beyond the bootstrap block (docs/decisions/022), into a second data block: the page it
// rendered, and the answers of the calls the page made (the FAQ, a terms text, the prices). The
// browser reads it once at start, puts the answers where the calls would, and hydrates the markup
// instead of rendering the page again. Shared by the server render (src/entry-server.tsx) and
// main.tsx; nothing here is server-only.

export const SERVER_RENDER_ELEMENT_ID = 'minside-server-render';
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
