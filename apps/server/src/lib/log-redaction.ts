/** Query parameters that carry tokens or one-time secrets: they must not end up in logs. */
const secretParameters = /([?&](?:code|state|id_token_hint|access_token|refresh_token|token|password)=)[^&#]*/gi;
/** Path segments that are bearer tokens: pay-links (`/api/paylink/{token}`). */
const secretPathSegments = /(\/api\/paylink\/)[^/?#]+/gi;

/** The URL as a log may show it: secret parameter values and token path segments replaced. */
export function redactUrl(url: string): string {
  return url.replace(secretPathSegments, '$1[redacted]').replace(secretParameters, '$1[redacted]');
}
