import type { CreditedInvoice, DeleteSubscriptionResponse, Subscription } from '@minside/domain';
import { addDays, osloToday, systemClock } from '@minside/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { MemoryRouter, Route, Routes } from '../../../lib/router/index.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pathTo } from '../../../app/paths.ts';
import { IdentityProvider } from '../../auth/index.ts';
import { initialSessionState, sessionStore, setSignedIn } from '../../auth/session.ts';
import { createFakeIdentity, paperSubscription, subscriber } from '../../auth/testing/fake-identity.ts';
import { CancelSubscriptionPage } from './cancel-subscription-page.tsx';
import { SubscriptionCancelledPage } from './subscription-cancelled-page.tsx';

// The cancellation's receipt says what became of an invoice already issued for the period after
// the access ends (ADR 026): credited, refunded, or still to be — as DELETE deleteSubscription answered.

const running: Subscription = { ...paperSubscription, currentPeriodEnd: addDays(osloToday(systemClock()), 10) };
const cancelled: Subscription = { ...running, instStatusCode: 2, cancelledAt: systemClock().toISOString() };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The cancellation from the survey to the receipt, with the server answering `creditedInvoices`. */
async function cancelWith(creditedInvoices: CreditedInvoice[]) {
  const answer: DeleteSubscriptionResponse = { actionType: 'CANCELLATION', subscription: cancelled, creditedInvoices };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      if (url.endsWith('/retention-offer')) return json(200, { offer: null });
      if (url.endsWith('/api/deleteSubscription') && method === 'DELETE') return json(200, answer);
      return json(503, { code: 'UNAVAILABLE', message: 'Ikke i denne testen.' });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const session = { ...subscriber, subscription: running };
  setSignedIn(sessionStore, session, systemClock().getTime());
  render(
    <QueryClientProvider client={client}>
      <IdentityProvider value={createFakeIdentity({ session })}>
        <MemoryRouter initialEntries={[pathTo('cancelSubscription')]}>
          <Routes>
            <Route path={pathTo('cancelSubscription')} element={<CancelSubscriptionPage />} />
            <Route path={pathTo('subscriptionCancelled')} element={<SubscriptionCancelledPage />} />
          </Routes>
        </MemoryRouter>
      </IdentityProvider>
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByRole('radio', { name: 'Det er for dyrt' }));
  fireEvent.click(screen.getByRole('button', { name: 'Neste' }));
  const confirm = await screen.findByRole('button', { name: 'Bekreft oppsigelse' });
  // The mutation gets the answered survey in an effect of the render, which Preact runs after the
  // next paint (in jsdom its fallback timer, 100 ms): a person never clicks faster than that.
  await act(() => new Promise((resolve) => setTimeout(resolve, 150)));
  fireEvent.click(confirm);
  await screen.findByText(/Oppsigelsen er registrert/);
}

beforeEach(() => {
  // Refetches after the change are not answered here; the pages log and carry on.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  act(() => sessionStore.setState(initialSessionState));
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the cancellation receipt', () => {
  it('says the invoice for the next period is credited and need not be paid', async () => {
    await cancelWith([{ ariaInvoiceNo: 90_000_012, outcome: 'credited' }]);
    expect(screen.getByText('Fakturaen for neste periode (faktura 90000012) er kreditert, så du skal ikke betale den.')).toBeDefined();
  });

  it('says what was paid for it is paid back, or will be', async () => {
    await cancelWith([{ ariaInvoiceNo: 90_000_012, outcome: 'refunded' }]);
    expect(screen.getByText('Fakturaen for neste periode (faktura 90000012) er kreditert, og pengene er betalt tilbake.')).toBeDefined();
    cleanup();
    await cancelWith([{ ariaInvoiceNo: 90_000_013, outcome: 'pending' }]);
    expect(screen.getByText('Fakturaen for neste periode (faktura 90000013) blir kreditert. Har du betalt den, får du pengene tilbake.')).toBeDefined();
  });

  it('says nothing of invoices when none was issued for the next period', async () => {
    await cancelWith([]);
    expect(screen.queryByText(/Fakturaen for neste periode/)).toBeNull();
  });
});
