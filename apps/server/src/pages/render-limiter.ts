import type { FastifyBaseLogger } from 'fastify';

/**
 * Renders made for one page load, and never kept, at most `max` at once (docs/decisions/032). Each
 * is the page's own API calls and Preact's render on the one event loop the API answers on too:
 * past a few at once, more only make every page load and every call wait longer. A page load
 * beyond the limit gets its page without markup, which the browser renders as it did before: a
 * peak degrades to the SPA, never to a queue.
 *
 * A render holds its place until it settles, also when its page load stopped waiting for it; one
 * that has not settled after `slotMs` gives its place back (and is logged), so renders that hang
 * cannot switch server rendering off for good.
 */
export interface RenderLimiter {
  /** Starts `render` when there is room, and returns it; undefined, without starting it, when there is none. */
  run<T>(render: () => Promise<T>): Promise<T> | undefined;
  /** Renders holding a place now. */
  readonly underWay: number;
}

export function createRenderLimiter({ max, slotMs, log }: { max: number; slotMs: number; log: FastifyBaseLogger }): RenderLimiter {
  let underWay = 0;
  return {
    get underWay() {
      return underWay;
    },
    run(render) {
      if (underWay >= max) {
        log.debug({ underWay }, 'a page goes without markup: as many renders as allowed are under way');
        return undefined;
      }
      underWay += 1;
      let held = true;
      const giveBack = () => {
        if (!held) return;
        held = false;
        underWay -= 1;
      };
      const deadline = setTimeout(() => {
        log.warn({ slotMs }, 'a server render has not finished in time: its place is given back');
        giveBack();
      }, slotMs);
      deadline.unref();
      // A render that throws before its first await still gives its place back.
      return Promise.resolve()
        .then(render)
        .finally(() => {
          clearTimeout(deadline);
          giveBack();
        });
    },
  };
}
