import { useEffect, useState } from 'react';
import { LOGIN_NOT_STARTED_ERROR } from '@minside/domain';
import { Link, useNavigate, useSearchParams } from '../../../lib/router/index.ts';
import { isPublicPath, pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import { isApiError } from '../../../lib/http.ts';
import { useTitle } from '../../titles/index.ts';
import { useIdentity } from '../identity-context.tsx';
import { authMessages } from '../messages.ts';
import styles from './callback-page.module.css';

export const LOGIN_FAILED_MESSAGE = 'Innloggingen mislyktes.';
const LOGIN_CANCELLED_MESSAGE = 'Innloggingen ble avbrutt.';
const LOGIN_NOT_STARTED_MESSAGE = authMessages.loginNotStarted;

/**
 * What the provider's `?error=` means to the user (its own description is not shown: it is English
 * and unvetted), or ours: the header's link could not start the login (GET /api/login/start).
 */
function providerErrorMessage(error: string): string {
  if (error === LOGIN_NOT_STARTED_ERROR) return LOGIN_NOT_STARTED_MESSAGE;
  return error === 'access_denied' ? LOGIN_CANCELLED_MESSAGE : LOGIN_FAILED_MESSAGE;
}

/** The server's Norwegian message for a refused login (4xx); anything else gets the generic one. */
function completionErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status >= 400 && error.status < 500 && error.message) return error.message;
  return LOGIN_FAILED_MESSAGE;
}

/** Leaves the portal for another site (the title's own front page), without a history entry for /callback. */
function leavePortalFor(url: string): void {
  window.location.replace(url);
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
  // "Avbryt" on the login page (issue 25.9): not a failure to explain, the person changed their mind.
  const cancelled = providerError === 'access_denied';
  const invalidReturn = cancelled ? null : providerError !== null ? providerErrorMessage(providerError) : !code || !state ? LOGIN_FAILED_MESSAGE : null;
  const title = useTitle();

  const [failure, setFailure] = useState<string | null>(null);
  const [retry, setRetry] = useState<'idle' | 'starting' | 'failed'>('idle');

  // Back where the login started if that page is open to all (customer service, the student
  // page …); a page behind the login would only ask again, so then the title's own front page.
  useEffect(() => {
    if (!cancelled) return;
    let current = true;
    void identity.returnTargetOfLogin(state).then((from) => {
      if (!current) return;
      if (isPublicPath(new URL(from, window.location.origin).pathname)) navigate(from, { replace: true });
      else leavePortalFor(title.pageUrl);
    });
    return () => {
      current = false;
    };
  }, [cancelled, identity, navigate, title.pageUrl, state]);

  useEffect(() => {
    if (cancelled || invalidReturn !== null || !code || !state) return;
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
  }, [identity, navigate, code, state, iss, invalidReturn, cancelled]);

  const message = invalidReturn ?? failure;

  if (cancelled) {
    return (
      <Page title="Innloggingen ble avbrutt">
        <p className={styles.status} role="status">
          <span className={styles.ring} aria-hidden="true" />
          Du sendes tilbake …
        </p>
      </Page>
    );
  }

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
    try {
      // The login's own target; a login the header's link could not start sent its path along.
      const returnTo = await identity.returnTargetOfLogin(state, providerError === LOGIN_NOT_STARTED_ERROR ? params.get('returnTo') : null);
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
