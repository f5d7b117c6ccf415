import { billingErrorCodes, billingErrorMessages, errorCodes, errorMessages } from '@minside/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, refusal, renderPage, type Answer } from '../../../test/render-page.tsx';
import { DiscountPanel } from './discount-panel.tsx';

// Issue 25.12: a discount code that is missing or refused moves the focus to the error summary,
// whose link leads to the code field; a failure that is not about the code stays an alert.

function show(answer: Answer = () => undefined) {
  return renderPage(<DiscountPanel subscription={{ ariaAccountNo: 4242, titleCode: 'ADR' }} />, {
    answer: (call) => (call.path === 'getDiscountDetails' ? json(200, { discount: null }) : answer(call)),
  });
}

const field = () => screen.getByRole('textbox', { name: 'Rabattkode' });
const useCode = () => fireEvent.click(screen.getByRole('button', { name: 'Bruk koden' }));

afterEach(cleanupPage);

describe('a discount code', () => {
  it('missing: the summary takes the focus with "Rabattkode er påkrevd", and its link leads to the field', async () => {
    show();
    await screen.findByRole('textbox', { name: 'Rabattkode' });
    useCode();
    const summary = await expectFocusedSummary(['Rabattkode er påkrevd']);
    expect(followSummaryLink(summary, 'Rabattkode er påkrevd')).toBe(field());
  }, 20_000);

  it('refused by the server: said at the field through the summary, not as an alert beside it', async () => {
    show((call) => (call.path === 'addDiscount' ? refusal(400, billingErrorCodes.discountCodeInvalid, billingErrorMessages.discountCodeInvalid) : undefined));
    fireEvent.input(await screen.findByRole('textbox', { name: 'Rabattkode' }), { target: { value: 'SOMMER2020' } });
    useCode();
    const summary = await expectFocusedSummary([billingErrorMessages.discountCodeInvalid]);
    expect(screen.getAllByRole('alert')).toEqual([summary]);
    expect(followSummaryLink(summary, billingErrorMessages.discountCodeInvalid)).toBe(field());
    expect(field().getAttribute('aria-describedby')).toContain('-error');
  }, 20_000);

  it('a failure that is not about the code is an alert, with no summary', async () => {
    show((call) => (call.path === 'addDiscount' ? refusal(503, errorCodes.internal, errorMessages.internal) : undefined));
    fireEvent.input(await screen.findByRole('textbox', { name: 'Rabattkode' }), { target: { value: 'VELKOMMEN20' } });
    useCode();
    const region = screen.getByRole('region', { name: 'Rabatt' });
    await waitFor(() => expect(within(region).getByRole('alert').textContent).toBe(errorMessages.internal));
    expect(screen.queryByRole('alert', { name: 'Det er noe som må rettes' })).toBeNull();
    expect(field().getAttribute('aria-invalid')).toBeNull();
  }, 20_000);
});
