import type { Catalogue, PublicationConfig } from './types.ts';

export interface ResolveOptions {
  /**
   * Honour `?title=CODE`. Only for development hosts: in production the host alone decides,
   * so a shared link cannot re-brand another title's my page.
   */
  allowQueryOverride: boolean;
}

const productionHostPrefix = 'minside.';
const localHostSuffix = '.localhost';

/** The title's domain, e.g. "adressa.no"; also the key of its logo and root CSS class. */
export function titleDomainOf(config: Pick<PublicationConfig, 'baseUrl'>): string {
  return config.baseUrl;
}

/** Where the server serves the title's generated SVG wordmark. */
export function logoPathOf(config: Pick<PublicationConfig, 'baseUrl'>): string {
  return `/logos/${titleDomainOf(config)}.svg`;
}

function offeredCode(entry: PublicationConfig | undefined): string | undefined {
  return entry && !entry.excluded ? entry.titleCode : undefined;
}

/**
 * Maps a my-page URL to the title code it belongs to:
 * - `?title=CODE` (any case) when `allowQueryOverride` is set. A present, non-empty parameter
 *   decides alone: an unknown or excluded code gives undefined rather than silently
 *   falling through to the host's title.
 * - `minside.{baseUrl}` (production), e.g. https://minside.adressa.no/ → ADR.
 * - `{publication}.localhost[:port]` (local development), e.g. http://varden.localhost:3000 → VAR.
 *
 * Excluded titles never resolve. Unknown hosts and malformed URLs give undefined; this never throws.
 */
export function resolveTitleCode(catalogue: Catalogue, url: string, options: ResolveOptions): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }

  if (options.allowQueryOverride) {
    const requested = parsed.searchParams.get('title')?.trim();
    if (requested) return offeredCode(catalogue.findByTitleCode(requested));
  }

  // URL lower-cases the host already; a trailing dot is a valid but unusual spelling of the same host.
  const hostname = parsed.hostname.replace(/\.$/, '');

  if (hostname.endsWith(localHostSuffix)) {
    const publication = hostname.slice(0, -localHostSuffix.length);
    return publication.includes('.') ? undefined : offeredCode(catalogue.byPublication(publication));
  }

  if (hostname.startsWith(productionHostPrefix)) {
    const domain = hostname.slice(productionHostPrefix.length);
    return offeredCode(catalogue.offered().find((entry) => titleDomainOf(entry) === domain));
  }

  return undefined;
}
