import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../core/dates.ts';
import { formatKroner, formatLongDate } from '../core/format.ts';
import { firstPeriodOf, quoteOrder, INTRO_PRICE_ORE } from '../ordering/ordering.ts';
import { introductoryPriceOf, orderPriceTerms, priceTerms, priceTermsText } from './price-terms.ts';
import { billingPeriods } from './subscription-rules.ts';

// Issue 25.1: what the subscriber pays now and what follows is one rule, the same for the
// receipt (from the order) and the home and subscription pages (from the subscription).

const digitalMonthly = { ariaPlanID: 'ADR-DIGITAL-M', planProductType: 'DIGITAL' as const, billingPeriod: 'MONTH' as const };
const isoDay = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));

describe('price terms', () => {
  it('the 1 kr month: 1 kr now, then the regular price from the renewal day', () => {
    const quote = quoteOrder(digitalMonthly, 29_900, { campaign: false, winback: false });
    const intro = introductoryPriceOf(quote, '2026-11-26');
    expect(intro).toEqual({ priceOre: INTRO_PRICE_ORE, months: 1, endsOn: '2026-12-26' });
    const subscription = { priceOre: 29_900, billingPeriod: 'MONTH', introductoryPrice: intro };
    expect(priceTermsText(priceTerms(subscription, '2026-11-26'))).toBe('1\u00a0kr første måned, deretter 299\u00a0kr per måned fra 26. desember 2026');
    expect(priceTermsText(priceTerms(subscription, '2026-12-25'))).toBe('1\u00a0kr første måned, deretter 299\u00a0kr per måned fra 26. desember 2026');
    // From the renewal day on, the regular price alone.
    expect(priceTermsText(priceTerms(subscription, '2026-12-26'))).toBe('299\u00a0kr per måned');
  });

  it('names the offer period: a year, three months', () => {
    const year = { priceOre: 299_000, billingPeriod: 'YEAR', introductoryPrice: { priceOre: 149_500, months: 12, endsOn: '2027-11-26' } };
    expect(priceTermsText(priceTerms(year, '2026-11-26'))).toBe('1\u00a0495\u00a0kr første år, deretter 2\u00a0990\u00a0kr per år fra 26. november 2027');
    const winback = quoteOrder(digitalMonthly, 29_900, { campaign: false, winback: true });
    expect(priceTermsText(orderPriceTerms(winback, 'MONTH', '2026-11-26'))).toBe('299\u00a0kr de første 3 månedene, deretter 299\u00a0kr per måned fra 26. februar 2027');
  });

  it('a subscription bought without an offer has the regular price only', () => {
    const plain = quoteOrder({ ariaPlanID: 'ADR-KOMPLETT-M', planProductType: 'COMBO', billingPeriod: 'MONTH' }, 64_900, { campaign: false, winback: false });
    expect(introductoryPriceOf(plain, '2026-11-26')).toBeNull();
    expect(priceTermsText(orderPriceTerms(plain, 'MONTH', '2026-11-26'))).toBe('649\u00a0kr per måned');
  });

  it('the receipt (order) and the subscription it made say the same on the purchase day and every day of the offer', () => {
    fc.assert(
      fc.property(
        isoDay,
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.boolean(),
        fc.constantFrom(...billingPeriods),
        fc.integer({ min: 0, max: 400 }),
        (startedOn, priceOre, campaign, period, daysLater) => {
          const plan = { ...digitalMonthly, billingPeriod: period };
          const quote = quoteOrder(plan, priceOre, { campaign, winback: false });
          const subscription = { priceOre: quote.priceLaterOre, billingPeriod: period, introductoryPrice: introductoryPriceOf(quote, startedOn) };
          const fromOrder = orderPriceTerms(quote, period, startedOn);
          const today = addDays(startedOn, daysLater);
          const fromSubscription = priceTerms(subscription, today);
          // The offer ends where the first paid period ends (the order's own rule, firstPeriodOf).
          const offerEnd = firstPeriodOf(startedOn, quote).periodEnd;
          if (today < offerEnd) expect(fromSubscription).toEqual(fromOrder);
          else expect(fromSubscription).toEqual({ kind: 'regular', priceOre: quote.priceLaterOre, billingPeriod: period });
          const text = priceTermsText(fromSubscription);
          expect(text.startsWith(fromSubscription.kind === 'introductory' ? formatKroner(quote.amountNowOre) : formatKroner(quote.priceLaterOre))).toBe(true);
          if (fromSubscription.kind === 'introductory') expect(text.endsWith(`fra ${formatLongDate(addMonths(startedOn, quote.firstPeriodMonths))}`)).toBe(true);
        },
      ),
    );
  });
});
