/**
 * Sends the browser to the payment provider's hosted page. Only http(s) URLs: the URL comes
 * from our server, but a `javascript:` URL must never be followed whatever its source.
 */
export function goToProvider(redirectUrl: string, location: Pick<Location, 'assign' | 'origin'> = window.location): void {
  const url = new URL(redirectUrl, location.origin);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Not a provider URL: ${url.protocol}`);
  // Back from the provider with the browser's Back button, a page restored from the
  // back-forward cache would still show "Sender deg til …" with its buttons disabled: load it afresh.
  if (typeof window !== 'undefined') {
    window.addEventListener(
      'pageshow',
      (event) => {
        if (event.persisted) window.location.reload();
      },
      { once: true },
    );
  }
  location.assign(url.href);
}
