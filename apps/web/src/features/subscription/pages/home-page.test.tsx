import { addDays, osloToday, systemClock } from '@minside/domain';
import { screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { paperSubscription, subscriber } from '../../auth/testing/fake-identity.ts';
import { createQueryClient } from '../../../app/query-client.ts';
import { cleanupPage, json, refusal, renderPage, type Call } from '../../../test/render-page.tsx';
import { HomePage } from './home-page.tsx';

// Issue 27 §1: the home page's parts below the overview (delivery notices, student status, the right
// of withdrawal, the change log) are asked for with the overview, not once it has answered: one round
// trip for the page in the browser, and one render pass fewer on the server.

afterEach(cleanupPage);

describe('the home page', () => {
  it('asks for the overview and for every part shown below it at once, while the overview is still on its way', async () => {
    const today = osloToday(systemClock());
    // A paper subscription on a student plan, bought three days ago: each part has something to ask.
    const session = { ...subscriber, subscription: { ...paperSubscription, ariaPlanID: 'ADR-STUDENT-M', startedOn: addDays(today, -3) } };
    let answerOverview: (response: Response) => void = () => {};
    const overview = new Promise<Response>((resolve) => (answerOverview = resolve));
    const answers: Record<string, unknown> = {
      'delivery/notices?titleCode=ADR': { notices: [] },
      'student/status': { status: null },
      [`subscription/${paperSubscription.ariaAccountNo}/ADR/withdrawal`]: {
        state: 'notAvailable',
        orderId: null,
        planName: 'Komplett',
        agreedOn: null,
        deadline: null,
        paidOre: 0,
        withdrawnAt: null,
        refunds: [],
        message: null,
      },
      [`subscription/${paperSubscription.ariaAccountNo}/ADR/changes`]: { entries: [] },
    };
    // The app's own cache: what it keeps fresh, and for how long, decides what is asked again.
    const calls = renderPage(<HomePage />, {
      session,
      client: createQueryClient(),
      answer: (call: Call) => (call.path.startsWith('overview?') ? overview : call.path in answers ? json(200, answers[call.path]) : undefined),
    });

    await waitFor(() => expect(calls.map((call) => call.path)).toContain('overview?titleCode=ADR'));
    expect(screen.getByRole('status').textContent).toBe('Henter oversikten …');
    const parts = Object.keys(answers);
    expect(calls.map((call) => call.path)).toEqual(expect.arrayContaining(parts));

    // Once the overview has answered, the parts shown then read those answers: none is asked for again.
    answerOverview(refusal(404, 'NOT_FOUND', 'Ikke i denne testen.'));
    await screen.findByRole('heading', { name: 'Endringslogg' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const part of parts)
      expect(
        calls.filter((call) => call.path === part),
        part,
      ).toHaveLength(1);
  });

  it('takes the subscription from the session the server has just answered with, and asks for it only once that is older than the cache keeps it', async () => {
    const detail = `subscription/${paperSubscription.ariaAccountNo}/ADR`;
    const calls = renderPage(<HomePage />, { session: subscriber, client: createQueryClient(), answer: () => undefined });
    await waitFor(() => expect(calls.map((call) => call.path)).toContain('overview?titleCode=ADR'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The page load's session (a server-rendered page's, or a check just made) is the server's answer of now.
    expect(calls.map((call) => call.path)).not.toContain(detail);
    cleanupPage();

    // A session the cache has kept for a minute (SPEC §9 keeps one for 300 s): its subscription may have changed since.
    const later = renderPage(<HomePage />, { session: subscriber, checkedAt: systemClock().getTime() - 60_000, client: createQueryClient(), answer: () => undefined });
    await waitFor(() => expect(later.map((call) => call.path)).toContain(detail));
  });
});
