import { useMutation, useQuery, useQueryClient } from '../../lib/query/index.ts';
import { useState } from 'react';
import { formatLongDate, osloToday } from '@minside/domain';
import { pathTo } from '../../app/paths.ts';
import button from '../../components/button.module.css';
import { ErrorAlert } from '../../components/error-alert.tsx';
import ui from '../../components/ui.module.css';
import { loginIssuerName, profileLoginsKey, profileLoginsQueryOptions, unlinkLogin, useIdentity } from '../auth/index.ts';
import styles from './logins-section.module.css';

/**
 * "Slik logger du inn" on /endre-profil (issue 24): each configured issuer, linked or not. Linking
 * sends the person to that issuer and back (the login links to the signed-in user); unlinking
 * keeps at least one way in. Shown only where there is more than one issuer.
 */
export function LoginsSection() {
  const identity = useIdentity();
  const queryClient = useQueryClient();
  const logins = useQuery(profileLoginsQueryOptions());
  const [linking, setLinking] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<unknown>(null);
  const unlink = useMutation({
    mutationFn: unlinkLogin,
    onSuccess: (result) => queryClient.setQueryData(profileLoginsKey, result),
  });
  if (!logins.data || logins.data.logins.length < 2) return <ErrorAlert error={logins.error} />;

  const startLink = (issuer: string) => {
    setLinking(issuer);
    setLinkError(null);
    identity.link(issuer, pathTo('editProfile')).catch((error: unknown) => {
      setLinking(null);
      setLinkError(error);
    });
  };

  return (
    <section className={ui.panel} aria-labelledby="innlogging">
      <h2 id="innlogging" className={ui.panelHeading}>
        Slik logger du inn
      </h2>
      <ul className={styles.list}>
        {logins.data.logins.map((login) => {
          const { name, inSentence } = loginIssuerName(login);
          return (
            <li key={login.key} className={styles.item}>
              <div>
                <p className={styles.name}>{name}</p>
                <p className={ui.muted}>{login.linkedAt ? `Koblet til ${formatLongDate(osloToday(new Date(login.linkedAt)))}.` : 'Ikke koblet til.'}</p>
              </div>
              {login.linkedAt ? (
                login.canUnlink ? (
                  <button type="button" className={`${button.button} ${button.secondary} ${button.small}`} disabled={unlink.isPending} onClick={() => unlink.mutate(login.key)}>
                    {unlink.isPending && unlink.variables === login.key ? 'Kobler fra …' : `Koble fra ${inSentence}`}
                  </button>
                ) : null
              ) : (
                <button type="button" className={`${button.button} ${button.primary} ${button.small}`} disabled={linking !== null} onClick={() => startLink(login.key)}>
                  {linking === login.key ? 'Sender deg videre …' : `Koble til ${inSentence}`}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <p className={ui.muted}>Med flere innlogginger kommer du til det samme abonnementet uansett hvilken du bruker. Du må alltid ha minst én.</p>
      <ErrorAlert error={unlink.error ?? linkError} />
    </section>
  );
}
