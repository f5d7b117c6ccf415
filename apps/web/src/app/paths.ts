import type { ComponentType } from 'react';
import { generatePath, matchPath } from '../lib/router/index.ts';

/**
 * The route table of SPEC §2: every path of the product, once, with its meta, its Norwegian
 * page title, and the feature area that owns its page (each page's purpose is in
 * route-purposes.ts, out of this table, which every page loads). routes.tsx builds the router
 * from this table; links build URLs with `pathTo`. This module imports nothing from
 * the app or the features, so any layer may read it.
 */

export const areas = ['titles', 'auth', 'subscription', 'profile', 'delivery', 'billing', 'ordering', 'family', 'business', 'student', 'privacy', 'support'] as const;
export type Area = (typeof areas)[number];

/** SPEC §2 route meta. `isMaintenance` is a flag that is currently off on every route. */
export interface RouteMeta {
  requiresAuth: boolean;
  requiresSubscription: boolean;
  isMaintenance: false;
}

export interface PageRoute {
  kind: 'page';
  /**
   * A path pattern (lib/router: static segments, `:param`, `:param?`, `*`). `{identityProvider}` stands for the identity provider's
   * name (SPEC §2 gateway routes); see `resolvePattern`.
   */
  pattern: string;
  area: Area;
  meta: RouteMeta;
  /** Norwegian page title (the page's h1). */
  title: string;
}

export interface RedirectRoute {
  kind: 'redirect';
  pattern: string;
  /** Key of the page this path redirects to. */
  to: PageKey;
}

const open: RouteMeta = { requiresAuth: false, requiresSubscription: false, isMaintenance: false };
const auth: RouteMeta = { requiresAuth: true, requiresSubscription: false, isMaintenance: false };
const subscriber: RouteMeta = { requiresAuth: true, requiresSubscription: true, isMaintenance: false };
/**
 * SPEC §2 does not state the access of the two purchase-completion routes and the
 * purchase-error route. The source declared no meta for them, which makes them public; the
 * payment provider sends the buyer back here, and the server re-checks the session anyway.
 */
const notStated: RouteMeta = open;

function page(pattern: string, area: Area, meta: RouteMeta, title: string): PageRoute {
  return { kind: 'page', pattern, area, meta, title };
}

export const IDENTITY_PROVIDER_TOKEN = '{identityProvider}';

export const pages = {
  home: page('/', 'subscription', subscriber, 'Min Side'),
  callback: page('/callback', 'auth', open, 'Logger inn'),
  login: page('/logg-inn', 'auth', open, 'Logg inn'),
  orderSubscription: page('/bestill-abonnement', 'ordering', auth, 'Bestill abonnement'),
  winback: page('/winback', 'ordering', open, 'Velkommen tilbake'),
  orderFailed: page('/bestilling-feilet', 'ordering', auth, 'Bestillingen feilet'),
  completePurchase: page('/completepurchase', 'ordering', notStated, 'Fullfører kjøpet'),
  completeVippsPurchase: page('/completevippspurchase', 'ordering', notStated, 'Fullfører kjøpet'),
  purchaseError: page('/feil-kjop', 'ordering', notStated, 'Kjøp feilet'),
  noSubscription: page('/ingen-abonnement', 'ordering', auth, 'Ingen abonnement'),
  receipt: page('/kvittering', 'ordering', subscriber, 'Kvittering'),
  withdrawal: page('/angre-kjop', 'ordering', subscriber, 'Angre kjøpet'),
  deliveryAddress: page('/leveringsadresse', 'delivery', subscriber, 'Leveringsadresse'),
  contact: page('/kontakt', 'profile', subscriber, 'Kontaktinformasjon'),
  customerService: page('/kundeservice', 'support', open, 'Kundeservice'),
  familySharing: page('/familiedeling', 'family', subscriber, 'Familiedeling'),
  verifyFamilyMember: page('/verifiser-familiemedlem', 'family', auth, 'Bekreft familiedeling'),
  familyShareAccepted: page('/deling-akseptert', 'family', subscriber, 'Deling akseptert'),
  deliveryComplaint: page('/tilbakemelding', 'delivery', subscriber, 'Meld fra om levering'),
  connectSubscription: page('/koble-bruker', 'ordering', auth, 'Koble til abonnement'),
  alreadySubscriber: page('/allerede-abonnent', 'ordering', subscriber, 'Du er allerede abonnent'),
  changePaymentMethod: page('/endre-betalingsmetode', 'billing', subscriber, 'Endre betalingsmetode'),
  changePaymentMethodVerify: page('/endre-betalingsmetode/verify', 'billing', subscriber, 'Bekrefter betalingsmetode'),
  student: page('/student', 'student', open, 'Student'),
  studentVerification: page('/student-verifisering', 'student', auth, 'Bekreft at du er student'),
  studentReceipt: page('/student-kvittering', 'student', subscriber, 'Studentabonnementet er klart'),
  business: page('/bedrift', 'business', auth, 'Bedriftsabonnement'),
  businessAdmin: page('/administrer-bedrift', 'business', subscriber, 'Administrer bedriftsabonnement'),
  addPaymentCard: page('/legg-til-betalingskort', 'billing', subscriber, 'Legg til betalingskort'),
  addPaymentCardVerify: page('/legg-til-betalingskort/verify', 'billing', subscriber, 'Bekrefter betalingskort'),
  deliveryChange: page('/endre-avislevering', 'delivery', subscriber, 'Ferie og leveringsendring'),
  payment: page('/betaling', 'billing', open, 'Betaling'),
  cancelOrder: page('/avbryt-bestilling', 'ordering', open, 'Kjøpet ditt ble avbrutt'),
  invoiceOverview: page('/fakturaoversikt', 'billing', subscriber, 'Fakturaoversikt'),
  newPrices: page('/nye-priser', 'billing', open, 'Nye priser'),
  payInvoice: page('/betal-faktura/:ariaInvoiceNo', 'billing', subscriber, 'Betal faktura'),
  editProfile: page('/endre-profil', 'profile', subscriber, 'Endre profil'),
  changeSubscription: page('/endre-abonnement', 'subscription', subscriber, 'Endre abonnement'),
  changeSubscriptionReceipt: page('/receipt2', 'subscription', open, 'Abonnementet er endret'),
  cancelSubscription: page('/avslutt-abonnement', 'subscription', subscriber, 'Avslutt abonnement'),
  subscriptionCancelled: page('/abonnement-avsluttet', 'subscription', subscriber, 'Abonnementet er sagt opp'),
  subscriptionReactivated: page('/abonnement-reaktivert', 'subscription', subscriber, 'Abonnementet fortsetter'),
  undoCancellation: page('/angre-oppsigelse', 'subscription', subscriber, 'Angre oppsigelse'),
  dataTakeout: page(`/${IDENTITY_PROVIDER_TOKEN}TakeoutGateway`, 'privacy', subscriber, 'Last ned dataene dine'),
  accountDeletion: page(`/${IDENTITY_PROVIDER_TOKEN}DeleteGateway`, 'privacy', subscriber, 'Slett kontoen din'),
  terms: page('/vilkaar', 'privacy', open, 'Vilkår'),
  businessTerms: page('/vilkaar/bedrift', 'privacy', open, 'Vilkår for bedrifter'),
  moreTerms: page('/vilkaar-mer', 'privacy', open, 'Flere vilkår'),
  data: page('/data', 'privacy', open, 'Dine data'),
  privacy: page('/personvern', 'privacy', open, 'Personvern'),
  cookiePolicy: page('/cookie-policy', 'privacy', open, 'Informasjonskapsler'),
  privacyDetails: page('/personverndetaljer', 'privacy', open, 'Personverndetaljer'),
  privacySettings: page('/personverninnstillinger', 'privacy', auth, 'Personverninnstillinger'),
  consent1: page('/samtykke1', 'privacy', subscriber, 'Samtykke'),
  consent2: page('/samtykke2', 'privacy', subscriber, 'Samtykke'),
  consent3: page('/samtykke3', 'privacy', subscriber, 'Samtykke'),
  myContent: page('/mitt-innhold', 'subscription', subscriber, 'Mitt innhold'),
  maintenance: page('/maintenance', 'titles', open, 'Min Side er midlertidig utilgjengelig'),
  notFound: page('/404', 'support', open, 'Fant ikke siden'),
} as const satisfies Record<string, PageRoute>;

