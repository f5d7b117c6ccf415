import { systemClock, type Title } from '@minside/domain';
import { QueryClient, QueryClientProvider } from '../lib/query/index.ts';
import { act, cleanup, render } from '@testing-library/preact';
import type { ReactNode } from 'react';
import { MemoryRouter } from '../lib/router/index.ts';
import { vi } from 'vitest';
import { IdentityProvider } from '../features/auth/index.ts';
import { initialSessionState, sessionStore, setSignedIn, type SignedInSession } from '../features/auth/session.ts';
import { createFakeIdentity, subscriber } from '../features/auth/testing/fake-identity.ts';
import { adresseavisen, seedTitle } from './fixtures.ts';

/** One call the page made to the API. */
export interface Call {
  method: string;
  /** The path after /api/, with its query. */
  path: string;
  body: unknown;
}

/** The API's answer to a call (a promise: an answer the test holds back), or undefined for "not in this test" (503). */
export type Answer = (call: Call) => Response | Promise<Response> | undefined;

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A refusal as the server words it: `{code, message}`. */
export const refusal = (status: number, code: string, message: string) => json(status, { code, message });

export interface RenderPageOptions {
  answer?: Answer;
  /** Who is signed in (default Kari with a paper subscription). */
  session?: SignedInSession;
  title?: Title;
  path?: string;
  /** When the server answered with that session (default: now, as for a page the server has just sent). */
  checkedAt?: number;
  /** The query cache (default: no retries, answers stale at once); `createQueryClient()` for the app's own. */
  client?: QueryClient;
}

/**
 * Renders a page as the app does, with the title resolved, a signed-in session and a fake API:
 * `answer` decides each call's response. Answers the calls made, to read afterwards.
 */
export function renderPage(
  page: ReactNode,
  {
    answer = () => undefined,
    session = subscriber,
    title = adresseavisen,
    path = '/',
    checkedAt = systemClock().getTime(),
    client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }),
  }: RenderPageOptions = {},
): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call: Call = { method: init?.method ?? 'GET', path: `${url.pathname.replace(/^\/api\//, '')}${url.search}`, body: init?.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      return (await answer(call)) ?? json(503, { code: 'UNAVAILABLE', message: 'Ikke i denne testen.' });
    }),
  );
  setSignedIn(sessionStore, session, checkedAt);
  seedTitle(client, title);
  render(
    <QueryClientProvider client={client}>
      <IdentityProvider value={createFakeIdentity({ session })}>
        <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
      </IdentityProvider>
    </QueryClientProvider>,
  );
  return calls;
}

/** For afterEach: unmounts, signs out and puts fetch back. */
export function cleanupPage(): void {
  cleanup();
  act(() => sessionStore.setState(initialSessionState));
  vi.unstubAllGlobals();
}
