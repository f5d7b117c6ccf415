import { returnToSchema } from '@minside/domain';
import { pathTo } from '../../app/paths.ts';

export interface LocationParts {
  pathname: string;
  search: string;
  hash: string;
}

/**
 * SPEC §8: the return target of a login is the current path, query and hash, or `/`. Only
 * a path on this site qualifies (the server checks the same schema), and never /callback:
 * coming back there would post a used code again.
 */
export function returnTargetOf(location: LocationParts | null | undefined): string {
  if (!location) return '/';
  if (location.pathname === pathTo('callback')) return '/';
  const target = `${location.pathname}${location.search}${location.hash}`;
  return returnToSchema.safeParse(target).success ? target : '/';
}
