import { createKey, createPath, createRouter, type RouterHistory } from './router.ts';
import type { Location, RouteObject, Router, ScrollMemory } from './types.ts';

const SCROLL_STORAGE_KEY = 'minside-scroll-positions';

/** The element id a `#fragment` names; a malformed escape (`#%E0`) is taken as written, not thrown. */
function fragmentId(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

/**
 * The scroll position of each history entry, by its location key: back and forward return to it,
 * and a reload too (kept in sessionStorage when the page is left). The browser's own restoration is
 * off: it would restore before the page of the entry has loaded. The saved positions are read when
 * first needed, not at start-up, where opening sessionStorage is one of the dearest calls of the
 * page's first task (docs/performance.md); a page loaded into a new history entry has none.
 */
function createScrollMemory(currentKey: () => string, enteredNewEntry: boolean): ScrollMemory {
  let saved: Record<string, number> | undefined;
  let restoredOnce = false;
  const positions = (): Record<string, number> => {
    if (saved) return saved;
    try {
      saved = JSON.parse(sessionStorage.getItem(SCROLL_STORAGE_KEY) ?? '{}') as Record<string, number>;
    } catch {
      // Storage refused or garbled: start without saved positions.
      saved = {};
    }
    return saved;
  };
  window.history.scrollRestoration = 'manual';
  const save = (key: string) => void (positions()[key] = window.scrollY);
  window.addEventListener('pagehide', () => {
    save(currentKey());
    try {
      sessionStorage.setItem(SCROLL_STORAGE_KEY, JSON.stringify(positions()));
    } catch {
      // A full or refused storage only loses the positions.
    }
  });
  return {
    save,
    restore({ key, hash }, action, initial) {
      // The page load's own entry has no saved position when it is new; later restores (a remounted layout's too) may.
      const newEntry = enteredNewEntry && !restoredOnce;
      restoredOnce = true;
      const saved = action === 'POP' && !newEntry ? positions()[key] : undefined;
      if (saved !== undefined) return window.scrollTo(0, saved);
      const target = hash ? document.getElementById(fragmentId(hash)) : null;
      if (target) return target.scrollIntoView();
      // The first page stays where the browser has it (a server-rendered page may have been scrolled already).
      if (!initial) window.scrollTo(0, 0);
    },
  };
}

interface HistoryEntry {
  usr?: unknown;
  key?: string;
}

function browserHistory(): RouterHistory {
  // An entry the browser made itself (the first page load, a plain `#fragment` link) gets a key of
  // its own, so its scroll position is never another entry's.
  const keyEntry = () => {
    const entry = window.history.state as HistoryEntry | null;
    if (!entry?.key) window.history.replaceState({ ...entry, key: createKey() }, '');
  };
  keyEntry();
  const read = (): Location => {
    const { pathname, search, hash } = window.location;
    const entry = window.history.state as HistoryEntry | null;
    return { pathname, search, hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
  };
  const entryOf = ({ state, key }: Location): HistoryEntry => ({ usr: state, key });
  return {
    get location() {
      return read();
    },
    origin: window.location.origin,
    push(location) {
      try {
        window.history.pushState(entryOf(location), '', createPath(location));
      } catch {
        // Safari limits pushState calls; a page load still gets there.
        window.location.assign(createPath(location));
      }
    },
    replace: (location) => window.history.replaceState(entryOf(location), '', createPath(location)),
    listen: (onPop) =>
      window.addEventListener('popstate', () => {
        keyEntry();
        onPop(read());
      }),
    createHref: createPath,
  };
}

/** The app's router: the browser's address and history, links and back/forward, scroll restoration. Starts loading the current address at once. */
export function createBrowserRouter(routes: RouteObject[]): Router {
  const created: { router?: Router } = {};
  // Before browserHistory() gives the entry a key: an entry without one is new to this page.
  const enteredNewEntry = !(window.history.state as HistoryEntry | null)?.key;
  const scroll = createScrollMemory(() => created.router?.state.location.key ?? 'default', enteredNewEntry);
  created.router = createRouter(routes, browserHistory(), scroll);
  return created.router;
}
