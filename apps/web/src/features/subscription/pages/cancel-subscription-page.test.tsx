import { cancellationMessages } from '@minside/domain';
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, renderPage } from '../../../test/render-page.tsx';
import { CancelSubscriptionPage } from './cancel-subscription-page.tsx';

// Issue 25.12: the cancellation survey insists on a reason, and on words for "Annet", through the
// error summary that takes the focus; its links lead to the choices and to the text field.

function show() {
  return renderPage(<CancelSubscriptionPage />, { path: '/avslutt-abonnement', answer: (call) => (call.path.endsWith('/retention-offer') ? json(200, { offer: null }) : undefined) });
}

const next = () => fireEvent.click(screen.getByRole('button', { name: 'Neste' }));

beforeEach(() => {
  // The subscription's refetch is not answered here; the page keeps the session's.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(cleanupPage);

describe('the survey', () => {
  it('no reason, then "Annet" with no words: each time the summary takes the focus, and its link leads to what is missing', async () => {
    show();
    next();
    let summary = await expectFocusedSummary([cancellationMessages.reasonRequired]);
    expect(followSummaryLink(summary, 'Årsak er påkrevd')).toBe(screen.getByRole('radio', { name: 'Det er for dyrt' }));

    fireEvent.click(screen.getByRole('radio', { name: 'Annet' }));
    // A reason put right drops out of the summary (and the summary goes with its last error).
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Det er noe som må rettes' })).toBeNull());
    next();
    summary = await expectFocusedSummary(['Beskrivelse er påkrevd']);
    const text = screen.getByRole('textbox', { name: 'Beskrivelse' });
    expect(followSummaryLink(summary, 'Beskrivelse er påkrevd')).toBe(text);
    expect(text.getAttribute('aria-invalid')).toBe('true');
    // Said once, by the summary: the field's own message is no alert.
    expect(screen.getAllByRole('alert')).toEqual([summary]);
  }, 20_000);
});
