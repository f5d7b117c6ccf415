import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import { isApiError } from '../../../lib/http.ts';
import { useIdentity } from '../identity-context.tsx';
import { authMessages } from '../messages.ts';
import styles from './callback-page.module.css';

export const LOGIN_FAILED_MESSAGE = 'Innloggingen mislyktes.';
export const LOGIN_CANCELLED_MESSAGE = 'Innloggingen ble avbrutt.';
export const LOGIN_NOT_STARTED_MESSAGE = authMessages.loginNotStarted;

/** What the provider's `?error=` means to the user. Its own description is not shown: it is English and unvetted. */
export function providerErrorMessage(error: string): string {
  return error === 'access_denied' ? LOGIN_CANCELLED_MESSAGE : LOGIN_FAILED_MESSAGE;
}

/** The server's Norwegian message for a refused login (4xx); anything else gets the generic one. */
export function completionErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status >= 400 && error.status < 500 && error.message) return error.message;
  return LOGIN_FAILED_MESSAGE;
}

/**
 * SPEC §4 /callback: posts what the provider sent back to /api/handlecode, stores the
 * session and goes on to where the login started. The identity client posts each code once,
 * so StrictMode's second effect run and a remount wait on the same request.
 */
export function CallbackPage() {
  const identity = useIdentity();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code');
  const state = params.get('state');
  const iss = params.get('iss');
  const providerError = params.get('error');
  const invalidReturn = providerError !== null ? providerErrorMessage(providerError) : !code || !state ? LOGIN_FAILED_MESSAGE : null;

  const [failure, setFailure] = useState<string | null>(null);
  const [retry, setRetry] = useState<'idle' | 'starting' | 'failed'>('idle');

  useEffect(() => {
    if (invalidReturn !== null || !code || !state) return;
    let current = true;
    identity.completeLogin({ code, state, ...(iss ? { iss } : {}) }).then(
      (returnTo) => {
        if (current) navigate(returnTo, { replace: true });
      },
      (error: unknown) => {
        if (!current) return;
        console.error('The login could not be completed', error);
        setFailure(completionErrorMessage(error));
      },
    );
    return () => {
      current = false;
    };
  }, [identity, navigate, code, state, iss, invalidReturn]);

  const message = invalidReturn ?? failure;

  if (message === null) {
    return (
      <Page title={pages.callback.title}>
        <p className={styles.status} role="status">
          <span className={styles.ring} aria-hidden="true" />
          Logger inn …
        </p>
      </Page>
    );
  }

  const tryAgain = async () => {
    setRetry('starting');
    const returnTo = identity.lastReturnTarget();
    try {
      // Settles only if the browser did not leave for the provider.
      const loggedIn = await identity.login(returnTo);
      if (loggedIn) navigate(returnTo, { replace: true });
      else setRetry('failed');
    } catch (error) {
      console.error('The login could not be started', error);
      setRetry('failed');
    }
  };

  return (
    <Page title="Du ble ikke logget inn">
      <div className={styles.body}>
        <p className={styles.message} role="alert">
          {retry === 'failed' ? LOGIN_NOT_STARTED_MESSAGE : message}
        </p>
        <div className={styles.actions}>
          <button type="button" className={`${button.button} ${button.primary}`} onClick={tryAgain} disabled={retry === 'starting'}>
            {retry === 'starting' ? 'Sender deg til innlogging …' : 'Prøv igjen'}
          </button>
          <Link className={`${button.button} ${button.secondary}`} to={pathTo('customerService')}>
            Kundeservice
          </Link>
        </div>
      </div>
    </Page>
  );
}
