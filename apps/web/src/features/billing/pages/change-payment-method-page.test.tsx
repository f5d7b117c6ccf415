import type { ChangePaymentMethodResponse, PaymentMethodDetails } from '@minside/domain';
import { systemClock } from '@minside/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { MemoryRouter } from '../../../lib/router/index.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { IdentityProvider } from '../../auth/index.ts';
import { initialSessionState, sessionStore, setSignedIn } from '../../auth/session.ts';
import { createFakeIdentity, subscriber } from '../../auth/testing/fake-identity.ts';
import { ChangePaymentMethodPage } from './change-payment-method-page.tsx';

// Issue 21: AvtaleGiro without an account number; the payer confirms it in their own netbank.

const card: PaymentMethodDetails = {
  ariaAccountNo: 4242,
  titleCode: 'ADR',
  method: 'CARD',
  providerCode: 'SWEDBANK-PPG',
  label: 'Betalingskort',
  card: { brand: 'Visa', last4: '4242', maskedNumber: '**** **** **** 4242', expiryMonth: 8, expiryYear: 2028 },
  vippsAgreement: null,
  avtaleGiro: null,
  changeable: true,
  choices: ['SWEDBANK-PPG', 'VIPPS', 'AVTALEGIRO', 'BANKGIRO'],
};

const avtaleGiro = (status: 'PENDING' | 'ACTIVE'): PaymentMethodDetails => ({
  ...card,
  method: 'AVTALEGIRO',
  providerCode: 'AVTALEGIRO',
  label: 'AvtaleGiro',
  card: null,
  avtaleGiro: { kid: '000424200017', payeeName: 'Adresseavisen', payeeAccountNumber: '1503.12.34567', status },
});

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

interface Call {
  method: string;
  url: string;
  body: unknown;
}

function renderPage(current: PaymentMethodDetails, answer?: ChangePaymentMethodResponse) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.endsWith('/paymentMethod') && method === 'GET') return json(200, current);
      if (url.endsWith('/subscription/paymentMethod') && method === 'PUT' && answer) return json(200, answer);
      return json(503, { code: 'UNAVAILABLE', message: 'Ikke i denne testen.' });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <IdentityProvider value={createFakeIdentity({ session: subscriber })}>
        <MemoryRouter initialEntries={['/endre-betalingsmetode']}>
          <ChangePaymentMethodPage />
        </MemoryRouter>
      </IdentityProvider>
    </QueryClientProvider>,
  );
  return calls;
}

function currentMethod(): HTMLElement {
  return screen.getByRole('region', { name: 'Nåværende betalingsmetode' });
}

beforeEach(() => {
  setSignedIn(sessionStore, subscriber, systemClock().getTime());
  // The subscription refetch after a change is not answered here; the page logs and carries on.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  act(() => sessionStore.setState(initialSessionState));
  vi.unstubAllGlobals();
});

describe('the methods offered', () => {
  it('are the ones the portal’s payment provider can take: no stored card where it keeps none', async () => {
    renderPage({ ...card, method: 'VIPPS', providerCode: 'VIPPS', label: 'Vipps', card: null, choices: ['VIPPS', 'AVTALEGIRO', 'BANKGIRO'] });
    expect(await screen.findByRole('radio', { name: /AvtaleGiro/ })).toBeDefined();
    expect(screen.queryByRole('radio', { name: /Betalingskort/ })).toBeNull();
    expect(screen.getAllByRole('radio')).toHaveLength(3);
  });
});

describe('saving with no method chosen', () => {
  it('moves the focus to the error summary (issue 25.12), whose link leads to the first method that can be chosen', async () => {
    const calls = renderPage(card);
    await screen.findByRole('radio', { name: /AvtaleGiro/ });
    fireEvent.click(screen.getByRole('button', { name: 'Lagre betalingsmetode' }));
    const summary = await expectFocusedSummary(['Betalingsmetode er påkrevd']);
    // The card in use cannot be chosen again: the link goes to the next one.
    expect(followSummaryLink(summary, 'Betalingsmetode er påkrevd')).toBe(screen.getByRole('radio', { name: /^Vipps/ }));
    expect(screen.getByRole('group', { name: 'Velg ny betalingsmetode' }).getAttribute('aria-describedby')).toBe('ny-metode-feil');
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });
});

