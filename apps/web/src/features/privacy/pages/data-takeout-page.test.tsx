import type { ExportList } from '@minside/domain';
import { QueryClient, QueryClientProvider } from '../../../lib/query/index.ts';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTakeoutPage } from './data-takeout-page.tsx';

// Issue 20 point 4: the daily export limit, in the same Norwegian words as the server's 429.

const limitMessage = 'Du kan be om en kopi av dataene dine høyst 3 ganger per dag. Prøv igjen i morgen, eller last ned en kopi du allerede har bestilt.';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function renderPage(list: ExportList, post: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => (init?.method === 'POST' ? post() : json(200, list))),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <DataTakeoutPage />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the data download page', () => {
  it('shows the server’s refusal when the daily limit is reached on the click', async () => {
    renderPage({ exports: [], remainingToday: 1 }, () => json(429, { code: 'EXPORT_DAILY_LIMIT', message: limitMessage }));
    const ask = await screen.findByRole('button', { name: 'Be om kopi av dataene mine' });
    fireEvent.click(ask);
    expect((await screen.findByRole('alert')).textContent).toBe(limitMessage);
  });

  it('closes the button and says why when no copy is left today', async () => {
    renderPage({ exports: [], remainingToday: 0 }, () => json(500, {}));
    expect((await screen.findByText(limitMessage)).getAttribute('role')).toBe('status');
    const ask = screen.getByRole('button', { name: 'Be om kopi av dataene mine' }) as HTMLButtonElement;
    expect(ask.disabled).toBe(true);
    expect(ask.getAttribute('aria-describedby')).toBe('kopi-grense');
  });
});
