import type { BilledPeriod, ReactivateSubscriptionResponse, Subscription } from '@minside/domain';
import { addDays, addMonths, formatLongDate, osloToday, systemClock } from '@minside/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { MemoryRouter, Route, Routes } from '../../../lib/router/index.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pathTo } from '../../../app/paths.ts';
import { IdentityProvider } from '../../auth/index.ts';
import { initialSessionState, sessionStore, setSignedIn } from '../../auth/session.ts';
import { createFakeIdentity, paperSubscription, subscriber } from '../../auth/testing/fake-identity.ts';
import { SubscriptionReactivatedPage } from './subscription-reactivated-page.tsx';

// "Start abonnementet igjen" gives access at once and bills the new period at once (ADR 006): the
// receipt says, in one sentence, what is billed and how it gets paid — as POST reactivateSubscription/ answered.

const today = osloToday(systemClock());
const periodEnd = addMonths(today, 1);
const expired: Subscription = { ...paperSubscription, instStatusCode: -2, currentPeriodEnd: addDays(today, -20), cancelledAt: addDays(today, -50) };
const running: Subscription = { ...paperSubscription, instStatusCode: 1, currentPeriodEnd: periodEnd, cancelledAt: null };
const period = `${formatLongDate(today)} – ${formatLongDate(addDays(periodEnd, -1))}`;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** From the expired subscription's offer to the receipt, with the server answering `invoice`. */
async function reactivateWith(invoice: BilledPeriod | null) {
  const answer: ReactivateSubscriptionResponse = { result: 'ok', message: 'Abonnementet ditt er startet igjen.', subscription: running, invoice };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/api/reactivateSubscription/') && init?.method === 'POST') return json(200, answer);
      return json(503, { code: 'UNAVAILABLE', message: 'Ikke i denne testen.' });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const session = { ...subscriber, subscription: expired };
  setSignedIn(sessionStore, session, systemClock().getTime());
  render(
    <QueryClientProvider client={client}>
      <IdentityProvider value={createFakeIdentity({ session })}>
        <MemoryRouter initialEntries={[pathTo('subscriptionReactivated')]}>
          <Routes>
            <Route path={pathTo('subscriptionReactivated')} element={<SubscriptionReactivatedPage />} />
          </Routes>
        </MemoryRouter>
      </IdentityProvider>
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByRole('button', { name: 'Start abonnementet igjen' }));
  // The status is exactly what it was before the invoice was told of (e2e/tests/my-subscription.spec.ts reads it whole).
  expect((await screen.findByRole('status')).textContent).toBe('Papir + digital er i gang igjen. Du har tilgang til alt med en gang.');
}

const billed = (payment: BilledPeriod['payment'], amountOre = 59_900, dueOn = today): BilledPeriod => ({
  ariaInvoiceNo: 90_000_021,
  amountOre,
  periodFrom: today,
  periodTo: addDays(periodEnd, -1),
  dueOn,
  payment,
});

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

describe('the reactivation receipt', () => {
  it('a giro payer (or a card nothing stored can charge) gets an invoice for the new period', async () => {
    await reactivateWith(billed('invoice'));
    expect(screen.getByText(`Du får faktura på 599 kr for perioden ${period}.`)).toBeDefined();
  });

  it('a stored card or Vipps agreement is charged for it', async () => {
    await reactivateWith(billed('card'));
    expect(screen.getByText(`Vi trekker 599 kr for perioden ${period} fra betalingskortet ditt.`)).toBeDefined();
    cleanup();
    await reactivateWith(billed('vipps', 9_900));
    expect(screen.getByText(`Vi trekker 99 kr for perioden ${period} fra Vipps-avtalen din.`)).toBeDefined();
  });

  it('AvtaleGiro: the bank draws it on its due date', async () => {
    const dueOn = addDays(today, 5);
    await reactivateWith(billed('avtalegiro', 59_900, dueOn));
    expect(screen.getByText(`Banken trekker 599 kr for perioden ${period} med AvtaleGiro ${formatLongDate(dueOn)}.`)).toBeDefined();
  });

  it('nothing to pay (a discount or a credit covers it), or no invoice: no amount is named', async () => {
    await reactivateWith(billed('settled', 0));
    expect(screen.getByText(`Du har ingenting å betale for perioden ${period}.`)).toBeDefined();
    cleanup();
    await reactivateWith(null);
    expect(screen.queryByText(/for perioden/)).toBeNull();
  });
});
