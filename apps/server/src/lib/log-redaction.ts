/** Query parameters that carry tokens or one-time secrets: they must not end up in logs. */
const secretParameters = /([?&](?:code|state|id_token_hint|access_token|refresh_token|token|password)=)[^&#]*/gi;

/** The URL as a log may show it: secret parameter values replaced. */
export function redactUrl(url: string): string {
  return url.replace(secretParameters, '$1[redacted]');
}
