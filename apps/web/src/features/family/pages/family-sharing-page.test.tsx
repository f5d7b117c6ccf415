import { validationMessages, type FamilyOverview } from '@minside/domain';
import { fireEvent, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, renderPage } from '../../../test/render-page.tsx';
import { FamilySharingPage } from './family-sharing-page.tsx';

// Issue 25.12: the owner's invitation form moves the focus to the error summary after a submit
// with a missing or malformed address (SPEC §5 messages), and its link leads to the field.

const owner: FamilyOverview = { role: 'owner', titleName: 'Adresseavisen', planName: 'Papir + digital', maxMembers: 4, remaining: 4, invitations: [] };

function show() {
  return renderPage(<FamilySharingPage />, { path: '/familiedeling', answer: (call) => (call.method === 'GET' && call.path.startsWith('family?') ? json(200, owner) : undefined) });
}

const sendInvitation = () => fireEvent.click(screen.getByRole('button', { name: 'Send invitasjon' }));

afterEach(cleanupPage);

describe('inviting', () => {
  it('with no address, then a malformed one: each time the summary takes the focus with the field’s message, and its link leads there', async () => {
    const calls = show();
    const field = await screen.findByRole('textbox', { name: 'E-postadresse' });
    sendInvitation();
    let summary = await expectFocusedSummary(['E-post er påkrevd']);
    expect(followSummaryLink(summary, 'E-post er påkrevd')).toBe(field);

    fireEvent.input(field, { target: { value: 'ola@' } });
    sendInvitation();
    summary = await expectFocusedSummary([validationMessages.invalidEmail]);
    expect(followSummaryLink(summary, validationMessages.invalidEmail)).toBe(field);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  }, 20_000);
});
