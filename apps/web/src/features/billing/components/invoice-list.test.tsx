import type { Invoice } from '@minside/domain';
import { cleanup, render, screen, within } from '@testing-library/preact';
import { MemoryRouter } from '../../../lib/router/index.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvoiceDetails } from './invoice-details.tsx';
import { InvoiceList } from './invoice-list.tsx';

// Issue 21: a paid invoice says how and when it was paid (Oslo day of paidAt).

const base: Invoice = {
  ariaInvoiceNo: 9001,
  ariaAccountNo: 4242,
  titleCode: 'ADR',
  kid: '0004242900103',
  amountOre: 64_900,
  status: 'PAID',
  description: 'Papir + digital, mars',
  periodFrom: '2026-03-01',
  periodTo: '2026-03-31',
  dueOn: '2026-03-05',
  bankAccountNumber: '1503.12.34567',
  paidAt: '2026-03-03T11:00:00.000Z',
  settledBy: 'BANKGIRO',
  payable: false,
  paidOre: 64_900,
  creditedOre: 0,
  openOre: 0,
  avtaleGiroDrawOn: null,
  avtaleGiroDrawOre: null,
  collection: 'PAID',
  scheduledDrawOn: null,
};

const invoices: Invoice[] = [
  {
    ...base,
    ariaInvoiceNo: 9007,
    status: 'UNPAID',
    paidAt: null,
    settledBy: null,
    payable: false,
    paidOre: 0,
    openOre: 64_900,
    avtaleGiroDrawOn: '2026-09-05',
    avtaleGiroDrawOre: 64_900,
    collection: 'AVTALEGIRO_SCHEDULED',
    scheduledDrawOn: '2026-09-05',
    description: 'Papir + digital, september',
  },
  { ...base, ariaInvoiceNo: 9006, status: 'OVERDUE', paidAt: null, settledBy: null, payable: true, paidOre: 20_000, openOre: 44_900, collection: 'OVERDUE', description: 'Papir + digital, august' },
  { ...base, ariaInvoiceNo: 9005, status: 'UNPAID', paidAt: null, settledBy: null, payable: true, paidOre: 0, openOre: 64_900, collection: 'DUE', description: 'Papir + digital, juli' },
  {
    ...base,
    ariaInvoiceNo: 9008,
    status: 'UNPAID',
    paidAt: null,
    settledBy: null,
    payable: true,
    paidOre: 0,
    creditedOre: 5_000,
    openOre: 59_900,
    collection: 'DUE',
    description: 'Papir + digital, oktober',
  },
  // Issue 25.6: the bank draws it (the claim not yet fixed, so the server would take a payment): no "Betal" all the same.
  {
    ...base,
    ariaInvoiceNo: 9010,
    status: 'UNPAID',
    paidAt: null,
    settledBy: null,
    payable: true,
    paidOre: 0,
    openOre: 64_900,
    collection: 'AVTALEGIRO_SCHEDULED',
    scheduledDrawOn: '2026-12-05',
    dueOn: '2026-12-05',
    description: 'Papir + digital, desember',
  },
  // The bank's draw failed: the payer's to pay, and "Betal" is offered.
  {
    ...base,
    ariaInvoiceNo: 9009,
    status: 'OVERDUE',
    paidAt: null,
    settledBy: null,
    payable: true,
    paidOre: 0,
    openOre: 64_900,
    collection: 'AVTALEGIRO_FAILED',
    description: 'Papir + digital, november',
  },
  { ...base, ariaInvoiceNo: 9004, settledBy: 'AVTALEGIRO', paidAt: '2026-06-30T10:00:00.000Z', description: 'Papir + digital, juni' },
  { ...base, ariaInvoiceNo: 9003, settledBy: 'VIPPS', paidAt: '2026-04-30T22:30:00.000Z', description: 'Papir + digital, mai' },
  { ...base, ariaInvoiceNo: 9002, settledBy: 'SWEDBANK-PPG', description: 'Papir + digital, april' },
  { ...base, ariaInvoiceNo: 9001, settledBy: 'BANKGIRO' },
  { ...base, ariaInvoiceNo: 9000, settledBy: 'CREDIT', description: 'Papir + digital, februar' },
  { ...base, ariaInvoiceNo: 8999, settledBy: 'CREDIT', paidOre: 0, creditedOre: 64_900, description: 'Papir + digital, januar' },
];

const expected: Record<number, string | null> = {
  // Open, with what is under way: the bank's draw, a part-payment in the netbank.
  9007: 'Trekkes automatisk 5. september 2026',
  9010: 'Trekkes automatisk 5. desember 2026',
  9009: 'AvtaleGiro-trekket gikk ikke gjennom',
  9006: 'Delbetalt 200 kr – 449 kr gjenstår',
  9005: 'Forfaller 5. mars 2026',
  // A complaint's credit note set off against it: less is due, and it is not "Delbetalt".
  9008: 'Fratrukket kreditnota 50 kr – 599 kr å betale',
  9004: 'Betalt 30. juni 2026 med AvtaleGiro',
  9003: 'Betalt 1. mai 2026 med Vipps',
  9002: 'Betalt 3. mars 2026 med kort',
  9001: 'Betalt 3. mars 2026 i nettbank',
  9000: 'Kreditert 3. mars 2026',
  // Paid in full by a complaint's credit set off against it.
  8999: 'Betalt med kreditnota 3. mars 2026',
};

