import { authErrorCodes } from '@minside/domain';
import { useMutation, useQuery } from '../../../lib/query/index.ts';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from '../../../lib/router/index.ts';
import { pages } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { isApiError } from '../../../lib/http.ts';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useTitle } from '../../titles/index.ts';
import { chooseLoginIssuer, loginIssuersQueryOptions } from '../api/logins.ts';
import { useIdentity } from '../identity-context.tsx';
import { loginIssuerName } from '../issuer-name.ts';
import styles from './login-page.module.css';

/**
 * /logg-inn (issue 24): with more than one issuer, the login token's authorization URL is this
 * page; the person picks how to log in, and the pick sends them to that issuer with the same
 * login token (POST /api/login/choose). Without a token (a bookmark) it starts a login first.
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const loginToken = params.get('login');
  const identity = useIdentity();
  const title = useTitle();
  const issuers = useQuery(loginIssuersQueryOptions());
  const [leaving, setLeaving] = useState<string | null>(null);
  /** A pick was made and the browser left for the issuer. */
  const picked = useRef(false);
  // To where the login was to return (one the header's link started left no target in the tab: the server knows).
  const restart = () =>
    void identity
      .returnTargetOfLogin(loginToken)
      .then((target) => identity.login(target))
      .catch((error: unknown) => console.error('The login could not be started', error));
  // Back from the issuer, the back-forward cache would show this page as it was left, every button
  // disabled, for a login token that is spent: start a new login (a new token, this page again).
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted && picked.current) restart();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
    // `restart` reads the identity client, which does not change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const choose = useMutation({
    mutationFn: (issuer: string) => {
      if (!loginToken) throw new Error('no login token');
      return chooseLoginIssuer(loginToken, issuer);
    },
    onSuccess: ({ authorizationUrl }) => {
      picked.current = true;
      window.location.assign(authorizationUrl);
    },
    onError: () => setLeaving(null),
  });

  if (!loginToken) {
    return (
      <Page title={pages.login.title} lead={`Logg inn på Min Side for ${title.name}.`}>
        <div className={ui.actions}>
          <button type="button" className={`${button.button} ${button.primary}`} onClick={() => void identity.login('/')}>
            Logg inn
          </button>
        </div>
      </Page>
    );
  }

  return (
    <Page title={pages.login.title} lead={`Velg hvordan du vil logge inn på Min Side for ${title.name}. Du kommer til samme abonnement uansett.`}>
      <div className={styles.choices}>
        {issuers.isPending ? <p className={ui.muted}>Henter innloggingsvalg …</p> : null}
        <ErrorAlert error={issuers.error ?? choose.error} />
        {isApiError(choose.error) && (choose.error.code === authErrorCodes.loginStateInvalid || choose.error.code === authErrorCodes.loginExpired) ? (
          // The token was spent (a pick already made, in another tab or before Back) or has expired: a new one, not a dead end.
          <div className={ui.actions}>
            <button type="button" className={`${button.button} ${button.primary}`} onClick={restart}>
              Start innloggingen på nytt
            </button>
          </div>
        ) : null}
        {issuers.data?.issuers.map((issuer) => (
          <button
            key={issuer.key}
            type="button"
            className={`${button.button} ${issuer.style === 'vipps' ? styles.vipps : button.primary} ${styles.choice}`}
            disabled={leaving !== null}
            onClick={() => {
              setLeaving(issuer.key);
              choose.mutate(issuer.key);
            }}
          >
            {leaving === issuer.key ? 'Sender deg videre …' : `Logg inn med ${loginIssuerName(issuer).inSentence}`}
          </button>
        ))}
        <p className={ui.muted}>
          Har du logget inn med begge før, kan du koble dem sammen under Endre profil. Vi kobler dem automatisk når e-postadressen eller telefonnummeret er bekreftet hos begge.
        </p>
      </div>
    </Page>
  );
}
