import { businessErrorCodes, businessMessages, type BusinessVerifyResponse } from '@minside/domain';
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { withoutSubscription } from '../../auth/testing/fake-identity.ts';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, refusal, renderPage, type Answer } from '../../../test/render-page.tsx';
import { BusinessPage } from './business-page.tsx';

// Issue 25.12: /bedrift's two steps (the shared code entry form) move the focus to the error
// summary after a submit that ends in field errors, with the SPEC §5 and §8 messages as its links.

function show(answer: Answer = () => undefined) {
  return renderPage(<BusinessPage />, { answer, session: withoutSubscription, path: '/bedrift' });
}

const emailField = () => screen.getByRole('textbox', { name: 'Jobb-e-post' });
const sendCode = () => fireEvent.click(screen.getByRole('button', { name: 'Send kode' }));

afterEach(cleanupPage);

describe('the work address', () => {
  it('empty: the summary takes the focus with "Jobb-e-post er påkrevd", and its link leads to the field', async () => {
    const calls = show();
    sendCode();
    const summary = await expectFocusedSummary(['Jobb-e-post er påkrevd']);
    expect(followSummaryLink(summary, 'Jobb-e-post er påkrevd')).toBe(emailField());
    expect(calls).toEqual([]);
  }, 20_000);

  it('no company has the domain (the server says so): said at the field through the summary', async () => {
    show((call) => (call.path.startsWith('business/verification?') ? refusal(400, businessErrorCodes.invalidEmail, businessMessages.invalidEmail) : undefined));
    fireEvent.input(emailField(), { target: { value: 'ola@annet.no' } });
    sendCode();
    const summary = await expectFocusedSummary([businessMessages.invalidEmail]);
    expect(screen.getAllByRole('alert')).toEqual([summary]);
    expect(followSummaryLink(summary, businessMessages.invalidEmail)).toBe(emailField());
  }, 20_000);
});

describe('the code', () => {
  const sent: BusinessVerifyResponse = { email: 'ola@firma.no', companyDomain: 'firma.no', expiresAt: '2026-11-26T12:00:00Z' };
  const codeField = () => screen.getByRole('textbox', { name: 'Kode' });

  it('a wrong code (the server says so): the summary takes the focus, and its link leads to the code', async () => {
    show((call) => {
      if (call.path.startsWith('business/verification?')) return json(200, sent);
      if (call.path.startsWith('business/verification/confirm?')) return refusal(400, businessErrorCodes.codeWrong, businessMessages.codeWrong);
      return undefined;
    });
    fireEvent.input(emailField(), { target: { value: sent.email } });
    sendCode();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Skriv inn koden' })));
    fireEvent.input(codeField(), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Bekreft' }));
    const summary = await expectFocusedSummary([businessMessages.codeWrong]);
    expect(followSummaryLink(summary, businessMessages.codeWrong)).toBe(codeField());
  }, 20_000);
});
