import { describe, expect, it } from 'vitest';
import { ageOn, calendarDaysBetween, lostFeatures, planEligibility, priceOn, priceOutlook, quotePlanChange, roundToWholeKroner, type CurrentPlan, type Plan } from './plans.ts';
import { instStatusCodes } from './subscription.ts';

const today = '2026-03-10';
const plan = (ariaPlanID: string, priceOre: number, billingPeriod: Plan['billingPeriod'] = 'MONTH'): Plan => ({
  ariaPlanID,
  titleCode: 'ADR',
  name: ariaPlanID,
  description: '',
  planProductType: 'DIGITAL',
  billingPeriod,
  priceOre,
  features: { plusContent: true, ePaper: true, paper: false, familySharing: false, thirdPartyBundle: false },
  nextPrice: null,
  minimumAge: null,
});
const current: CurrentPlan = { ariaPlanID: 'ADR-DIGITAL-M', priceOre: 29_900, billingPeriod: 'MONTH', instStatusCode: instStatusCodes.ACTIVE, currentPeriodEnd: '2026-03-22' };

describe('dates and ages', () => {
  it('counts calendar days', () => {
    expect(calendarDaysBetween('2026-03-10', '2026-03-22')).toBe(12);
    expect(calendarDaysBetween('2026-03-28', '2026-03-30')).toBe(2); // over the DST change
    expect(calendarDaysBetween('2026-03-22', '2026-03-10')).toBe(-12);
  });
  it.each([
    ['1992-03-10', 34],
    ['1992-03-11', 33],
    ['2008-02-29', 18],
    ['2008-03-11', 17],
  ])('born %s is %i on 2026-03-10', (birthdate, age) => expect(ageOn(birthdate, today)).toBe(age));
});

describe('SPEC §5 age rules on plans', () => {
  const ung = plan('ADR-UNG-DIGITAL-M', 9_900);
  it('Ung is for under 34: 33 may, 34 may not (digital offered instead)', () => {
    expect(planEligibility(ung, '1992-03-11', today)).toEqual({ eligible: true });
    expect(planEligibility(ung, '1992-03-10', today)).toMatchObject({ eligible: false, code: 'UNG_AGE_LIMIT', message: expect.stringContaining('Digital') });
  });
  it('Ung needs a birthdate to decide', () => {
    expect(planEligibility(ung, null, today)).toMatchObject({ eligible: false, code: 'BIRTHDATE_REQUIRED' });
  });
  it('other plans need no birthdate, but the buyer must be 18', () => {
    expect(planEligibility(plan('ADR-DIGITAL-M', 29_900), null, today)).toEqual({ eligible: true });
    expect(planEligibility(plan('ADR-DIGITAL-M', 29_900), '2008-03-11', today)).toMatchObject({ eligible: false, code: 'UNDER_MINIMUM_AGE' });
    expect(planEligibility(plan('ADR-DIGITAL-M', 29_900), '2008-03-10', today)).toEqual({ eligible: true });
  });
});

describe('plans with a minimum age of their own (Digital Honnør, ADR 006)', () => {
  const honnor: Plan = { ...plan('ADR-DIGITAL-HONNOR-M', 19_900), name: 'Digital Honnør', minimumAge: 67 };
  it('is open from the 67th birthday, not the day before', () => {
    expect(planEligibility(honnor, '1959-03-10', today)).toEqual({ eligible: true });
    expect(planEligibility(honnor, '1959-03-11', today)).toEqual({
      eligible: false,
      code: 'PLAN_MINIMUM_AGE',
      message: 'Digital Honnør gjelder for deg som er 67 år eller eldre.',
    });
  });
  it('refuses a 25-year-old (ung@minside.test) and a 66-year-old', () => {
    expect(planEligibility(honnor, '2000-06-15', today)).toMatchObject({ eligible: false, code: 'PLAN_MINIMUM_AGE' });
    expect(planEligibility(honnor, '1959-06-15', today)).toMatchObject({ eligible: false, code: 'PLAN_MINIMUM_AGE' });
  });
  it('a leap-day birthday counts from 1 March in other years', () => {
    expect(planEligibility(honnor, '1960-02-29', '2027-02-28')).toMatchObject({ eligible: false, code: 'PLAN_MINIMUM_AGE' });
    expect(planEligibility(honnor, '1960-02-29', '2027-03-01')).toEqual({ eligible: true });
  });
  it('needs a birthdate to decide, and says which plan it is for', () => {
    expect(planEligibility(honnor, null, today)).toMatchObject({ eligible: false, code: 'BIRTHDATE_REQUIRED', message: expect.stringContaining('Digital Honnør') });
  });
  it('a minimum age of 18 or less adds nothing to the general rule', () => {
    expect(planEligibility({ ...honnor, minimumAge: 18 }, null, today)).toEqual({ eligible: true });
    expect(planEligibility({ ...honnor, minimumAge: 16 }, '2008-03-11', today)).toMatchObject({ code: 'UNDER_MINIMUM_AGE' });
  });
});

