import type { RouteObject } from './types.ts';

export type Params = Record<string, string | undefined>;

export interface PathMatch {
  params: Params;
  /** The part of the pathname the pattern matched. */
  pathname: string;
  pattern: string;
}

interface CompiledPath {
  regexp: RegExp;
  keys: string[];
}

const compiled = new Map<string, CompiledPath>();

/**
 * React Router's pattern language, the part the route table uses: static segments, `:param`,
 * `:param?` and a trailing `*`. Like React Router, case-insensitive, and a trailing slash is allowed.
 */
function compile(pattern: string): CompiledPath {
  let found = compiled.get(pattern);
  if (found) return found;
  const keys: string[] = [];
  let source = '';
  for (const segment of pattern.split('/').filter(Boolean)) {
    const param = /^:([\w-]+)(\?)?$/.exec(segment);
    if (segment === '*') {
      keys.push('*');
      source += '(?:\\/(.+)|\\/*)';
    } else if (param) {
      keys.push(param[1]!);
      source += param[2] ? '(?:\\/([^\\/]+))?' : '\\/([^\\/]+)';
    } else {
      source += '\\/' + segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  found = { regexp: new RegExp(`^${source}\\/*$`, 'i'), keys };
  compiled.set(pattern, found);
  return found;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The params of `pathname` under `pattern`, or null when it does not match (React Router's `matchPath` for a string pattern). */
export function matchPath(pattern: string, pathname: string): PathMatch | null {
  // Most patterns fail on their static segments ('/faktura' of '/faktura/:id'; '/ferie/:id?' also
  // matches '/ferie'), checked before a RegExp is compiled for them: the page load matches its
  // address against every route. The segments as `compile` reads them; the route table is ASCII.
  let head = '';
  for (const segment of pattern.toLowerCase().split('/')) {
    if (segment[0] === ':' || segment === '*') break;
    if (segment) head += `/${segment}`;
  }
  if (!pathname.toLowerCase().startsWith(head)) return null;
  const { regexp, keys } = compile(pattern);
  const match = regexp.exec(pathname);
  if (!match) return null;
  const params: Params = {};
  keys.forEach((key, index) => {
    const value = match[index + 1];
    params[key] = value === undefined ? undefined : decode(value);
  });
  return { params, pathname: match[0], pattern };
}

/** The path of `pattern` with its params filled in, each encoded (React Router's `generatePath`). */
export function generatePath(pattern: string, params: Params = {}): string {
  const path = pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') return params['*'] ?? '';
      const param = /^:([\w-]+)(\?)?$/.exec(segment);
      if (!param) return segment;
      const value = params[param[1]!];
      if (value === undefined && !param[2]) throw new Error(`Missing ":${param[1]}" param`);
      return value === undefined ? '' : encodeURIComponent(value);
    })
    .filter(Boolean)
    .join('/');
  return pattern.startsWith('/') ? `/${path}` : path;
}

/** One route in the table with its ancestors and its full pattern. */
export interface Branch {
  routes: RouteObject[];
  pattern: string;
  score: number;
}

/** React Router's ranking: static segments beat params, params beat a splat; equal scores keep the table's order. */
function scoreOf(pattern: string): number {
  const segments = pattern.split('/').filter(Boolean);
  return segments.reduce((score, segment) => score + (segment === '*' ? -2 : segment.startsWith(':') ? 3 : 10), segments.length);
}

function join(parent: string, path: string | undefined): string {
  if (path === undefined) return parent;
  return path.startsWith('/') ? path : `${parent.replace(/\/$/, '')}/${path}`;
}

/**
 * Every route that can end a match, leaves first, ranked. A route without a path is a layout: it
 * matches through its children. Routes without an id get one from their position, as React Router's.
 */
export function flattenRoutes(routes: RouteObject[], parents: RouteObject[] = [], parentPattern = '', parentId = ''): Branch[] {
  const branches: Branch[] = [];
  routes.forEach((route, index) => {
    route.id ??= parentId ? `${parentId}-${index}` : String(index);
    const pattern = join(parentPattern, route.path);
    const chain = [...parents, route];
    if (route.children) branches.push(...flattenRoutes(route.children, chain, pattern, route.id));
    if (route.path !== undefined) branches.push({ routes: chain, pattern: pattern || '/', score: scoreOf(pattern) });
  });
  return parents.length === 0
    ? branches
        .map((branch, order) => ({ branch, order }))
        .sort((a, b) => b.branch.score - a.branch.score || a.order - b.order)
        .map(({ branch }) => branch)
    : branches;
}

/** A matched route with the params of the whole match and its `handle`: what `useMatches` gives. */
export interface RouteMatch {
  id: string;
  route: RouteObject;
  pathname: string;
  params: Params;
  handle: unknown;
}

/** The routes, outermost first, that render `pathname`; empty when none does. */
export function matchRoutes(branches: Branch[], pathname: string): RouteMatch[] {
  for (const branch of branches) {
    const match = matchPath(branch.pattern, pathname);
    if (match) return branch.routes.map((route) => ({ id: route.id!, route, pathname: match.pathname, params: match.params, handle: route.handle }));
  }
  return [];
}
