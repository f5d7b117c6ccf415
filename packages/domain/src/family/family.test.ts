import { describe, expect, it } from 'vitest';
import { familyInviteFormSchema, familySharingRefusal, hasDeliverableDomain, remainingPlaces } from './family.ts';
import type { SelfServiceSubscription } from '../subscription/self-service.ts';
import { instStatusCodes as S } from '../subscription/subscription.ts';

const today = '2026-03-10';
const family: SelfServiceSubscription = {
  ariaPlanID: 'ADR-DIGITAL-FAMILIE-M',
  planProductType: 'DIGITAL',
  eligibleForSharing: true,
  instStatusCode: S.ACTIVE,
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: null },
  features: { plusContent: true, ePaper: true, paper: false, familySharing: true, thirdPartyBundle: false },
  currentPeriodEnd: '2026-03-30',
  pendingChange: null,
  sharedFrom: null,
};

describe('who may share with the family', () => {
  it.each([
    ['a family plan', family, null],
    ['Ung, even with the feature', { ...family, ariaPlanID: 'ADR-UNG-DIGITAL-M' }, 'ung'],
    ['a plan without the feature', { ...family, features: { ...family.features, familySharing: false } }, 'notEligible'],
    ['a member (not eligible for sharing)', { ...family, eligibleForSharing: false }, 'notEligible'],
    ['someone sharing another subscription', { ...family, sharedFrom: { ownerName: 'Per Olsen' } }, 'member'],
    ['a business subscription', { ...family, subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: 'admin' } }, 'notEligible'],
    ['an expired one', { ...family, instStatusCode: S.CANCELLED }, 'notEligible'],
  ] as const)('%s', (_name, subscription, expected) => {
    expect(familySharingRefusal(subscription, today)).toBe(expected);
  });
});

describe('wrongEmailDomain', () => {
  it.each([
    ['ola@minside.test', true],
    ['ola@stud.ntnu.no', true],
    ['ola@localhost', false],
    ['ola@example.com', false],
    ['ola@post.invalid', false],
    ['ola@mail.c', false],
    ['ola@-bad-.no', false],
    ['ola@123.456', false],
  ])('%s → %s', (email, deliverable) => {
    expect(hasDeliverableDomain(email)).toBe(deliverable);
  });
});

describe('places and the form', () => {
  it('counts every invitation against the maximum, never below zero', () => {
    expect(remainingPlaces(4, 2)).toBe(2);
    expect(remainingPlaces(4, 4)).toBe(0);
    expect(remainingPlaces(2, 3)).toBe(0);
  });

  it('uses the SPEC §5 messages', () => {
    expect(familyInviteFormSchema.safeParse({ email: '' }).error?.issues[0]?.message).toBe('E-post er påkrevd');
    expect(familyInviteFormSchema.safeParse({ email: 'ola' }).error?.issues[0]?.message).toBe('Vennligst skriv en gyldig e-postadresse');
    expect(familyInviteFormSchema.safeParse({ email: ' ola@minside.test ' }).data).toEqual({ email: 'ola@minside.test' });
  });
});
