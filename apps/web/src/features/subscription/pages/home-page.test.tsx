import { addDays, osloToday, systemClock } from '@minside/domain';
import { screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { paperSubscription, subscriber } from '../../auth/testing/fake-identity.ts';
import { cleanupPage, json, renderPage, type Call } from '../../../test/render-page.tsx';
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
    const calls = renderPage(<HomePage />, { session, answer: (call: Call) => (call.path.startsWith('overview?') ? overview : undefined) });

    await waitFor(() => expect(calls.map((call) => call.path)).toContain('overview?titleCode=ADR'));
    expect(screen.getByRole('status').textContent).toBe('Henter oversikten …');
    const asked = calls.map((call) => call.path);
    expect(asked).toEqual(
      expect.arrayContaining([
        `delivery/notices?titleCode=ADR`,
        'student/status',
        `subscription/${paperSubscription.ariaAccountNo}/ADR/withdrawal`,
        `subscription/${paperSubscription.ariaAccountNo}/ADR/changes`,
      ]),
    );
    answerOverview(json(503, { code: 'UNAVAILABLE', message: 'Ikke i denne testen.' }));
  });
});
