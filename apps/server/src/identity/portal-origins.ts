import type { Catalogue, PublicationConfig } from '@minside/titles';

/**
 * Where the embedded provider may send a browser back to. The relying party runs on every
 * title's own host (`https://minside.<baseUrl>`, or `<publication>.localhost` in
 * development), so ~60 origins times every dev port: a rule instead of a registered list.
 */
type TitleHosts = Pick<PublicationConfig, 'publication' | 'baseUrl'>;

export interface RedirectPolicy<Title extends TitleHosts = PublicationConfig> {
  /** An authorization `redirect_uri`: an allowed origin and the path exactly `/callback`. */
  redirectUriAllowed(uri: string): boolean;
  /** A `post_logout_redirect_uri`: any path on an allowed origin. */
  postLogoutRedirectUriAllowed(uri: string): boolean;
  /** The offered title a URI belongs to, for branding the login page; undefined for other hosts. */
  titleOf(uri: string): Title | undefined;
  /** Whether the portal serves this origin (`scheme://host[:port]`): the relying party refuses others. */
  originAllowed(origin: string): boolean;
}

export interface RedirectPolicyInput<Title extends TitleHosts> {
  /** PUBLIC_URL: its origin is always allowed. */
  publicUrl: string | undefined;
  /** The offered titles only: an excluded title has no Min Side to return to. */
  titles: readonly Title[];
  /**
   * Loopback and `*.localhost` origins. Default: only when PUBLIC_URL is not https, so a
   * production deployment never sends a code to whatever listens on a visitor's loopback.
   */
  allowDevelopmentHosts?: boolean;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1']);
const devSuffix = '.localhost';

function parse(uri: string): URL | undefined {
  if (typeof uri !== 'string' || !URL.canParse(uri)) return undefined;
  const url = new URL(uri);
  // Credentials or a fragment in a redirect target are never legitimate here.
  if (url.username || url.password || url.hash || uri.includes('#')) return undefined;
  return url;
}

export function createRedirectPolicy<Title extends TitleHosts>(input: RedirectPolicyInput<Title>): RedirectPolicy<Title> {
  const publicOrigin = input.publicUrl && URL.canParse(input.publicUrl) ? new URL(input.publicUrl).origin : undefined;
  const byProductionHost = new Map(input.titles.map((title) => [`minside.${title.baseUrl.toLowerCase()}`, title]));
  const byDevHost = new Map(input.titles.map((title) => [`${title.publication.toLowerCase()}${devSuffix}`, title]));
  const allowDevelopmentHosts = input.allowDevelopmentHosts ?? !input.publicUrl?.startsWith('https://');

  /** The title behind an allowed origin, `null` for an allowed origin of no title, undefined when not allowed. */
  function classify(url: URL): Title | null | undefined {
    if (url.protocol === 'https:' && url.port === '') {
      const title = byProductionHost.get(url.hostname);
      if (title) return title;
    }
    if (url.protocol === 'http:' && allowDevelopmentHosts) {
      if (loopbackHosts.has(url.hostname)) return null;
      const title = byDevHost.get(url.hostname);
      if (title) return title;
    }
    if (publicOrigin !== undefined && url.origin === publicOrigin) return null;
    return undefined;
  }

  return {
    redirectUriAllowed(uri) {
      const url = parse(uri);
      return url !== undefined && url.pathname === '/callback' && url.search === '' && classify(url) !== undefined;
    },
    postLogoutRedirectUriAllowed(uri) {
      const url = parse(uri);
      return url !== undefined && classify(url) !== undefined;
    },
    titleOf(uri) {
      const url = parse(uri);
      return (url && classify(url)) ?? undefined;
    },
    originAllowed(origin) {
      const url = parse(origin);
      return url !== undefined && url.origin === origin && classify(url) !== undefined;
    },
  };
}

export function redirectPolicyFor(publicUrl: string | undefined, catalogue: Catalogue): RedirectPolicy {
  return createRedirectPolicy({ publicUrl, titles: catalogue.offered() });
}
