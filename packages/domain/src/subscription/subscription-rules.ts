// The subscription rules of SPEC §3–§5 (status codes, classification, access, user-facing
// state): plain code without zod, so every page can use them without taking schemas along.
// subscription.ts re-exports them beside the schemas.
import { periodIsOver } from './paid-period.ts';

/** SPEC §4 subscription status codes (instStatusCode). */
export const instStatusCodes = {
  INACTIVE: 0,
  ACTIVE: 1,
  SUSPENDED: -1,
  PENDING_CANCELLATION: 2,
  CANCELLED: -2,
  PENDING_TERMINATION: 3,
  TERMINATED: -3,
  PENDING_INSTALLATION: 31,
  PENDING_ACTIVATION: 32,
  TRIAL: 41,
  ACTIVE_NON_BILLABLE: 61,
} as const;
export type InstStatusName = keyof typeof instStatusCodes;
export type InstStatusCode = (typeof instStatusCodes)[InstStatusName];

const statusNameByCode = new Map<number, InstStatusName>((Object.entries(instStatusCodes) as [InstStatusName, InstStatusCode][]).map(([name, code]) => [code, name]));

export function instStatusName(code: number): InstStatusName | undefined {
  return statusNameByCode.get(code);
}

export const planProductTypes = ['COMBO', 'DIGITAL'] as const;

/** SPEC §3 billing periods and their Norwegian labels. */
export const billingPeriodLabels = {
  YEAR: 'Årlig',
  QUARTER: 'Kvartalsvis',
  MONTH: 'Månedlig',
  MONTH_PREMIUM: 'Månedlig Premium',
} as const;
export type BillingPeriod = keyof typeof billingPeriodLabels;
/** What a price is for, written after the amount: "299 kr per måned". */
export const perBillingPeriod: Record<BillingPeriod, string> = { MONTH: 'per måned', MONTH_PREMIUM: 'per måned', QUARTER: 'per kvartal', YEAR: 'per år' };
export const billingPeriods = Object.keys(billingPeriodLabels) as BillingPeriod[];

/** SPEC §9 payment provider codes, plus the two ways the portal itself charges. */
export const paymentMethods = ['AVTALEGIRO', 'CARD', 'VIPPS', 'INVOICE', 'NONE'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/** The fields the SPEC §4/§5 rules read. The API's subscription contract satisfies it. */
export interface ClassifiableSubscription {
  ariaPlanID: string;
  planProductType: string;
  eligibleForSharing: boolean;
  instStatusCode: number;
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: string | null };
}

function hasSubscriptionInfo(subscription: ClassifiableSubscription): boolean {
  const info = subscription.subsRetrieveSubscriptionAddInfo.subscriptionInfo1;
  return info !== null && info.trim() !== '';
}

/** SPEC §4: paying unless trial, active non-billable, or subscription info is set. */
export function isPaying(subscription: ClassifiableSubscription): boolean {
  if (subscription.instStatusCode === instStatusCodes.TRIAL) return false;
  if (subscription.instStatusCode === instStatusCodes.ACTIVE_NON_BILLABLE) return false;
  return !hasSubscriptionInfo(subscription);
}

/** What the renewal rule reads of a subscription besides its classification. */
export interface RenewableSubscription extends ClassifiableSubscription {
  /** The regular price per billing period, øre (what every period after an introductory offer costs). */
  priceOre: number;
  /** The owner's subscription when this one is a share; null for one's own. */
  sharedFrom: string | null;
}

/**
 * Whether the renewal job carries this subscription into its next period, invoicing (or
 * charging) it at the regular price RENEWAL_LEAD_DAYS before the period ends: a paying
 * subscription, or a trial that converts. The 1 kr month (SPEC §9's offer) is sold as
 * "1 kr første måned, deretter 299 kr per måned" (price-terms.ts); SPEC §4 counts a trial as not
 * paying while it runs, so `isPaying` alone would leave it free for ever. A trial converts on the
 * terms a paying subscription renews on; when its new period begins it is ACTIVE. Nothing else
 * renews: not a cancelled one (PENDING_CANCELLATION, whatever it would resume to), nor anything
 * ended or suspended, nor a share (its owner pays), nor a subscription without a price.
 */
