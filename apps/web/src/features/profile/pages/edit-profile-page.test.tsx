import { profileMessages, type ProfileResponse } from '@minside/domain';
import { fireEvent, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, refusal, renderPage } from '../../../test/render-page.tsx';
import { EditProfilePage } from './edit-profile-page.tsx';

// Issue 25.12 on /endre-profil: the form's own checks and the server's word on a field both end in
// the error summary, which takes the focus and links to the field.

const profile: ProfileResponse = {
  givenName: 'Tor',
  familyName: 'Prøve',
  phoneNumber: null,
  birthdate: null,
  email: 'prove@minside.test',
  pendingEmail: null,
  emailChangeHere: true,
  sharing: { role: 'none', ownerName: null, maxMembers: 0, members: [] },
  sources: { givenName: null, familyName: null, email: null, phoneNumber: null, birthdate: null },
};

afterEach(cleanupPage);

describe('/endre-profil', () => {
  it('a number the server finds is no number stands at the phone field, through the focused summary', async () => {
    const calls = renderPage(<EditProfilePage />, {
      path: '/endre-profil',
      answer: (call) => {
        if (call.method === 'GET' && call.path === 'profile') return json(200, profile);
        if (call.method === 'GET' && call.path === 'profile/logins') return json(200, { logins: [] });
        if (call.method === 'PUT' && call.path === 'profile') return refusal(400, 'VALIDATION_ERROR', profileMessages.invalidPhone);
        return undefined;
      },
    });
    const phone = await screen.findByLabelText('Telefon');
    fireEvent.input(phone, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Lagre endringene' }));
    const summary = await expectFocusedSummary([profileMessages.invalidPhone]);
    expect(calls.some((call) => call.method === 'PUT' && call.path === 'profile')).toBe(true);
    // Said once in an alert: the summary, not a second box under the form.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(followSummaryLink(summary, profileMessages.invalidPhone)).toBe(phone);
    expect(phone.getAttribute('aria-invalid')).toBe('true');
  });
});