function screenWidth(wide: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: wide, media: query, addEventListener() {}, removeEventListener() {} }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the invoice list', () => {
  it('on wide screens: each paid row says how and when it was paid, under Betalt', () => {
    screenWidth(true);
    render(
      <MemoryRouter>
        <InvoiceList invoices={invoices} />
      </MemoryRouter>,
    );
    for (const [no, text] of Object.entries(expected)) {
      const row = screen.getAllByRole('row').find((candidate) => candidate.textContent?.includes(`Fakturanr. ${no}`));
      if (!row) throw new Error(`no row for ${no}`);
      if (text) expect(within(row).getByText(text)).toBeDefined();
      else expect(row.textContent).not.toMatch(/Betalt \d/);
    }
    // Settled by a credit note: the badge says Kreditert, not Betalt (issue 23).
    const credited = screen.getAllByRole('row').find((candidate) => candidate.textContent?.includes('Fakturanr. 9000'));
    expect(credited && within(credited).getByText('Kreditert')).toBeTruthy();
    expect(credited && within(credited).queryByText('Betalt')).toBeNull();
  });

  it('on narrow screens: the same under the amount of each card', () => {
    screenWidth(false);
    render(
      <MemoryRouter>
        <InvoiceList invoices={invoices} />
      </MemoryRouter>,
    );
    const cards = screen.getAllByRole('article');
    expect(cards).toHaveLength(invoices.length);
    invoices.forEach((invoice, index) => {
      const text = expected[invoice.ariaInvoiceNo];
      const card = cards[index];
      if (!card) throw new Error('missing card');
      if (text) expect(within(card).getByText(text)).toBeDefined();
      // Only what is past due says Forfalt; a coming one, drawn by the bank or not, is never "Ikke betalt" (issue 25.6).
      if (invoice.status !== 'PAID') expect(card.textContent).toMatch(invoice.collection === 'OVERDUE' || invoice.collection === 'AVTALEGIRO_FAILED' ? /Forfalt/ : /Kommende/);
      expect(card.textContent).not.toMatch(/Ikke betalt/);
    });
  });

  it('offers "Betal" only where the subscriber has to pay: never on an invoice the bank draws, unless its draw failed', () => {
    for (const wide of [true, false]) {
      screenWidth(wide);
      render(
        <MemoryRouter>
          <InvoiceList invoices={invoices} />
        </MemoryRouter>,
      );
      const offered = screen
        .queryAllByRole('link')
        .map((link) => /^Betal faktura (\d+)$/.exec(link.textContent ?? '')?.[1])
        .filter((no) => no !== undefined);
      expect(offered.sort()).toEqual(['9005', '9006', '9008', '9009']);
      cleanup();
    }
  });

  it('says the period once, in its own column or line, not again in the description in another style (issue 25.13)', () => {
    const stored: Invoice = { ...base, ariaInvoiceNo: 9100, description: 'Komplett, 1. mars 2026 – 31. mars 2026 (rabatt VELKOMMEN20)' };
    for (const wide of [true, false]) {
      screenWidth(wide);
      render(
        <MemoryRouter>
          <InvoiceList invoices={[stored]} />
        </MemoryRouter>,
      );
      const holder = wide ? screen.getAllByRole('row')[1] : screen.getByRole('article');
      expect(holder?.textContent).toContain('Komplett (rabatt VELKOMMEN20)');
      expect(holder?.textContent).toContain('01.03.2026–31.03.2026');
      expect(holder?.textContent).not.toContain('1. mars 2026');
      cleanup();
    }
  });
});

describe('one invoice', () => {
  it('says how and when it was paid', () => {
    render(<InvoiceDetails invoice={{ ...base, settledBy: 'AVTALEGIRO' }} />);
    expect(screen.getByText('Betalt 3. mars 2026 med AvtaleGiro')).toBeDefined();
  });

  it('while open: the bank’s AvtaleGiro draw and a part-payment, no "Betalt"', () => {
    render(<InvoiceDetails invoice={{ ...base, status: 'UNPAID', paidAt: null, settledBy: null, paidOre: 10_000, openOre: 54_900, avtaleGiroDrawOn: '2026-03-05' }} />);
    expect(screen.getByText('Trekkes med AvtaleGiro 5. mars 2026')).toBeDefined();
    expect(screen.getByText('Delbetalt 100 kr – 549 kr gjenstår')).toBeDefined();
    expect(screen.queryByText(/Betalt \d/)).toBeNull();
  });

  it('with a complaint’s credit note set off against it, says what is taken off and what is left to pay (the pay-link page too)', () => {
    render(<InvoiceDetails invoice={{ ...base, status: 'UNPAID', paidAt: null, settledBy: null, paidOre: 0, creditedOre: 5_000, openOre: 59_900, avtaleGiroDrawOn: null }} />);
    expect(screen.getByText('Fratrukket kreditnota 50 kr – 599 kr å betale', { normalizer: (text) => text.replace(/\s+/g, ' ') })).toBeDefined();
  });

  it('after the due date, a claim waits for the bank’s answer', () => {
    render(<InvoiceDetails invoice={{ ...base, status: 'OVERDUE', paidAt: null, settledBy: null, paidOre: 0, openOre: 64_900, avtaleGiroDrawOn: '2026-03-05' }} />);
    expect(screen.getByText('Trekk med AvtaleGiro 5. mars 2026 – venter på svar fra banken')).toBeDefined();
  });

  it('says nothing of it while open, nor from a pay-link without the time', () => {
    render(<InvoiceDetails invoice={{ ...base, status: 'UNPAID', paidAt: null, settledBy: null }} />);
    expect(screen.queryByText(/Betalt \d/)).toBeNull();
    cleanup();
    const { paidAt: _paidAt, settledBy: _settledBy, ...paylink } = base;
    render(<InvoiceDetails invoice={paylink} />);
    expect(screen.queryByText(/Betalt \d/)).toBeNull();
  });
});