export function renewsAtPeriodEnd(subscription: RenewableSubscription): boolean {
  if (subscription.sharedFrom !== null || subscription.priceOre <= 0) return false;
  if (subscription.instStatusCode === instStatusCodes.ACTIVE) return isPaying(subscription);
  if (subscription.instStatusCode === instStatusCodes.TRIAL) return isPaying({ ...subscription, instStatusCode: instStatusCodes.ACTIVE });
  return false;
}

/** SPEC §5: an Ung subscription has a plan id containing UNG. */
export function isUngSubscription(subscription: Pick<ClassifiableSubscription, 'ariaPlanID'>): boolean {
  return subscription.ariaPlanID.toUpperCase().includes('UNG');
}

/** SPEC §5: a paper subscription has product type COMBO. */
export function isPaperSubscription(subscription: Pick<ClassifiableSubscription, 'planProductType'>): boolean {
  return subscription.planProductType.toUpperCase() === 'COMBO';
}

/** SPEC §5: a family subscription is one not eligible for sharing (the access was shared to it). */
export function isFamilySubscription(subscription: Pick<ClassifiableSubscription, 'eligibleForSharing'>): boolean {
  return !subscription.eligibleForSharing;
}

/** SPEC §5/§6: a business admin has subscriptionInfo1 containing "admin". */
export function isBusinessAdmin(subscription: Pick<ClassifiableSubscription, 'subsRetrieveSubscriptionAddInfo'>): boolean {
  return (subscription.subsRetrieveSubscriptionAddInfo.subscriptionInfo1 ?? '').toLowerCase().includes('admin');
}

/** SPEC §5: a business subscription carries its role in subscriptionInfo1. */
export function isBusinessSubscription(subscription: Pick<ClassifiableSubscription, 'subsRetrieveSubscriptionAddInfo'>): boolean {
  const info = (subscription.subsRetrieveSubscriptionAddInfo.subscriptionInfo1 ?? '').toLowerCase();
  return info.includes('admin') || info.includes('employee');
}

/** Statuses under which the subscriber has access today. */
const accessStatuses = new Set<number>([instStatusCodes.ACTIVE, instStatusCodes.PENDING_CANCELLATION, instStatusCodes.PENDING_TERMINATION, instStatusCodes.TRIAL, instStatusCodes.ACTIVE_NON_BILLABLE]);

export function hasAccess(subscription: Pick<ClassifiableSubscription, 'instStatusCode'>): boolean {
  return accessStatuses.has(subscription.instStatusCode);
}

/** SPEC §4 user-facing states. */
export type UserFacingState = 'active' | 'cancelled' | 'pendingChange' | 'expired' | 'pending';

export interface StatefulSubscription extends Pick<ClassifiableSubscription, 'instStatusCode'> {
  pendingChange: { on: string } | null;
  /** The renewal day (ISO date, see paid-period.ts). With `today`, a cancelled period that is over counts as expired. */
  currentPeriodEnd?: string;
}

export function userFacingState(subscription: StatefulSubscription, today?: string): UserFacingState {
  const code = subscription.instStatusCode;
  if (code === instStatusCodes.PENDING_CANCELLATION || code === instStatusCodes.PENDING_TERMINATION) {
    const over = today !== undefined && subscription.currentPeriodEnd !== undefined && periodIsOver(subscription.currentPeriodEnd, today);
    return over ? 'expired' : 'cancelled';
  }
  if (code === instStatusCodes.PENDING_INSTALLATION || code === instStatusCodes.PENDING_ACTIVATION) return 'pending';
  if (!hasAccess(subscription)) return 'expired';
  if (subscription.pendingChange) return 'pendingChange';
  return 'active';
}
