import { pathTo } from '../../app/paths.ts';

export interface LocationParts {
  pathname: string;
  search: string;
  hash: string;
}

/**
 * `returnToSchema` of @minside/domain in plain code, so the entry chunk has no zod (ADR 020):
 * at most 2048 characters, one leading slash, not followed by another slash or a backslash.
 * The server checks the schema itself; return-target.test.ts holds the two to the same answers.
 */
const MAX_RETURN_TO_LENGTH = 2048;
const PATH_ON_THIS_SITE = /^\/(?![/\\])/;

/**
 * SPEC §8: the return target of a login is the current path, query and hash, or `/`. Only
 * a path on this site qualifies (the server checks the same rule), and never /callback:
 * coming back there would post a used code again.
 */
export function returnTargetOf(location: LocationParts | null | undefined): string {
  if (!location) return '/';
  if (location.pathname === pathTo('callback')) return '/';
  const target = `${location.pathname}${location.search}${location.hash}`;
  return target.length <= MAX_RETURN_TO_LENGTH && PATH_ON_THIS_SITE.test(target) ? target : '/';
}
