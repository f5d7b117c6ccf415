import type { QueryClient } from '../lib/query/index.ts';
import { BOOTSTRAP_ELEMENT_ID, BOOTSTRAP_VERSION, type BootstrapData } from '@minside/domain';
import type { IdentityClient } from '../features/auth/index.ts';
import { clientConfigQueryOptions } from '../features/privacy/index.ts';
import { maintenanceQueryOptions, titleCodeQueryOptions, titleQueryOptions } from '../features/titles/index.ts';

// docs/decisions/022: the server puts the answers of the first calls (title, maintenance,
// client config, session) into index.html as a JSON data block. Read once at start, they fill
// the caches those calls fill, so the first page renders without waiting on any of them.
// Without a usable block (Vite's dev server, a page from another version) the calls are made.

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Enough of the shape to trust the block: it comes from our own server, built from the same
 * schemas as the endpoints, so this only tells a block of this version for this site from
 * anything else (no schema library in the start-up bundle for it).
 */
function isBootstrapFor(value: unknown, host: string): value is BootstrapData {
  if (!isObject(value) || value['version'] !== BOOTSTRAP_VERSION || value['host'] !== host) return false;
  const { titleCode, title, maintenance, clientConfig, session } = value;
  return (
    typeof titleCode === 'string' &&
    isObject(title) &&
    typeof title['titleCode'] === 'string' &&
    title['titleCode'].toUpperCase() === titleCode.toUpperCase() &&
    isObject(maintenance) &&
    typeof maintenance['maintenance'] === 'boolean' &&
    isObject(clientConfig) &&
    isObject(clientConfig['consent']) &&
    (session === null || (isObject(session) && isObject(session['user'])))
  );
}

/**
 * The page's bootstrap block, taken out of the document (it holds the user's session; nothing
 * else needs it there), or null when there is none that fits this site.
 */
export function takeBootstrap(doc: Document = document, location: Pick<Location, 'host'> = window.location): BootstrapData | null {
  const element = doc.getElementById(BOOTSTRAP_ELEMENT_ID);
  if (!element) return null;
  element.remove();
  try {
    const value: unknown = JSON.parse(element.textContent ?? '');
    if (isBootstrapFor(value, location.host)) return value;
    console.warn('The page’s bootstrap data does not fit this site; asking the server instead');
  } catch (error) {
    console.warn('The page’s bootstrap data could not be read; asking the server instead', error);
  }
  return null;
}

/**
 * Puts the block's answers where the first calls would: the title code and title (as
 * resolveTitle keeps them), the maintenance status, the client config, and the session (as
 * the login check keeps it). Later refetches and checks go to the server as before.
 */
export function seedFromBootstrap(data: BootstrapData, queryClient: QueryClient, identity: Pick<IdentityClient, 'seed'>, location: Pick<Location, 'origin' | 'href'> = window.location): void {
  queryClient.setQueryData(titleCodeQueryOptions(location).queryKey, data.titleCode);
  queryClient.setQueryData(titleQueryOptions(data.titleCode).queryKey, data.title);
  queryClient.setQueryData(maintenanceQueryOptions(location).queryKey, data.maintenance);
  queryClient.setQueryData(clientConfigQueryOptions(data.title.titleCode).queryKey, data.clientConfig);
  identity.seed(data.session);
}

/** Reads the page's block once and seeds the caches with it; false when there was none to use. */
export function startFromBootstrap(queryClient: QueryClient, identity: Pick<IdentityClient, 'seed'>): boolean {
  const data = takeBootstrap();
  if (!data) return false;
  seedFromBootstrap(data, queryClient, identity);
  return true;
}
