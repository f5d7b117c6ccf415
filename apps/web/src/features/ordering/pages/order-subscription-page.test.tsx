import type { OrderOffersResponse, Plan } from '@minside/domain';
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { withoutSubscription } from '../../auth/testing/fake-identity.ts';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, renderPage } from '../../../test/render-page.tsx';
import { OrderSubscriptionPage } from './order-subscription-page.tsx';

// Issue 25.12: each step of /bestill-abonnement that ends in field errors moves the focus to the
// error summary at its top; the links lead to the fields.

const combo: Plan = {
  ariaPlanID: 'ADR-COMBO-M',
  titleCode: 'ADR',
  name: 'Papir + digital',
  description: 'Papiravisen hver dag og alt digitalt.',
  planProductType: 'COMBO',
  billingPeriod: 'MONTH',
  priceOre: 59_900,
  features: { plusContent: true, ePaper: true, paper: true, familySharing: true, thirdPartyBundle: false },
  nextPrice: null,
  minimumAge: null,
};

const offers: OrderOffersResponse = {
  titleCode: 'ADR',
  offers: [{ plan: combo, quote: { offerCode: null, offerLabel: null, amountNowOre: 59_900, firstPeriodMonths: 1, priceLaterOre: 59_900, laterPeriodMonths: 1 }, unavailable: null }],
  campaign: null,
  winback: false,
  hasAccess: false,
  birthdateRequired: true,
  paperStartsOn: '2026-12-01',
};

function show() {
  return renderPage(<OrderSubscriptionPage />, {
    session: withoutSubscription,
    path: '/bestill-abonnement',
    answer: (call) => (call.path.startsWith('order/offers?') ? json(200, offers) : undefined),
  });
}

const goOn = () => fireEvent.click(screen.getByRole('button', { name: 'Gå videre' }));

afterEach(cleanupPage);

describe('ordering', () => {
  it('no birthdate: the summary takes the focus, its link leads to the birthdate; then the address step does the same for each missing field', async () => {
    show();
    // The first offer is chosen for the buyer.
    await waitFor(() => expect(screen.getByRole('radio', { name: /^Papir \+ digital/ })).toHaveProperty('checked', true));
    goOn();
    const summary = await expectFocusedSummary(['Fødselsdato er påkrevd']);
    const birthdate = screen.getByLabelText('Fødselsdato');
    expect(followSummaryLink(summary, 'Fødselsdato er påkrevd')).toBe(birthdate);
    expect(birthdate.getAttribute('aria-invalid')).toBe('true');
    // Not said twice: the field's own message is no alert of its own.
    expect(screen.getAllByRole('alert')).toEqual([summary]);

    fireEvent.input(birthdate, { target: { value: '1990-05-17' } });
    goOn();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Leveringsadresse' })));

    goOn();
    const addressSummary = await expectFocusedSummary(['Adresse er påkrevd', 'Gatenummer er påkrevd', 'Postnummer er påkrevd']);
    expect(followSummaryLink(addressSummary, 'Gatenummer er påkrevd')).toBe(screen.getByRole('textbox', { name: 'Gatenummer' }));
    expect(followSummaryLink(addressSummary, 'Postnummer er påkrevd')).toBe(screen.getByRole('textbox', { name: 'Postnummer' }));

    // A field put right drops out of the summary.
    fireEvent.input(screen.getByRole('textbox', { name: 'Adresse' }), { target: { value: 'Kongens gate' } });
    await waitFor(() => expect(screen.getAllByRole('link', { name: /påkrevd$/ }).map((link) => link.textContent)).toEqual(['Gatenummer er påkrevd', 'Postnummer er påkrevd']));
  }, 30_000);
});
