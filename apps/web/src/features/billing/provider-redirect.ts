/**
 * Sends the browser to the payment provider's hosted page. Only http(s) URLs: the URL comes
 * from our server, but a `javascript:` URL must never be followed whatever its source.
 */
export function goToProvider(redirectUrl: string, location: Pick<Location, 'assign' | 'origin'> = window.location): void {
  const url = new URL(redirectUrl, location.origin);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Not a provider URL: ${url.protocol}`);
  location.assign(url.href);
}
