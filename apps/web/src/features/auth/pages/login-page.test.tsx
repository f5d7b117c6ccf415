import { authErrorCodes, authErrorMessages } from '@minside/domain';
import { act, fireEvent, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useIdentity } from '../identity-context.tsx';
import type { FakeIdentity } from '../testing/fake-identity.ts';
import { cleanupPage, json, refusal, renderPage, type Answer } from '../../../test/render-page.tsx';
import { LoginPage } from './login-page.tsx';

// Issue 24: /logg-inn?login={token}, the portal's own page to pick how to log in.

const issuers = {
  issuers: [
    { key: 'account', label: 'kontoen din', style: 'oidc', verifiesAge: false },
    { key: 'vipps', label: 'Vipps', style: 'vipps', verifiesAge: true },
  ],
};

let identity: FakeIdentity | undefined;
function IdentitySpy() {
  identity = useIdentity() as FakeIdentity;
  return null;
}

function renderChooser(answer: Answer) {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  const calls = renderPage(
    <>
      <IdentitySpy />
      <LoginPage />
    </>,
    { path: '/logg-inn?login=token-1', answer },
  );
  return { calls, assign };
}

afterEach(() => {
  cleanupPage();
  identity = undefined;
});

describe('/logg-inn', () => {
  it('sends the browser to the issuer picked, with the same login token', async () => {
    const { calls, assign } = renderChooser((call) =>
      call.path === 'login/issuers' ? json(200, issuers) : call.path === 'login/choose' ? json(200, { authorizationUrl: 'https://vipps.example/auth?state=token-1' }) : undefined,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Logg inn med Vipps' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://vipps.example/auth?state=token-1'));
    expect(calls.find((call) => call.path === 'login/choose')?.body).toEqual({ loginToken: 'token-1', issuer: 'vipps' });
    expect(screen.getByRole('button', { name: 'Sender deg videre …' })).toHaveProperty('disabled', true);
  });

  it.each([
    ['spent', authErrorCodes.loginStateInvalid, authErrorMessages.loginStateInvalid],
    ['expired', authErrorCodes.loginExpired, authErrorMessages.loginExpired],
  ])('a %s login token is no dead end: "Start innloggingen på nytt" starts a new login', async (_kind, code, message) => {
    renderChooser((call) => (call.path === 'login/issuers' ? json(200, issuers) : call.path === 'login/choose' ? refusal(400, code, message) : undefined));
    fireEvent.click(await screen.findByRole('button', { name: 'Logg inn med e-post og passord' }));
    expect(await screen.findByText(message)).toBeDefined();
    // The picks work again, and a new login can be started.
    expect(screen.getByRole('button', { name: 'Logg inn med Vipps' })).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByRole('button', { name: 'Start innloggingen på nytt' }));
    await vi.waitFor(() => expect(identity?.logins).toEqual(['/']));
  });

  it('back from the issuer (the page restored from the back-forward cache), starts a new login instead of showing a spent one', async () => {
    const { assign } = renderChooser((call) =>
      call.path === 'login/issuers' ? json(200, issuers) : call.path === 'login/choose' ? json(200, { authorizationUrl: 'https://vipps.example/auth' }) : undefined,
    );
    // Restored before any pick (a reload of a fresh page): nothing happens.
    act(() => void window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true })));
    expect(identity?.logins).toEqual([]);
    fireEvent.click(await screen.findByRole('button', { name: 'Logg inn med Vipps' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://vipps.example/auth'));
    act(() => void window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true })));
    await vi.waitFor(() => expect(identity?.logins).toEqual(['/']));
  });
});
