import { privacyMessages } from '@minside/domain';
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, renderPage } from '../../../test/render-page.tsx';
import { AccountDeletionPage } from './account-deletion-page.tsx';

// Issue 25.12, SPEC §5: both confirmations are needed. Without them the focus goes to the error
// summary, whose link leads to the boxes.

function show() {
  return renderPage(<AccountDeletionPage />, { path: '/spidDeleteGateway', answer: (call) => (call.method === 'GET' && call.path === 'privacy/deletion' ? json(200, { request: null }) : undefined) });
}

const remove = () => fireEvent.click(screen.getByRole('button', { name: 'Slett kontoen min' }));

afterEach(cleanupPage);

describe('deleting the account', () => {
  it('asks for both boxes through the summary, each time, before anything is sent', async () => {
    const calls = show();
    const consequences = screen.getByRole('checkbox', { name: /kontoen og abonnementene mine avsluttes/ });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Slett kontoen min' }).hasAttribute('disabled')).toBe(false));
    remove();
    let summary = await expectFocusedSummary([privacyMessages.confirmationRequired]);
    expect(followSummaryLink(summary, privacyMessages.confirmationRequired)).toBe(consequences);
    expect(screen.getByRole('group').getAttribute('aria-describedby')).toBe('bekreft-feil');

    fireEvent.click(consequences);
    remove();
    summary = await expectFocusedSummary([privacyMessages.confirmationRequired]);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  }, 20_000);
});
