import { describe, expect, it } from 'vitest';
import { cancellationReasonsFor, cancellationSurveySchema, chooseRetentionOffer, reactivationResultCodes, reactivationResults, type RetentionCandidate } from './cancellation.ts';
import type { Plan } from './plans.ts';
import { instStatusCodes } from './subscription.ts';

const digital: RetentionCandidate = {
  ariaPlanID: 'ADR-DIGITAL-M',
  planProductType: 'DIGITAL',
  eligibleForSharing: true,
  instStatusCode: instStatusCodes.ACTIVE,
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: null },
  billingPeriod: 'MONTH',
  offerUsed: false,
};
const paper: RetentionCandidate = { ...digital, ariaPlanID: 'ADR-KOMPLETT-M', planProductType: 'COMBO' };
const features = { plusContent: true, ePaper: true, paper: false, familySharing: false, thirdPartyBundle: false };
const plans: Plan[] = [
  {
    ariaPlanID: 'ADR-DIGITAL-Y',
    titleCode: 'ADR',
    name: 'Digital',
    description: '',
    planProductType: 'DIGITAL',
    billingPeriod: 'YEAR',
    priceOre: 299_000,
    features,
    nextPrice: null,
    minimumAge: null,
  },
  {
    ariaPlanID: 'ADR-DIGITAL-M',
    titleCode: 'ADR',
    name: 'Digital',
    description: '',
    planProductType: 'DIGITAL',
    billingPeriod: 'MONTH',
    priceOre: 29_900,
    features,
    nextPrice: null,
    minimumAge: null,
  },
  {
    ariaPlanID: 'ADR-UNG-DIGITAL-M',
    titleCode: 'ADR',
    name: 'Ung digital',
    description: '',
    planProductType: 'DIGITAL',
    billingPeriod: 'MONTH',
    priceOre: 9_900,
    features,
    nextPrice: null,
    minimumAge: null,
  },
];

describe('cancellation survey', () => {
  it('accepts a listed reason', () => {
    expect(cancellationSurveySchema.safeParse({ reasonCode: 'PRICE' }).success).toBe(true);
  });
  it('requires a reason, with the SPEC §5 wording', () => {
    const result = cancellationSurveySchema.safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Årsak er påkrevd');
  });
  it('"Annet" needs the subscriber’s words', () => {
    const result = cancellationSurveySchema.safeParse({ reasonCode: 'OTHER', reasonText: '   ' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Beskrivelse er påkrevd']);
    expect(cancellationSurveySchema.safeParse({ reasonCode: 'OTHER', reasonText: 'Flytter utenlands' }).success).toBe(true);
  });
  it('offers the delivery reason to paper subscribers only', () => {
    expect(cancellationReasonsFor(paper)).toContain('DELIVERY');
    expect(cancellationReasonsFor(digital)).not.toContain('DELIVERY');
  });
});

describe('retention offer', () => {
  it('digital subscribers get the SPEC §9 winback, 3 months for the price of 1', () => {
    expect(chooseRetentionOffer(digital, plans)).toMatchObject({ code: 'WINBACK_3_FOR_1', headline: '3 måneder for prisen av 1', plan: null });
  });
  it('paper subscribers are offered the plain digital plan in their own period', () => {
    expect(chooseRetentionOffer(paper, plans)).toMatchObject({ code: 'CHEAPER_PLAN', plan: { ariaPlanID: 'ADR-DIGITAL-M' } });
  });
  it('only one per subscription', () => {
    expect(chooseRetentionOffer({ ...digital, offerUsed: true }, plans)).toBeNull();
  });
  it('none for those who do not pay: trial, shared, business', () => {
    expect(chooseRetentionOffer({ ...digital, instStatusCode: instStatusCodes.TRIAL }, plans)).toBeNull();
    expect(chooseRetentionOffer({ ...digital, instStatusCode: instStatusCodes.ACTIVE_NON_BILLABLE }, plans)).toBeNull();
    expect(chooseRetentionOffer({ ...digital, subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: 'admin' } }, plans)).toBeNull();
  });
});

describe('SPEC §4 reactivation result codes', () => {
  it('each has a Norwegian message and a status', () => {
    expect(reactivationResultCodes).toHaveLength(8);
    for (const code of reactivationResultCodes) {
      expect(reactivationResults[code].message.length).toBeGreaterThan(10);
      expect(reactivationResults[code].status === 200).toBe(code === 'ok');
    }
  });
});
