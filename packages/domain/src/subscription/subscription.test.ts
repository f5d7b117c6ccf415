import { describe, expect, it } from 'vitest';
import {
  hasAccess,
  instStatusCodes,
  instStatusName,
  isBusinessAdmin,
  isBusinessSubscription,
  isFamilySubscription,
  isPaperSubscription,
  isPaying,
  isUngSubscription,
  renewsAtPeriodEnd,
  userFacingState,
  type ClassifiableSubscription,
} from './subscription.ts';

const base: ClassifiableSubscription = {
  ariaPlanID: 'ADR-DIGITAL-M',
  planProductType: 'DIGITAL',
  eligibleForSharing: true,
  instStatusCode: instStatusCodes.ACTIVE,
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: null },
};
const withInfo = (info: string | null) => ({ ...base, subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: info } });

describe('SPEC §4 status codes', () => {
  it.each([
    ['INACTIVE', 0],
    ['ACTIVE', 1],
    ['SUSPENDED', -1],
    ['PENDING_CANCELLATION', 2],
    ['CANCELLED', -2],
    ['PENDING_TERMINATION', 3],
    ['TERMINATED', -3],
    ['PENDING_INSTALLATION', 31],
    ['PENDING_ACTIVATION', 32],
    ['TRIAL', 41],
    ['ACTIVE_NON_BILLABLE', 61],
  ] as const)('%s is %i', (name, code) => {
    expect(instStatusCodes[name]).toBe(code);
    expect(instStatusName(code)).toBe(name);
  });
  it('knows no other code', () => expect(instStatusName(5)).toBeUndefined());
});

describe('SPEC §4 paying rule', () => {
  it.each([
    ['active, no info', base, true],
    ['cancelled but running', { ...base, instStatusCode: instStatusCodes.PENDING_CANCELLATION }, true],
    ['trial', { ...base, instStatusCode: instStatusCodes.TRIAL }, false],
    ['active non-billable', { ...base, instStatusCode: instStatusCodes.ACTIVE_NON_BILLABLE }, false],
    ['subscription info set', withInfo('admin'), false],
    ['blank subscription info counts as unset', withInfo('  '), true],
  ])('%s → %s', (_label, subscription, paying) => expect(isPaying(subscription)).toBe(paying));
});

describe('renewal: paying, or a trial that converts', () => {
  const own = { ...base, priceOre: 29_900, sharedFrom: null };
  const trial = { ...own, instStatusCode: instStatusCodes.TRIAL };
  it.each([
    ['a paying subscription', own, true],
    ['a trial at a regular price (the 1 kr month), though it is not paying', trial, true],
    ['a cancelled trial', { ...trial, instStatusCode: instStatusCodes.PENDING_CANCELLATION }, false],
    ['a cancelled subscription', { ...own, instStatusCode: instStatusCodes.PENDING_CANCELLATION }, false],
    ['an expired one', { ...own, instStatusCode: instStatusCodes.CANCELLED }, false],
    ['a trial without a price', { ...trial, priceOre: 0 }, false],
    ['a shared trial', { ...trial, sharedFrom: 'demo-owner' }, false],
    ['a share', { ...own, sharedFrom: 'demo-owner' }, false],
    ['a business trial (subscription info set)', { ...trial, subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: 'employee' } }, false],
    ['active non-billable', { ...own, instStatusCode: instStatusCodes.ACTIVE_NON_BILLABLE }, false],
  ])('%s → %s', (_label, subscription, renews) => expect(renewsAtPeriodEnd(subscription)).toBe(renews));
  it('keeps SPEC §4: the trial itself is not paying', () => expect(isPaying(trial)).toBe(false));
});

describe('SPEC §5 classification', () => {
  it('Ung: the plan id contains UNG, in any case', () => {
    expect(isUngSubscription({ ariaPlanID: 'ADR-UNG-DIGITAL-M' })).toBe(true);
    expect(isUngSubscription({ ariaPlanID: 'adr-ung-m' })).toBe(true);
    expect(isUngSubscription({ ariaPlanID: 'ADR-DIGITAL-M' })).toBe(false);
  });
  it('paper: product type COMBO', () => {
    expect(isPaperSubscription({ planProductType: 'COMBO' })).toBe(true);
    expect(isPaperSubscription({ planProductType: 'DIGITAL' })).toBe(false);
  });
  it('family: not eligible for sharing', () => {
    expect(isFamilySubscription({ eligibleForSharing: false })).toBe(true);
    expect(isFamilySubscription({ eligibleForSharing: true })).toBe(false);
  });
  it('business admin: subscriptionInfo1 contains "admin"', () => {
    expect(isBusinessAdmin(withInfo('admin'))).toBe(true);
    expect(isBusinessAdmin(withInfo('firma.test ADMIN'))).toBe(true);
    expect(isBusinessAdmin(withInfo('employee'))).toBe(false);
    expect(isBusinessAdmin(withInfo(null))).toBe(false);
    expect(isBusinessSubscription(withInfo('employee'))).toBe(true);
    expect(isBusinessSubscription(withInfo(null))).toBe(false);
  });
});

describe('SPEC §4 user-facing states', () => {
  const state = (instStatusCode: number, pendingChange: { on: string } | null = null) => userFacingState({ instStatusCode, pendingChange });
  it.each([
    [instStatusCodes.ACTIVE, 'active'],
    [instStatusCodes.TRIAL, 'active'],
    [instStatusCodes.ACTIVE_NON_BILLABLE, 'active'],
    [instStatusCodes.PENDING_CANCELLATION, 'cancelled'],
    [instStatusCodes.PENDING_TERMINATION, 'cancelled'],
    [instStatusCodes.CANCELLED, 'expired'],
    [instStatusCodes.TERMINATED, 'expired'],
    [instStatusCodes.SUSPENDED, 'expired'],
    [instStatusCodes.INACTIVE, 'expired'],
    [instStatusCodes.PENDING_ACTIVATION, 'pending'],
  ])('status %i → %s', (code, expected) => expect(state(code)).toBe(expected));
  it('an active subscription with a plan change on a date is pendingChange', () => {
    expect(state(instStatusCodes.ACTIVE, { on: '2026-12-01' })).toBe('pendingChange');
  });
  it('access follows the state', () => {
    expect(hasAccess({ instStatusCode: instStatusCodes.PENDING_CANCELLATION })).toBe(true);
    expect(hasAccess({ instStatusCode: instStatusCodes.CANCELLED })).toBe(false);
  });
});
