import { useSyncExternalStore } from 'react';

/** A minimal external store: one value, synchronous updates, React reads it with a selector. */
export interface Store<S> {
  getState(): S;
  setState(next: S | ((current: S) => S)): void;
  subscribe(listener: () => void): () => void;
  /**
   * The state a server render shows, and so the state the browser's first render (the hydration)
   * must show too: React's getServerSnapshot (docs/decisions/032). The store's own state when absent.
   */
  getServerState?(): S;
}

export function createStore<S>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    setState(next) {
      const value = typeof next === 'function' ? (next as (current: S) => S)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** Reads a slice of a store. The selector must return a primitive or a stable reference. */
export function useStore<S, T>(store: Pick<Store<S>, 'getState' | 'subscribe' | 'getServerState'>, selector: (state: S) => T): T {
  const read = () => selector(store.getState());
  const { getServerState } = store;
  return useSyncExternalStore(store.subscribe, read, getServerState ? () => selector(getServerState()) : read);
}