describe('a card kept by an earlier payment provider', () => {
  it('says nothing is drawn from it any more, and offers no card change', async () => {
    renderPage({ ...card, choices: ['VIPPS', 'AVTALEGIRO', 'BANKGIRO'] });
    await screen.findByText('Visa **** **** **** 4242');
    expect(currentMethod().textContent).toContain('Vi kan ikke lenger trekke fra dette kortet. Fakturaene kommer på e-post');
    expect(screen.queryByRole('link', { name: 'Bytt betalingskort' })).toBeNull();
  });

  it('is shown as it is where the provider keeps cards', async () => {
    renderPage(card);
    await screen.findByText('Visa **** **** **** 4242');
    expect(currentMethod().textContent).not.toContain('Vi kan ikke lenger trekke');
    expect(screen.getByRole('link', { name: 'Bytt betalingskort' })).toBeDefined();
  });
});

describe('choosing AvtaleGiro', () => {
  it('asks for no account number, and says before the choice that the agreement is finished in the netbank', async () => {
    renderPage(card);
    const radio = await screen.findByRole('radio', { name: /AvtaleGiro/ });
    expect(radio.getAttribute('aria-describedby')).toBe('metode-AVTALEGIRO-hint');
    fireEvent.click(radio);

    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByText(/Kontonummer er påkrevd/)).toBeNull();
    const explanation = document.getElementById('avtalegiro-forklaring');
    expect(explanation?.textContent).toContain('Du gjør ferdig avtalen i din egen nettbank');
    expect(explanation?.textContent).toContain('Du trenger ikke oppgi kontonummer her.');
    expect(explanation?.textContent).toContain('Til banken har bekreftet avtalen, får du fakturaene som vanlig giro.');
    expect(radio.getAttribute('aria-describedby')).toBe('metode-AVTALEGIRO-hint avtalegiro-forklaring');
  });

  it('sends only the method, then shows the steps in the netbank with the KID, and moves the focus there', async () => {
    const calls = renderPage(card, { result: 'PENDING_BANK_CONFIRMATION', redirectUrl: null, paymentId: null, paymentMethod: avtaleGiro('PENDING') });
    fireEvent.click(await screen.findByRole('radio', { name: /AvtaleGiro/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Bruk AvtaleGiro' }));

    const heading = await screen.findByRole('heading', { name: 'Slik bekrefter du AvtaleGiro i nettbanken' });
    await waitFor(() => expect(document.activeElement).toBe(heading));

    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.url).toBe('/api/subscription/paymentMethod');
    expect(Object.keys(put?.body as object).sort()).toEqual(['ariaAccountNo', 'idempotencyKey', 'method', 'titleCode']);
    expect(put?.body).toMatchObject({ ariaAccountNo: 4242, titleCode: 'ADR', method: 'AVTALEGIRO' });

    const done = screen.getByText('AvtaleGiro er registrert hos oss. Nå gjenstår det bare å bekrefte avtalen i nettbanken din – oppskriften står under.');
    expect(done.getAttribute('role')).toBe('status');
    expect(within(currentMethod()).getByText('Venter på bekreftelse fra banken')).toBeDefined();
    expect(screen.getByRole('radio', { name: /AvtaleGiro \(den du har nå\)/ })).toHaveProperty('disabled', true);
  });
});

describe('an AvtaleGiro the bank has not confirmed', () => {
  it('shows the four steps: the netbank, the payee, the KID and the account with a maximum amount', async () => {
    renderPage(avtaleGiro('PENDING'));
    const steps = await screen.findByRole('region', { name: 'Slik bekrefter du AvtaleGiro i nettbanken' });
    const items = within(steps)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toHaveLength(4);
    expect(items[0]).toBe('Logg inn i nettbanken og åpne AvtaleGiro. I noen banker heter det eFaktura og AvtaleGiro.');
    expect(items[1]).toContain('Søk etter Adresseavisen og velg den.');
    expect(items[1]).toContain('Finner du den ikke, kan du søke på kontonummeret 1503.12.34567.');
    expect(items[2]).toContain('Skriv inn KID-nummeret ditt:');
    expect(within(steps).getByText('000424200017').tagName).toBe('CODE');
    expect(items[3]).toContain('Velg kontoen beløpet skal trekkes fra, og et maksbeløp per trekk.');
  });

  it('says it waits for the bank, with the KID, and that invoices come as giro until then', async () => {
    renderPage(avtaleGiro('PENDING'));
    await screen.findByText('Venter på bekreftelse fra banken');
    const current = currentMethod();
    expect(current.textContent).toContain('KID for avtalen: 000424200017');
    expect(current.textContent).toContain('Til banken har bekreftet avtalen, får du fakturaene som vanlig giro.');
    expect(current.textContent).not.toContain('Fra konto');
  });

  it('copies the KID with one press', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPage(avtaleGiro('PENDING'));
    fireEvent.click(await screen.findByRole('button', { name: 'Kopier KID' }));
    expect(writeText).toHaveBeenCalledWith('000424200017');
    expect(await screen.findByRole('button', { name: 'Kopiert' })).toBeDefined();
    expect(screen.getByText('KID-nummeret er kopiert.')).toBeDefined();
  });

  it('says how to copy by hand when the browser refuses', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) } });
    renderPage(avtaleGiro('PENDING'));
    fireEvent.click(await screen.findByRole('button', { name: 'Kopier KID' }));
    expect(await screen.findByText('Vi fikk ikke kopiert. Merk KID-nummeret og kopier det selv.')).toBeDefined();
  });
});

