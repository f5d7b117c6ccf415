import { studentResults, type StudentEmailResponse } from '@minside/domain';
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { withoutSubscription } from '../../auth/testing/fake-identity.ts';
import { expectFocusedSummary, followSummaryLink } from '../../../test/error-summary.ts';
import { cleanupPage, json, refusal, renderPage, type Answer } from '../../../test/render-page.tsx';
import { StudentVerificationPage } from './student-verification-page.tsx';

// Issue 25.12: a step that ends in field errors, the page's own checks or the server's answer
// about the address or the code, moves the focus to the error summary at the top of that step.

const sent: StudentEmailResponse = { result: 'CODE_SENT', email: 'jonas@stud.ntnu.no', expiresAt: '2026-11-26T12:00:00Z', message: 'Vi har sendt en kode til jonas@stud.ntnu.no.' };

function show(answer: Answer = () => undefined) {
  return renderPage(<StudentVerificationPage />, { answer, session: withoutSubscription, path: '/student-verifisering' });
}

const emailField = () => screen.getByRole('textbox', { name: 'Student-e-post' });
const sendCode = () => fireEvent.click(screen.getByRole('button', { name: 'Send kode' }));

afterEach(cleanupPage);

describe('step 1, the student address', () => {
  it('empty: the summary takes the focus, and its link leads to the field', async () => {
    const calls = show();
    sendCode();
    const summary = await expectFocusedSummary([studentResults.MISSING_PARAMETERS.message]);
    expect(followSummaryLink(summary, studentResults.MISSING_PARAMETERS.message)).toBe(emailField());
    expect(emailField().getAttribute('aria-invalid')).toBe('true');
    expect(calls).toEqual([]);
  }, 20_000);

  it('not at a student domain (the server says so): the same, with the server’s words at the field and no second alert', async () => {
    show((call) => (call.path.startsWith('student-email/') ? refusal(400, 'EMAIL_WRONG', studentResults.EMAIL_WRONG.message) : undefined));
    fireEvent.input(emailField(), { target: { value: 'jonas@gmail.com' } });
    sendCode();
    const summary = await expectFocusedSummary([studentResults.EMAIL_WRONG.message]);
    expect(screen.getAllByRole('alert')).toEqual([summary]);
    expect(followSummaryLink(summary, studentResults.EMAIL_WRONG.message)).toBe(emailField());
  }, 20_000);

  it('a refusal that is not about the address stays an alert, and no summary', async () => {
    show((call) => (call.path.startsWith('student-email/') ? refusal(409, 'USER_EXIST_ACTIVE', studentResults.USER_EXIST_ACTIVE.message) : undefined));
    fireEvent.input(emailField(), { target: { value: 'jonas@stud.ntnu.no' } });
    sendCode();
    expect((await screen.findByRole('alert')).textContent).toBe(studentResults.USER_EXIST_ACTIVE.message);
    expect(screen.queryByRole('alert', { name: 'Det er noe som må rettes' })).toBeNull();
  }, 20_000);
});

describe('step 2, the code', () => {
  async function atCodeStep(answer: Answer) {
    const calls = show((call) => (call.path.startsWith('student-email/') ? json(200, sent) : answer(call)));
    fireEvent.input(emailField(), { target: { value: sent.email } });
    sendCode();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Skriv inn koden' })));
    return calls;
  }
  const codeField = () => screen.getByRole('textbox', { name: 'Kode' });
  const confirm = () => fireEvent.click(screen.getByRole('button', { name: 'Bekreft og start abonnementet' }));

  it('too short: the summary takes the focus, and its link leads to the code', async () => {
    await atCodeStep(() => undefined);
    fireEvent.input(codeField(), { target: { value: '123' } });
    confirm();
    const summary = await expectFocusedSummary(['Koden har 6 siffer.']);
    expect(followSummaryLink(summary, 'Koden har 6 siffer.')).toBe(codeField());
  }, 20_000);

  it('a wrong code (the server says so) is said at the code field through the summary, each time it is sent', async () => {
    const calls = await atCodeStep((call) => (call.path.startsWith('activate-student-subscription/') ? refusal(400, 'CODE_WRONG', studentResults.CODE_WRONG.message) : undefined));
    fireEvent.input(codeField(), { target: { value: '000000' } });
    confirm();
    const summary = await expectFocusedSummary([studentResults.CODE_WRONG.message]);
    expect(screen.getAllByRole('alert')).toEqual([summary]);
    expect(followSummaryLink(summary, studentResults.CODE_WRONG.message)).toBe(codeField());

    // Sent again unchanged: the new answer, the same words, takes the focus again once it has come
    // (the summary of the first answer must not take it and then go while the call runs).
    confirm();
    await waitFor(() => expect(calls.filter((call) => call.path.startsWith('activate-student-subscription/'))).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Bekreft og start abonnementet' }).hasAttribute('disabled')).toBe(false));
    await expectFocusedSummary([studentResults.CODE_WRONG.message]);
  }, 20_000);
});
