import { matchPath } from '../lib/router/index.ts';
import type { BootstrapData } from '@minside/domain';
import type { SignedInSession } from '../features/auth/index.ts';
import { pages, type PageKey } from './paths.ts';

// docs/decisions/032, "Signed-in pages": what the server render (src/entry-server.tsx) renders for
// a page load with a session. Rendered per request with that request's session, the page's own
// calls made as the visitor (with their cookie, through the same checks as the browser's), and
// never kept: not in the server's store, not shared with a page load of the same address.

/**
 * The signed-in pages the server renders, for a visitor whose session the page load carries. Left
 * out: pages whose first render needs what only the browser has (sessionStorage: the order draft,
 * the payment keys of the provider returns, the receipts; the viewport: the invoice list's layout),
 * the login and its callback, the gateways that leave for the identity provider, the pages whose
 * first render depends on where the visitor came from (router state: the receipts, the confirmations),
 * and the pages with a date picker (React Aria's writes `style` attributes, which the page's CSP
 * refuses in markup: /leveringsadresse, /endre-avislevering). docs/decisions/032 has the list; each
 * page here has a line in e2e/tests/server-render.spec.ts (`signedInPages`).
 */
export const signedInServerPages = [
  'home',
  'contact',
  'editProfile',
  'myContent',
  'familySharing',
  'privacySettings',
  'changeSubscription',
  'cancelSubscription',
  'deliveryComplaint',
  'changePaymentMethod',
  'consent1',
  'consent2',
  'consent3',
  'undoCancellation',
] as const satisfies readonly PageKey[];

/**
 * The page the server renders at this path for this visitor: a public one for anybody, a signed-in
 * one only with a session (without one, its guard sends the browser to the login: not rendered).
 */
export function renderedPageFor(pathname: string, session: BootstrapData['session'], publicPages: readonly PageKey[]): PageKey | undefined {
  const candidates = session === null ? publicPages : [...publicPages, ...signedInServerPages];
  return candidates.find((key) => matchPath(pages[key].pattern, pathname) !== null);
}

/**
 * The guard's identity in a server render: the page load's own session, from its bootstrap block
 * (docs/decisions/022, read from the session store for this very request). It never starts a login:
 * the server cannot, so a page that would need one is not rendered (the guard fails; the browser does it).
 */
export function renderIdentity(session: SignedInSession | null) {
  return { checkSession: async () => session, login: async () => false };
}
