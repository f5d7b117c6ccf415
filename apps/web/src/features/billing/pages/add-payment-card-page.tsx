import { useMutation, useQuery } from '../../../lib/query/index.ts';
import { useRef } from 'react';
import { Link } from '../../../lib/router/index.ts';
import { billingErrorMessages } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useSessionSubscription } from '../../auth/index.ts';
import { changeCard, paymentMethodQueryOptions } from '../api/payment-method.ts';
import { CurrentMethod } from '../components/current-method.tsx';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { paymentMethodFetchError } from '../messages.ts';
import { savePaymentKeys } from '../payment-keys.ts';
import { goToProvider } from '../provider-redirect.ts';

/** SPEC §2 /legg-til-betalingskort: a new card, typed in at the provider's page (never here), for the renewals. */
export function AddPaymentCardPage() {
  const subscription = useSessionSubscription();
  const ref = { ariaAccountNo: subscription?.ariaAccountNo ?? 0, titleCode: subscription?.titleCode ?? '' };
  const current = useQuery({ ...paymentMethodQueryOptions(ref), enabled: subscription !== null });
  // One key for this visit: a double click or a retried request registers one card.
  const idempotencyKey = useRef(newIdempotencyKey());
  const mutation = useMutation({
    mutationFn: () => changeCard({ ...ref, idempotencyKey: idempotencyKey.current }),
    onSuccess: (redirect) => {
      savePaymentKeys({ paymentMethodId: 'SWEDBANK-PPG', agreementId: redirect.paymentId, source: 'addPaymentCard' });
      goToProvider(redirect.redirectUrl);
    },
  });
  const busy = mutation.isPending || mutation.isSuccess;
  const details = current.data;
  const page = pages.addPaymentCard;
  // The portal's payment provider keeps no cards (Vipps MobilePay): say so instead of offering a button that can only be refused.
  const cardsOffered = details?.choices.includes('SWEDBANK-PPG') ?? true;

  return (
    <Page
      title={page.title}
      lead={
        cardsOffered
          ? 'Kortet brukes til å fornye abonnementet automatisk. Du skriver inn kortnummeret hos betalingstjenesten; vi lagrer aldri kortnummeret.'
          : 'Registrer et nytt betalingskort for abonnementet.'
      }
    >
      <div className={ui.stack}>
        {current.error ? (
          <p className={ui.alert} role="alert">
            {paymentMethodFetchError}
          </p>
        ) : null}
        {details ? <CurrentMethod details={details} /> : null}
        {details && !details.changeable ? <p className={ui.panelAccent}>{billingErrorMessages.paymentMethodNotChangeable}</p> : null}
        {details?.changeable && !cardsOffered ? (
          <section className={`${ui.panel} ${ui.narrow}`} aria-labelledby="nytt-kort">
            <h2 id="nytt-kort" className={ui.panelHeading}>
              Betalingskort kan ikke lagres her
            </h2>
            <p className={ui.text}>Abonnementet kan ikke trekkes fra et lagret kort. Velg fast betaling med Vipps, AvtaleGiro eller giro. Med giro kan du fortsatt betale hver faktura med kort.</p>
            <div className={ui.actions}>
              <Link className={`${button.button} ${button.primary}`} to={pathTo('changePaymentMethod')}>
                Velg betalingsmetode
              </Link>
            </div>
          </section>
        ) : null}
        {details?.changeable && cardsOffered ? (
          <section className={`${ui.panel} ${ui.narrow}`} aria-labelledby="nytt-kort">
            <h2 id="nytt-kort" className={ui.panelHeading}>
              {details.card ? 'Bytt til et nytt kort' : 'Legg til et kort'}
            </h2>
            <p className={ui.text}>
              {details.method === 'CARD' ? 'Det nye kortet erstatter det gamle fra neste fornyelse.' : `Når kortet er lagt til, betaler du med kort i stedet for ${details.label}.`} Vi trekker
              ingenting nå.
            </p>
            <ErrorAlert error={mutation.error} />
            <div className={ui.actions}>
              <button type="button" className={`${button.button} ${button.primary}`} onClick={() => mutation.mutate()} disabled={busy}>
                {busy ? 'Sender deg til betalingstjenesten …' : 'Legg til betalingskort'}
              </button>
              <Link className={`${button.button} ${button.secondary}`} to={pathTo('changePaymentMethod')}>
                Andre betalingsmetoder
              </Link>
            </div>
          </section>
        ) : null}
      </div>
    </Page>
  );
}
