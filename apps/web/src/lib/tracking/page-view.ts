/** SPEC §4 step 6: a page view after each route, except on /callback (the login is being completed there). */
export function shouldTrackPageView(pathname: string): boolean {
  return pathname.replace(/\/+$/, '') !== '/callback';
}

/** SPEC §7: page views are tracked with the lowercased page type (the route's key, e.g. deliveryAddress → deliveryaddress). */
export function pageTypeOf(routeKey: string): string {
  return routeKey.toLowerCase();
}
