import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from '../../../lib/router/index.ts';
import button from '../../../components/button.module.css';
import ui from '../../../components/ui.module.css';
import { loginIssuersQueryOptions, useIdentity } from '../../auth/index.ts';

/**
 * "Bekreft alderen med Vipps" (issue 24): where the title takes no self-declared age, the buyer
 * links the issuer that verifies it and comes back to this order; its birthdate then decides.
 */
export function AgeVerificationButton() {
  const identity = useIdentity();
  const location = useLocation();
  const issuers = useQuery(loginIssuersQueryOptions());
  const [leaving, setLeaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const verifier = issuers.data?.issuers.find((issuer) => issuer.verifiesAge);
  if (!verifier) return null;
  const verify = () => {
    setLeaving(true);
    setFailed(false);
    identity.link(verifier.key, `${location.pathname}${location.search}`).catch((error: unknown) => {
      console.error('The age confirmation could not be started', error);
      setLeaving(false);
      setFailed(true);
    });
  };
  return (
    <div className={ui.actions}>
      <button type="button" className={`${button.button} ${button.primary}`} onClick={verify} disabled={leaving}>
        {leaving ? `Sender deg til ${verifier.label} …` : `Bekreft alderen med ${verifier.label}`}
      </button>
      {failed ? (
        <p className={ui.alert} role="alert">
          Vi fikk ikke startet bekreftelsen. Prøv igjen om litt.
        </p>
      ) : null}
    </div>
  );
}