describe('an AvtaleGiro the bank has confirmed', () => {
  it('says so with the KID, and shows no steps', async () => {
    renderPage(avtaleGiro('ACTIVE'));
    await screen.findByText('AvtaleGiro er bekreftet av banken');
    expect(currentMethod().textContent).toContain('KID for avtalen: 000424200017');
    expect(screen.queryByText('Venter på bekreftelse fra banken')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Slik bekrefter du AvtaleGiro i nettbanken' })).toBeNull();
  });
});

describe('a Vipps agreement', () => {
  const vipps: PaymentMethodDetails = {
    ...card,
    method: 'VIPPS',
    providerCode: 'VIPPS',
    label: 'Vipps',
    card: null,
    vippsAgreement: { agreementId: 'agr_1', phoneNumber: null },
    choices: ['VIPPS', 'AVTALEGIRO', 'BANKGIRO'],
  };
  const giro: PaymentMethodDetails = { ...card, method: 'INVOICE', providerCode: 'BANKGIRO', label: 'Giro / eFaktura', card: null, choices: ['VIPPS', 'AVTALEGIRO', 'BANKGIRO'] };

  it('is stopped from the page after one more question, which moves the subscription to giro', async () => {
    const calls = renderPage(vipps, { result: 'CHANGED', redirectUrl: null, paymentId: null, paymentMethod: giro });
    fireEvent.click(await screen.findByRole('button', { name: 'Stopp Vipps-avtalen' }));
    expect(within(currentMethod()).getByText('Fast betaling med Vipps')).toBeDefined();
    const question = screen.getByRole('region', { name: 'Stoppe Vipps-avtalen?' });
    expect(question.textContent).toContain('Fakturaene kommer som giro med KID på e-post');
    // Keeping it changes nothing.
    fireEvent.click(within(question).getByRole('button', { name: 'Behold avtalen' }));
    expect(screen.queryByRole('region', { name: 'Stoppe Vipps-avtalen?' })).toBeNull();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Stopp Vipps-avtalen' }));
    fireEvent.click(within(screen.getByRole('region', { name: 'Stoppe Vipps-avtalen?' })).getByRole('button', { name: 'Ja, stopp avtalen' }));
    expect(await screen.findByText('Vipps-avtalen er stoppet, også i Vipps. Fakturaene kommer nå som giro med KID på e-post.')).toBeDefined();
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({ ariaAccountNo: 4242, titleCode: 'ADR', method: 'BANKGIRO' });
  });

  it('has no stop button where the subscriber cannot change the method', async () => {
    renderPage({ ...vipps, changeable: false });
    await screen.findByText('Fast betaling med Vipps');
    expect(screen.queryByRole('button', { name: 'Stopp Vipps-avtalen' })).toBeNull();
  });
});
