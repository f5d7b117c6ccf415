import { EXPERIMENT_PARAMETER } from './experiments.ts';
import { trackingFields, utmParameters } from './tracking-object.ts';

/** The query parameters analytics and monitoring may see: the tracking object's, UTM and experiments. */
const shareableParameters = new Set<string>([...trackingFields, ...Object.keys(utmParameters), EXPERIMENT_PARAMETER]);

/**
 * A URL as it may leave the browser for a third party (analytics, RUM): only the parameters
 * above survive, and the fragment is dropped. Everything else can be a secret — pay-link,
 * invitation, winback and e-mail confirmation tokens, login codes — and is removed, not masked.
 * Path segments that are tokens (`/api/paylink/{token}`) are replaced too.
 */
export function shareableUrl(href: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return '';
  }
  for (const name of [...url.searchParams.keys()]) {
    if (!shareableParameters.has(name)) url.searchParams.delete(name);
  }
  url.hash = '';
  url.pathname = url.pathname.replace(/(\/api\/paylink\/)[^/]+/, '$1[token]');
  return url.toString();
}