describe('plan change quote', () => {
  it('the same plan is no change', () => {
    expect(quotePlanChange(current, plan('ADR-DIGITAL-M', 29_900), today)).toMatchObject({ kind: 'current', amountOre: 0 });
  });

  it('upgrade: at once, the daily difference for the days left, in whole kroner', () => {
    // (649 - 299) kr a month = 350 * 12 / 365 kr a day, for 12 days = 138.08 kr → 138 kr.
    const quote = quotePlanChange(current, plan('ADR-KOMPLETT-M', 64_900), today);
    expect(quote).toEqual({ kind: 'upgrade', effectiveOn: today, amountOre: 13_800, daysLeft: 12 });
    expect(quote.amountOre % 100).toBe(0);
  });

  it('upgrade to another period compares the price per day', () => {
    // Yearly Komplett 7290 kr: 19.97 kr/day vs 9.83 kr/day → 10.14 * 12 = 121.7 → 122 kr.
    expect(quotePlanChange(current, plan('ADR-KOMPLETT-Y', 729_000, 'YEAR'), today)).toMatchObject({ kind: 'upgrade', amountOre: 12_200 });
  });

  it('upgrade on the last day costs nothing more', () => {
    expect(quotePlanChange({ ...current, currentPeriodEnd: today }, plan('ADR-KOMPLETT-M', 64_900), today)).toMatchObject({ kind: 'upgrade', amountOre: 0, daysLeft: 0 });
  });

  it('downgrade and a cheaper period: from the period end, nothing to pay now', () => {
    expect(quotePlanChange(current, plan('ADR-UNG-DIGITAL-M', 9_900), today)).toEqual({ kind: 'downgrade', effectiveOn: '2026-03-22', amountOre: 0, daysLeft: 12 });
    expect(quotePlanChange(current, plan('ADR-DIGITAL-Y', 299_000, 'YEAR'), today)).toMatchObject({ kind: 'downgrade', effectiveOn: '2026-03-22' });
  });

  it('a trial keeps its month; the new plan starts when it ends', () => {
    const trial = { ...current, ariaPlanID: 'ADR-DIGITAL-PROVE-1KR', priceOre: 100, instStatusCode: instStatusCodes.TRIAL };
    expect(quotePlanChange(trial, plan('ADR-KOMPLETT-M', 64_900), today)).toMatchObject({ kind: 'afterTrial', effectiveOn: '2026-03-22', amountOre: 0 });
  });

  it('rounds to whole kroner half up', () => {
    expect(roundToWholeKroner(13_849)).toBe(13_800);
    expect(roundToWholeKroner(13_850)).toBe(13_900);
  });
});

describe('announced prices', () => {
  it('apply from their date', () => {
    const withNext = { ...plan('ADR-DIGITAL-M', 29_900), nextPrice: { priceOre: 32_900, from: '2026-04-01' } };
    expect(priceOn(withNext, '2026-03-31')).toBe(29_900);
    expect(priceOn(withNext, '2026-04-01')).toBe(32_900);
  });
});

describe('the price from a day on, with the announced change (issue 25.3)', () => {
  const withNext = { ...plan('ADR-DIGITAL-M', 29_900), nextPrice: { priceOre: 32_900, from: '2027-01-01' } };

  it('is today’s price and the change still to come', () => {
    expect(priceOutlook(withNext, '2026-12-07')).toEqual({ priceOre: 29_900, then: { priceOre: 32_900, from: '2027-01-01' } });
  });

  it('is the new price alone once the announced date has come', () => {
    expect(priceOutlook(withNext, '2027-01-01')).toEqual({ priceOre: 32_900, then: null });
    expect(priceOutlook(withNext, '2027-02-07')).toEqual({ priceOre: 32_900, then: null });
  });

  it('has nothing to come without an announcement', () => {
    expect(priceOutlook(plan('ADR-DIGITAL-Y', 299_000), '2026-12-07')).toEqual({ priceOre: 299_000, then: null });
  });
});

describe('what a change of product takes away (issue 25.3)', () => {
  const paper = { plusContent: true, ePaper: true, paper: true, familySharing: true, thirdPartyBundle: true };
  const digital = { plusContent: true, ePaper: true, paper: false, familySharing: false, thirdPartyBundle: false };

  it('lists the features the new product lacks, in the catalogue’s order', () => {
    expect(lostFeatures(paper, digital)).toEqual(['paper', 'familySharing', 'thirdPartyBundle']);
  });

  it('is empty for an upgrade or the same features', () => {
    expect(lostFeatures(digital, paper)).toEqual([]);
    expect(lostFeatures(paper, paper)).toEqual([]);
  });
});
