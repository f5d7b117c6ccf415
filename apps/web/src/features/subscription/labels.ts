import {
  billingPeriodLabels,
  featureKeys,
  formatKroner,
  formatLongDate,
  priceTerms,
  priceTermsText,
  regularPriceText,
  type PricedSubscription,
  type BillingPeriod,
  type FeatureSet,
  type PaymentMethod,
  type PriceOutlook,
  type SelfServiceTask,
  type UserFacingState,
} from '@minside/domain';
import { pathTo } from '../../app/paths.ts';

/** What the subscriber reads about a subscription, in Norwegian. */

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  AVTALEGIRO: 'AvtaleGiro',
  CARD: 'Betalingskort',
  VIPPS: 'Vipps',
  INVOICE: 'Faktura',
  NONE: 'Ingen betaling',
};

export const stateLabels: Record<UserFacingState, string> = {
  active: 'Aktivt',
  cancelled: 'Sagt opp',
  pendingChange: 'Endring bestilt',
  expired: 'Utløpt',
  pending: 'Under oppstart',
};

/** Each feature of the catalogue: its name, what it gives, and what losing it means (the plan change's "Dette mister du"). */
export const featureLabels: Record<keyof FeatureSet, { label: string; text: string; lost: string }> = {
  plusContent: { label: 'Plussaker', text: 'Alle saker på nett og i appen, også de låste.', lost: 'De låste sakene på nett og i appen.' },
  ePaper: { label: 'eAvisen', text: 'Papiravisen som digital utgave, fra kvelden før.', lost: 'Papiravisen som digital utgave.' },
  paper: { label: 'Papiravisen', text: 'Levert på døra tidlig om morgenen.', lost: 'Avisen leveres ikke lenger på døra.' },
  familySharing: { label: 'Familiedeling', text: 'Del den digitale tilgangen gratis med husstanden.', lost: 'Du kan ikke lenger dele den digitale tilgangen med dem du bor sammen med.' },
  thirdPartyBundle: { label: 'Partnerfordel', text: 'Strømmetjeneste fra en av våre partnere inkludert.', lost: 'Strømmetjenesten fra partneren vår følger ikke lenger med.' },
};

export const featureOrder: readonly (keyof FeatureSet)[] = featureKeys;

export function periodLabel(period: string): string {
  return period in billingPeriodLabels ? billingPeriodLabels[period as BillingPeriod] : period;
}

/** "649 kr per måned". */
export function priceLabel(priceOre: number, period: string): string {
  return regularPriceText(priceOre, period);
}

/** What the subscriber pays now and what follows (issue 25.1): "1 kr første måned, deretter 299 kr per måned fra 26. desember 2026". */
export function currentPriceLabel(subscription: PricedSubscription, today: string): string {
  return priceTermsText(priceTerms(subscription, today));
}

/** "299 kr per måned, 329 kr fra 1. januar 2027": the price and the announced change still to come (domain `priceOutlook`). */
export function priceOutlookLabel(outlook: PriceOutlook, period: string): string {
  const now = priceLabel(outlook.priceOre, period);
  return outlook.then ? `${now}, ${formatKroner(outlook.then.priceOre)} fra ${formatLongDate(outlook.then.from)}` : now;
}

export { formatKroner, formatLongDate };

/** The self-service shortcuts of the home page: where each task is done and what it is called. */
export const taskLinks: Partial<Record<SelfServiceTask, { to: string; label: string; text: string }>> = {
  changePlan: { to: pathTo('changeSubscription'), label: 'Endre abonnement', text: 'Bytt produkt eller betalingsperiode.' },
  myContent: { to: pathTo('myContent'), label: 'Mitt innhold', text: 'Nettavis, eAvis og alt abonnementet gir deg.' },
  deliveryAddress: { to: pathTo('deliveryAddress'), label: 'Leveringsadresse', text: 'Se eller endre hvor avisen leveres.' },
  deliveryChange: { to: pathTo('deliveryChange'), label: 'Ferie og leveringsendring', text: 'Stopp avisen eller send den et annet sted.' },
  deliveryComplaint: { to: pathTo('deliveryComplaint'), label: 'Meld fra om levering', text: 'Kom ikke avisen? Si fra her.' },
  familySharing: { to: pathTo('familySharing'), label: 'Familiedeling', text: 'Del tilgangen med dem du bor sammen med.' },
  businessAdmin: { to: pathTo('businessAdmin'), label: 'Administrer bedrift', text: 'Inviter ansatte og fjern tilganger.' },
  invoices: { to: pathTo('invoiceOverview'), label: 'Fakturaoversikt', text: 'Se hva som er betalt og hva som gjenstår.' },
  paymentMethod: { to: pathTo('changePaymentMethod'), label: 'Betalingsmåte', text: 'Vipps, AvtaleGiro eller giro.' },
  contact: { to: pathTo('contact'), label: 'Kontaktinformasjon', text: 'E-post, telefon og hvem du deler med.' },
  profile: { to: pathTo('editProfile'), label: 'Endre profil', text: 'Navn, telefon, fødselsdato og e-post.' },
  privacy: { to: pathTo('privacySettings'), label: 'Personvern', text: 'Samtykker, innsyn og sletting.' },
  cancel: { to: pathTo('cancelSubscription'), label: 'Si opp abonnementet', text: 'Abonnementet løper ut perioden du har betalt for.' },
};

/** The home page's task groups (issue 25.10), in the order a subscriber looks for them. */
export const taskGroups: { id: string; heading: string; tasks: SelfServiceTask[] }[] = [
  { id: 'levering', heading: 'Levering', tasks: ['deliveryChange', 'deliveryAddress', 'deliveryComplaint'] },
  { id: 'betaling', heading: 'Betaling', tasks: ['invoices', 'paymentMethod'] },
  { id: 'abonnement', heading: 'Abonnement', tasks: ['myContent', 'changePlan', 'cancel'] },
  { id: 'deling', heading: 'Deling', tasks: ['familySharing', 'businessAdmin'] },
  { id: 'personvern', heading: 'Personvern', tasks: ['profile', 'contact', 'privacy'] },
];
