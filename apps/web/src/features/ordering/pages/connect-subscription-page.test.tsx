import { connectErrorCodes, connectMessages, type SearchAccountResponse } from '@minside/domain';
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { withoutSubscription } from '../../auth/testing/fake-identity.ts';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, refusal, renderPage, type Answer } from '../../../test/render-page.tsx';
import { ConnectSubscriptionPage } from './connect-subscription-page.tsx';

// Issue 25.12: /koble-bruker's search and code steps move the focus to the error summary after a
// submit that ends in field errors; each of the search's messages is at its own field.

function show(answer: Answer = () => undefined) {
  return renderPage(<ConnectSubscriptionPage />, { answer, session: withoutSubscription, path: '/koble-bruker' });
}

const search = () => fireEvent.click(screen.getByRole('button', { name: 'Finn abonnementet' }));

afterEach(cleanupPage);

describe('the search', () => {
  it('by number: the postal code’s message is at the postal code, and the summary’s link leads there', async () => {
    const calls = show();
    fireEvent.input(screen.getByRole('textbox', { name: 'Abonnementsnummer' }), { target: { value: '40000099' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Postnummer' }), { target: { value: '37' } });
    search();
    const summary = await expectFocusedSummary(['Postnummeret har fire siffer.']);
    const postal = screen.getByRole('textbox', { name: 'Postnummer' });
    expect(followSummaryLink(summary, 'Postnummeret har fire siffer.')).toBe(postal);
    expect(postal.getAttribute('aria-invalid')).toBe('true');
    expect(calls).toEqual([]);
  }, 20_000);

  it('by phone: the phone number’s message is at the phone number', async () => {
    show();
    fireEvent.click(screen.getByRole('radio', { name: 'Telefonnummer' }));
    fireEvent.input(screen.getByRole('textbox', { name: 'Telefonnummer' }), { target: { value: '12' } });
    search();
    const summary = await expectFocusedSummary(['Telefonnummeret er ugyldig']);
    expect(followSummaryLink(summary, 'Telefonnummeret er ugyldig')).toBe(screen.getByRole('textbox', { name: 'Telefonnummer' }));
  }, 20_000);
});

describe('the code', () => {
  const found: SearchAccountResponse = { requestId: '7d0b8f5e-3c1a-4e2b-9f6d-2a4c6e8b0d1f', message: connectMessages.searchSent, expiresAt: '2026-11-26T12:00:00Z' };
  const codeField = () => screen.getByRole('textbox', { name: 'Kode' });
  const connect = () => fireEvent.click(screen.getByRole('button', { name: 'Koble til abonnementet' }));

  async function atCodeStep(answer: Answer) {
    show((call) => (call.path.startsWith('search-account?') ? json(200, found) : answer(call)));
    fireEvent.click(screen.getByRole('radio', { name: 'Telefonnummer' }));
    fireEvent.input(screen.getByRole('textbox', { name: 'Telefonnummer' }), { target: { value: '470 00 099' } });
    search();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Bekreft at abonnementet er ditt' })));
  }

  it('a wrong code is at the code field through the summary; being throttled is an alert, not a field error', async () => {
    let left = 2;
    await atCodeStep((call) => {
      if (call.path !== 'verify/') return undefined;
      return left > 0 ? refusal(400, connectErrorCodes.codeWrong, connectMessages.codeWrong(left--)) : refusal(429, connectErrorCodes.codeThrottled, connectMessages.codeThrottled);
    });
    fireEvent.input(codeField(), { target: { value: '000000' } });
    connect();
    let summary = await expectFocusedSummary(['Koden er feil. Du har 2 forsøk igjen.']);
    expect(followSummaryLink(summary, 'Koden er feil. Du har 2 forsøk igjen.')).toBe(codeField());

    connect();
    summary = await expectFocusedSummary(['Koden er feil. Du har 1 forsøk igjen.']);

    connect();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(connectMessages.codeThrottled));
    expect(screen.queryByRole('alert', { name: 'Det er noe som må rettes' })).toBeNull();
    expect(codeField().getAttribute('aria-invalid')).toBeNull();
  }, 20_000);
});
