import type { ComponentType, ReactNode } from 'react';
import type { Params, RouteMatch } from './match.ts';

interface LoaderFunctionArgs {
  /** The URL being loaded, without its hash (as React Router's); aborted when the navigation is superseded. */
  request: Request;
  params: Params;
}

/** Returns anything, or returns or throws a `redirect(...)`; its value itself is not kept (no page reads it). */
export type LoaderFunction = (args: LoaderFunctionArgs) => unknown;

/** What a route's `lazy` adds to it once loaded. */
type LazyRouteProps = Pick<RouteObject, 'Component' | 'element' | 'ErrorBoundary'>;

export interface RouteObject {
  id?: string;
  path?: string;
  handle?: unknown;
  loader?: LoaderFunction;
  /** Loaded with the route's loader, before the route renders; its result is kept on the route. */
  lazy?: () => Promise<LazyRouteProps>;
  Component?: ComponentType | null;
  element?: ReactNode;
  /** Shown in the route's place when its loader, its lazy module or its render fails. */
  ErrorBoundary?: ComponentType;
  /** Shown until the first load has finished (only the outermost route's is used). */
  HydrateFallback?: ComponentType;
  children?: RouteObject[];
}

export type HistoryAction = 'POP' | 'PUSH' | 'REPLACE';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  /** New on every navigation; kept by the history entry (the browser's across reloads). */
  key: string;
}

export interface Navigation {
  state: 'idle' | 'loading';
  /** The location being loaded, while loading. */
  location?: Location;
}

export interface RouterState {
  /** False until the first location has loaded (its loaders and lazy modules). */
  initialized: boolean;
  historyAction: HistoryAction;
  location: Location;
  matches: RouteMatch[];
  navigation: Navigation;
  /** Errors by the id of the route whose ErrorBoundary shows them. */
  errors: Record<string, unknown> | null;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

/** Restores scroll positions (the browser router's; scroll.ts). */
export interface ScrollMemory {
  save(key: string): void;
  restore(location: Location, action: HistoryAction, initial: boolean): void;
}

export interface Router {
  readonly routes: RouteObject[];
  readonly state: RouterState;
  subscribe(listener: (state: RouterState) => void): () => void;
  navigate(to: string, options?: NavigateOptions): Promise<void>;
  /** The href of a link to `to`. */
  createHref(to: string): string;
  scroll?: ScrollMemory;
}