export type PageKey = keyof typeof pages;

/** The page keys owned by one area: each area's routes.ts must provide exactly these. */
export type PageKeyOf<A extends Area> = { [K in PageKey]: (typeof pages)[K]['area'] extends A ? K : never }[PageKey];

/**
 * What an area's routes.ts provides for each of its pages: the lazily loaded part of a route.
 * `load` splits a page off its area's chunk when it needs code the area's other pages do not
 * (the forms and react-hook-form), so that `/` does not download it (docs/performance.md).
 */
export type RouteModule = { Component: ComponentType } | { load: () => Promise<ComponentType> };

/** An area's route modules: exactly one per page the table gives that area. */
export type AreaRoutes<A extends Area> = Record<PageKeyOf<A>, RouteModule>;

export const redirects = {
  orderTimeout: { kind: 'redirect', pattern: '/order-timeout', to: 'orderFailed' },
} as const satisfies Record<string, RedirectRoute>;

/** Where every path that is in neither table goes (SPEC §2: a real redirect, the URL becomes /404). */
export const unknownPathTarget: PageKey = 'notFound';

/** The path pattern with the identity provider's name filled in (gateway routes). */
export function resolvePattern(pattern: string, identityProviderName: string): string {
  return pattern.replace(IDENTITY_PROVIDER_TOKEN, identityProviderName);
}

type StaticPageKey = { [K in PageKey]: (typeof pages)[K]['pattern'] extends `${string}:${string}` | `${string}{${string}` ? never : K }[PageKey];

/** URL of a page without parameters: `pathTo('customerService')` → "/kundeservice". */
export function pathTo(key: StaticPageKey): string;
/** URL of the invoice payment page: `pathTo('payInvoice', { ariaInvoiceNo })`. */
export function pathTo(key: 'payInvoice', params: { ariaInvoiceNo: string }): string;
export function pathTo(key: PageKey, params?: Record<string, string>): string {
  return generatePath(pages[key].pattern, params);
}

/**
 * Whether `pathname` is a page anyone may see without logging in: a place to go back to when
 * a login is cancelled (a protected page would only start the login again).
 */
export function isPublicPath(pathname: string): boolean {
  return Object.values(pages).some((page) => !page.meta.requiresAuth && page.pattern !== pages.callback.pattern && matchPath(page.pattern, pathname) !== null);
}

/** URL of a gateway page (SPEC §2: the identity provider's name + TakeoutGateway / DeleteGateway). */
export function gatewayPath(key: 'dataTakeout' | 'accountDeletion', identityProviderName: string): string {
  return resolvePattern(pages[key].pattern, identityProviderName);
}
