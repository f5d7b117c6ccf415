import type { ComponentType } from 'react';
import { generatePath, matchPath } from '../lib/router/index.ts';

/**
 * The route table of SPEC §2: every path of the product, once, with its meta, its Norwegian
 * page title and purpose, and the feature area that owns its page. routes.tsx builds the
 * router from this table; links build URLs with `pathTo`. This module imports nothing from
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
  /** What the page is for, in Norwegian (SPEC §2 purpose). */
  purpose: string;
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

function page(pattern: string, area: Area, meta: RouteMeta, title: string, purpose: string): PageRoute {
  return { kind: 'page', pattern, area, meta, title, purpose };
}

export const IDENTITY_PROVIDER_TOKEN = '{identityProvider}';

export const pages = {
  home: page('/', 'subscription', subscriber, 'Min Side', 'Oversikt over abonnementet ditt, med snarveier til det du kan ordne selv.'),
  callback: page('/callback', 'auth', open, 'Logger inn', 'Fullfører innloggingen når du kommer tilbake fra innloggingstjenesten.'),
  login: page('/logg-inn', 'auth', open, 'Logg inn', 'Velg hvordan du vil logge inn: med e-post og passord eller med Vipps.'),
  orderSubscription: page('/bestill-abonnement', 'ordering', auth, 'Bestill abonnement', 'Her starter du bestillingen av et nytt abonnement.'),
  winback: page('/winback', 'ordering', open, 'Velkommen tilbake', 'Et tilbud til deg som har vært abonnent før: 3 måneder for prisen av 1.'),
  orderFailed: page('/bestilling-feilet', 'ordering', auth, 'Bestillingen feilet', 'Bestillingen kunne ikke fullføres, eller det tok for lang tid. Her kan du prøve på nytt.'),
  completePurchase: page('/completepurchase', 'ordering', notStated, 'Fullfører kjøpet', 'Fullfører kjøpet etter at du har betalt med kort.'),
  completeVippsPurchase: page('/completevippspurchase', 'ordering', notStated, 'Fullfører kjøpet', 'Fullfører kjøpet etter at du har betalt med Vipps.'),
  purchaseError: page('/feil-kjop', 'ordering', notStated, 'Kjøp feilet', 'Det oppstod en uventet feil under kjøpet. Her kan du prøve igjen eller kontakte kundeservice.'),
  noSubscription: page(
    '/ingen-abonnement',
    'ordering',
    auth,
    'Ingen abonnement',
    'Du er logget inn, men har ikke et aktivt abonnement. Her finner du tilbud og kan koble til et abonnement du allerede har.',
  ),
  receipt: page('/kvittering', 'ordering', subscriber, 'Kvittering', 'Kvittering for bestillingen din.'),
  withdrawal: page('/angre-kjop', 'ordering', subscriber, 'Angre kjøpet', 'Bruk angreretten: gå fra avtalen innen 14 dager etter at du kjøpte abonnementet på nett, og få pengene tilbake.'),
  deliveryAddress: page('/leveringsadresse', 'delivery', subscriber, 'Leveringsadresse', 'Se og endre adressen avisen leveres til.'),
  contact: page('/kontakt', 'profile', subscriber, 'Kontaktinformasjon', 'Kontaktinformasjonen din og hvem du deler abonnementet med.'),
  customerService: page('/kundeservice', 'support', open, 'Kundeservice', 'Svar på vanlige spørsmål og kontaktinformasjon til kundeservice.'),
  familySharing: page('/familiedeling', 'family', subscriber, 'Familiedeling', 'Del den digitale tilgangen gratis med dem du bor sammen med.'),
  verifyFamilyMember: page('/verifiser-familiemedlem', 'family', auth, 'Bekreft familiedeling', 'Bekreft invitasjonen du har fått til å dele et abonnement.'),
  familyShareAccepted: page('/deling-akseptert', 'family', subscriber, 'Deling akseptert', 'Du har fått tilgang gjennom familiedeling.'),
  deliveryComplaint: page('/tilbakemelding', 'delivery', subscriber, 'Meld fra om levering', 'Gi beskjed hvis avisen ikke kom, kom for sent eller var skadet.'),
  connectSubscription: page('/koble-bruker', 'ordering', auth, 'Koble til abonnement', 'Finn abonnementet ditt og koble det til brukeren din.'),
  alreadySubscriber: page('/allerede-abonnent', 'ordering', subscriber, 'Du er allerede abonnent', 'Du har allerede et aktivt abonnement, så du trenger ikke kjøpe et nytt.'),
  changePaymentMethod: page('/endre-betalingsmetode', 'billing', subscriber, 'Endre betalingsmetode', 'Bytt hvordan du betaler for abonnementet.'),
  changePaymentMethodVerify: page('/endre-betalingsmetode/verify', 'billing', subscriber, 'Bekrefter betalingsmetode', 'Bekrefter den nye betalingsmetoden når betalingstjenesten har godkjent den.'),
  student: page('/student', 'student', open, 'Student', 'Informasjon om abonnement for studenter.'),
  studentVerification: page('/student-verifisering', 'student', auth, 'Bekreft at du er student', 'Bekreft studentstatusen din med studentens e-postadresse og en kode vi sender deg.'),
  studentReceipt: page('/student-kvittering', 'student', subscriber, 'Studentabonnementet er klart', 'Bekreftelse på studentabonnementet ditt.'),
  business: page('/bedrift', 'business', auth, 'Bedriftsabonnement', 'Bekreft tilgangen din til bedriftens abonnement med jobb-e-postadressen din.'),
  businessAdmin: page('/administrer-bedrift', 'business', subscriber, 'Administrer bedriftsabonnement', 'Inviter ansatte og fjern tilganger i bedriftens abonnement.'),
  addPaymentCard: page('/legg-til-betalingskort', 'billing', subscriber, 'Legg til betalingskort', 'Registrer et nytt betalingskort for abonnementet.'),
  addPaymentCardVerify: page('/legg-til-betalingskort/verify', 'billing', subscriber, 'Bekrefter betalingskort', 'Bekrefter det nye betalingskortet når betalingstjenesten har godkjent det.'),
  deliveryChange: page('/endre-avislevering', 'delivery', subscriber, 'Ferie og leveringsendring', 'Stopp avisen eller send den til en annen adresse i ferien, eller endre leveringen for godt.'),
  payment: page('/betaling', 'billing', open, 'Betaling', 'Betal for abonnementet ditt.'),
  cancelOrder: page('/avbryt-bestilling', 'ordering', open, 'Kjøpet ditt ble avbrutt', 'Bestillingen ble avbrutt før den var fullført. Du kan prøve på nytt.'),
  invoiceOverview: page('/fakturaoversikt', 'billing', subscriber, 'Fakturaoversikt', 'Se fakturaene dine, hva som er betalt og hva som gjenstår.'),
  newPrices: page('/nye-priser', 'billing', open, 'Nye priser', 'Informasjon om nye priser på abonnementet.'),
  payInvoice: page('/betal-faktura/:ariaInvoiceNo', 'billing', subscriber, 'Betal faktura', 'Betal en faktura.'),
  editProfile: page('/endre-profil', 'profile', subscriber, 'Endre profil', 'Endre navn, telefonnummer, fødselsdato og e-postadresse.'),
  changeSubscription: page('/endre-abonnement', 'subscription', subscriber, 'Endre abonnement', 'Bytt til et annet abonnement eller en annen betalingsperiode.'),
  changeSubscriptionReceipt: page('/receipt2', 'subscription', open, 'Abonnementet er endret', 'Kvittering for endringen av abonnementet.'),
  cancelSubscription: page('/avslutt-abonnement', 'subscription', subscriber, 'Avslutt abonnement', 'Si opp abonnementet. Det løper ut perioden du har betalt for.'),
  subscriptionCancelled: page('/abonnement-avsluttet', 'subscription', subscriber, 'Abonnementet er sagt opp', 'Bekreftelse på oppsigelsen og datoen abonnementet løper ut.'),
  subscriptionReactivated: page('/abonnement-reaktivert', 'subscription', subscriber, 'Abonnementet fortsetter', 'Bekreftelse på at abonnementet ditt er startet igjen.'),
  undoCancellation: page('/angre-oppsigelse', 'subscription', subscriber, 'Angre oppsigelse', 'Angre oppsigelsen, så fortsetter abonnementet som før.'),
  dataTakeout: page(`/${IDENTITY_PROVIDER_TOKEN}TakeoutGateway`, 'privacy', subscriber, 'Last ned dataene dine', 'Be om en kopi av dataene vi har om deg. Det kan ta opptil 30 dager.'),
  accountDeletion: page(
    `/${IDENTITY_PROVIDER_TOKEN}DeleteGateway`,
    'privacy',
    subscriber,
    'Slett kontoen din',
    'Be om at kontoen din slettes. Det kan ta opptil 30 dager, og betalingshistorikk kan ikke slettes før det har gått 5 år.',
  ),
  terms: page('/vilkaar', 'privacy', open, 'Vilkår', 'Vilkårene for abonnementet.'),
  businessTerms: page('/vilkaar/bedrift', 'privacy', open, 'Vilkår for bedrifter', 'Vilkårene for bedriftsabonnement.'),
  moreTerms: page('/vilkaar-mer', 'privacy', open, 'Flere vilkår', 'Utfyllende vilkår for abonnement og tjenester.'),
  data: page('/data', 'privacy', open, 'Dine data', 'Hvilke data vi samler inn om deg, og hvordan de brukes.'),
  privacy: page('/personvern', 'privacy', open, 'Personvern', 'Personvernerklæringen: hvordan vi behandler personopplysningene dine.'),
  cookiePolicy: page('/cookie-policy', 'privacy', open, 'Informasjonskapsler', 'Hvilke informasjonskapsler vi bruker, og hvorfor.'),
  privacyDetails: page('/personverndetaljer', 'privacy', open, 'Personverndetaljer', 'Detaljer om behandlingen av personopplysningene dine.'),
  privacySettings: page('/personverninnstillinger', 'privacy', auth, 'Personverninnstillinger', 'Velg hvilke samtykker du gir oss, og be om innsyn i eller sletting av dataene dine.'),
  consent1: page('/samtykke1', 'privacy', subscriber, 'Samtykke', 'Gi eller trekk tilbake samtykke (steg 1 av 3).'),
  consent2: page('/samtykke2', 'privacy', subscriber, 'Samtykke', 'Gi eller trekk tilbake samtykke (steg 2 av 3).'),
  consent3: page('/samtykke3', 'privacy', subscriber, 'Samtykke', 'Gi eller trekk tilbake samtykke (steg 3 av 3).'),
  myContent: page('/mitt-innhold', 'subscription', subscriber, 'Mitt innhold', 'Innholdet du har tilgang til gjennom abonnementet.'),
  maintenance: page('/maintenance', 'titles', open, 'Min Side er midlertidig utilgjengelig', 'Min Side er nede for vedlikehold.'),
  notFound: page('/404', 'support', open, 'Fant ikke siden', 'Siden du lette etter finnes ikke.'),
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
