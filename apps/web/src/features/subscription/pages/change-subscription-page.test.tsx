import type { Plan, PlanOption } from '@minside/domain';
import { fireEvent, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paperSubscription } from '../../auth/testing/fake-identity.ts';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, renderPage } from '../../../test/render-page.tsx';
import { ChangeSubscriptionPage } from './change-subscription-page.tsx';

// Issue 25.12: confirming with no plan chosen moves the focus to the error summary, whose link
// leads to the first plan that can be chosen.

const plan = (ariaPlanID: string, name: string, priceOre: number): Plan => ({
  ariaPlanID,
  titleCode: 'ADR',
  name,
  description: `${name} fra Adresseavisen.`,
  planProductType: ariaPlanID.includes('COMBO') ? 'COMBO' : 'DIGITAL',
  billingPeriod: 'MONTH',
  priceOre,
  features: paperSubscription.features,
  nextPrice: null,
  minimumAge: null,
});

const options: PlanOption[] = [
  {
    plan: plan('ADR-COMBO-M', 'Papir + digital', 59_900),
    quote: { kind: 'current', effectiveOn: '2026-11-26', amountOre: 0, daysLeft: 0 },
    unavailable: { code: 'CURRENT', message: 'Dette har du nå.' },
  },
  { plan: plan('ADR-DIGITAL-M', 'Digital', 29_900), quote: { kind: 'downgrade', effectiveOn: '2027-01-01', amountOre: 0, daysLeft: 0 }, unavailable: null },
];

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(cleanupPage);

describe('changing the plan', () => {
  it('with none chosen: the summary takes the focus with "Abonnement er påkrevd", and its link leads to the first plan open to choose', async () => {
    const calls = renderPage(<ChangeSubscriptionPage />, { path: '/endre-abonnement', answer: (call) => (call.path.endsWith('/plans') ? json(200, { options }) : undefined) });
    fireEvent.click(await screen.findByRole('button', { name: 'Bekreft bytte' }));
    const summary = await expectFocusedSummary(['Abonnement er påkrevd']);
    const digital = screen.getByRole('radio', { name: /^Månedlig/, description: /Gjelder fra 1\. januar 2027/ });
    expect(followSummaryLink(summary, 'Abonnement er påkrevd')).toBe(digital);
    expect(digital.getAttribute('aria-describedby')).toContain('plan-choice-error');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  }, 20_000);
});
