import { createElement, lazy, type ComponentType, type ReactNode } from 'react';

/** A lazily loaded component that can also be loaded ahead, and then renders without suspending. */
export interface Preloadable<P> {
  (props: P): ReactNode;
  /** Loads the component now; once it has, rendering it never suspends. */
  preload(): Promise<void>;
}

/**
 * `lazy`, plus `preload()`. React's lazy component suspends on its first render even when its
 * module is already there; a page the server rendered (docs/decisions/032) must not suspend while
 * it hydrates, or the part would be taken out of the page and put back. Preloaded before the
 * hydration (and before the server renders), this renders the loaded component directly.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  const Component = (props: P) => (loaded ? createElement(loaded, props) : createElement(Lazy as unknown as ComponentType<P>, props));
  return Object.assign(Component, { preload: () => start().then(() => undefined) });
}
