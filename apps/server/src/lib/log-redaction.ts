/** Query parameters that carry tokens or one-time secrets: they must not end up in logs. */
const secretParameters = new Set(['code', 'state', 'id_token_hint', 'access_token', 'refresh_token', 'token', 'password']);
/** Path segments after which the next one is a bearer token: pay-links (`/api/paylink/{token}`). */
const tokenPathSegments = new Set(['paylink']);

/** A part of the URL as the router or the query parser reads it (percent-decoded), or as is when it does not decode. */
function decoded(part: string, plusIsSpace: boolean): string {
  try {
    return decodeURIComponent(plusIsSpace ? part.replaceAll('+', ' ') : part);
  } catch {
    return part;
  }
}

/**
 * The URL as a log may show it: secret parameter values and token path segments replaced. It
 * is read the way the router and the query parser read it (issue 20.1): `/%61pi/paylink/…` and
 * `?%63ode=…` are the pay-link and `code` they decode to. The rest keeps its spelling.
 */
export function redactUrl(url: string): string {
  const fragmentAt = url.indexOf('#');
  const fragment = fragmentAt === -1 ? '' : url.slice(fragmentAt);
  const withoutFragment = fragmentAt === -1 ? url : url.slice(0, fragmentAt);
  const queryAt = withoutFragment.indexOf('?');
  const path = queryAt === -1 ? withoutFragment : withoutFragment.slice(0, queryAt);
  const query = queryAt === -1 ? undefined : withoutFragment.slice(queryAt + 1);

  const segments = path.split('/');
  const redactedPath = segments
    .map((segment, index) => (index > 0 && segment !== '' && tokenPathSegments.has(decoded(segments[index - 1] ?? '', false).toLowerCase()) ? '[redacted]' : segment))
    .join('/');
  const redactedQuery = query
    ?.split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      return secretParameters.has(decoded(pair.slice(0, equals), true).toLowerCase()) ? `${pair.slice(0, equals)}=[redacted]` : pair;
    })
    .join('&');
  return `${redactedPath}${redactedQuery === undefined ? '' : `?${redactedQuery}`}${fragment}`;
}
