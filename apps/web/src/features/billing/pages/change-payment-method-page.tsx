import { useMutation, useQuery } from '../../../lib/query/index.ts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from '../../../lib/router/index.ts';
import { z } from 'zod';
import {
  billingErrorMessages,
  changeablePaymentMethods,
  paymentProviderLabels,
  requiredMessage,
  subscriptionMethodOfProvider,
  type ChangeablePaymentMethod,
  type ChangePaymentMethodResponse,
} from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import { ButtonLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useSessionSubscription } from '../../auth/index.ts';
import { changePaymentMethod, paymentMethodQueryOptions } from '../api/payment-method.ts';
import { AvtaleGiroInstructions } from '../components/avtalegiro-instructions.tsx';
import { CurrentMethod } from '../components/current-method.tsx';
import { createAttemptKeys } from '../../../lib/idempotency.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { paymentMethodFetchError } from '../messages.ts';
import { savePaymentKeys } from '../payment-keys.ts';
import { goToProvider } from '../provider-redirect.ts';
import { useMethodChanged } from '../use-method-changed.ts';
import styles from './change-payment-method-page.module.css';

const hints: Record<ChangeablePaymentMethod, string> = {
  'SWEDBANK-PPG': 'Trekkes automatisk fra kortet ved hver fornyelse. Du legger inn kortet hos betalingstjenesten.',
  VIPPS: 'Fast betaling med Vipps. Du godkjenner avtalen i Vipps-appen én gang.',
  AVTALEGIRO: 'Trekkes automatisk fra bankkontoen din på forfallsdatoen. Du bekrefter avtalen i nettbanken din.',
  BANKGIRO: 'Du får fakturaen som giro eller eFaktura i nettbanken og betaler selv.',
};

/** Where the provider-backed methods send the user, for the button text. */
const submitLabels: Record<ChangeablePaymentMethod, string> = {
  'SWEDBANK-PPG': 'Gå videre og legg inn kort',
  VIPPS: 'Gå videre til Vipps',
  AVTALEGIRO: 'Bruk AvtaleGiro',
  BANKGIRO: 'Bruk giro / eFaktura',
};

/** Only the browser checks that a method is chosen; the server's answer to a method is its own. */
const methodFormSchema = z.object({ method: z.enum(changeablePaymentMethods, { error: requiredMessage('Betalingsmetode') }) });

function doneMessage(response: ChangePaymentMethodResponse): string {
  if (response.result === 'PENDING_BANK_CONFIRMATION') {
    return 'AvtaleGiro er registrert hos oss. Nå gjenstår det bare å bekrefte avtalen i nettbanken din – oppskriften står under.';
  }
  return `Betalingsmetoden er endret til ${response.paymentMethod.label}.`;
}

/** SPEC §2 /endre-betalingsmetode: the method in use, and a switch to card, Vipps, AvtaleGiro or giro/eFaktura. */
export function ChangePaymentMethodPage() {
  const subscription = useSessionSubscription();
  const ref = { ariaAccountNo: subscription?.ariaAccountNo ?? 0, titleCode: subscription?.titleCode ?? '' };
  const current = useQuery({ ...paymentMethodQueryOptions(ref), enabled: subscription !== null });
  const methodChanged = useMethodChanged();
  const methodForm = useZodForm({ schema: methodFormSchema, defaultValues: { method: undefined }, fieldIds: { method: 'ny-metode-valg' } });
  const methodField = methodForm.controlled('method');
  const choice = methodField.value ?? null;
  const choiceError = methodForm.errors.method;
  const [done, setDone] = useState<string | null>(null);
  /** Set when an AvtaleGiro was just made: the steps in the netbank take the focus once they show. */
  const [focusSteps, setFocusSteps] = useState(false);
  const stepsHeading = useRef<HTMLHeadingElement>(null);
  const attempts = useRef(createAttemptKeys());
  /** "Stopp Vipps-avtalen" asks once more before it moves the subscription to giro. */
  const [confirmStop, setConfirmStop] = useState(false);
  const stoppingVipps = useRef(false);

  const mutation = useMutation({
    mutationFn: (method: ChangeablePaymentMethod) =>
      changePaymentMethod({
        ...ref,
        method,
        idempotencyKey: attempts.current.keyFor(method),
      }),
    onSuccess: async (response, method) => {
      if (response.result === 'REDIRECT' && response.redirectUrl && response.paymentId) {
        savePaymentKeys({ paymentMethodId: method, agreementId: response.paymentId, source: 'changePaymentMethod' });
        goToProvider(response.redirectUrl);
        return;
      }
      attempts.current.reset();
      methodForm.reset({ method: undefined });
      setConfirmStop(false);
      setDone(stoppingVipps.current && response.result === 'CHANGED' ? 'Vipps-avtalen er stoppet, også i Vipps. Fakturaene kommer nå som giro med KID på e-post.' : doneMessage(response));
      await methodChanged(response.paymentMethod);
      if (response.result === 'PENDING_BANK_CONFIRMATION') setFocusSteps(true);
    },
  });
  const redirecting = mutation.isSuccess && mutation.data.result === 'REDIRECT';
  const busy = mutation.isPending || redirecting;

  const details = current.data;
  const currentProvider = details ? changeablePaymentMethods.find((method) => subscriptionMethodOfProvider[method] === details.method) : undefined;
  const pendingAvtaleGiro = details?.method === 'AVTALEGIRO' && details.avtaleGiro?.status === 'PENDING' ? details.avtaleGiro : null;

  useEffect(() => {
    if (!focusSteps || !stepsHeading.current) return;
    stepsHeading.current.focus();
    setFocusSteps(false);
  }, [focusSteps, pendingAvtaleGiro]);

  function stopVippsAgreement() {
    if (busy) return;
    setDone(null);
    stoppingVipps.current = true;
    // Giro is what is left when nothing is drawn automatically; the server stops the agreement at Vipps too.
    mutation.mutate('BANKGIRO');
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    stoppingVipps.current = false;
    setDone(null);
    void methodForm.handleSubmit((values) => mutation.mutate(values.method))(event);
  }

  const page = pages.changePaymentMethod;
  return (
    <Page title={page.title} lead="Bytt hvordan du betaler for abonnementet.">
      <div className={`${ui.stack} ${styles.layout}`}>
        {done ? (
          <p className={ui.success} role="status">
            {done}
          </p>
        ) : null}
        {current.isPending ? (
          <p className={ui.muted} role="status">
            Henter betalingsmetoden …
          </p>
        ) : null}
        {current.error ? (
          <p className={ui.alert} role="alert">
            {paymentMethodFetchError}
          </p>
        ) : null}
        {details ? (
          <CurrentMethod details={details}>
            {details.method === 'CARD' && details.changeable && details.choices.includes('SWEDBANK-PPG') ? (
              <Link className={`${button.button} ${button.secondary} ${button.small}`} to={pathTo('addPaymentCard')}>
                Bytt betalingskort
              </Link>
            ) : null}
            {details.method === 'VIPPS' && details.vippsAgreement && details.changeable && !confirmStop ? (
              <button type="button" className={`${button.button} ${button.secondary} ${button.small}`} onClick={() => setConfirmStop(true)} disabled={busy}>
                Stopp Vipps-avtalen
              </button>
            ) : null}
          </CurrentMethod>
        ) : null}
        {confirmStop && details?.method === 'VIPPS' ? (
          <section className={ui.panelAccent} aria-labelledby="stopp-vipps">
            <h2 id="stopp-vipps" className={styles.noteHeading}>
              Stoppe Vipps-avtalen?
            </h2>
            <p className={ui.text}>
              Vi trekker ikke mer med Vipps, og avtalen stoppes i Vipps-appen. Fakturaene kommer som giro med KID på e-post, og du kan betale dem i nettbanken eller med Vipps eller kort.
            </p>
            <ErrorAlert error={stoppingVipps.current ? mutation.error : null} />
            <div className={ui.actions}>
              <button type="button" className={`${button.button} ${button.primary}`} onClick={stopVippsAgreement} disabled={busy}>
                {busy ? 'Stopper avtalen …' : 'Ja, stopp avtalen'}
              </button>
              <button type="button" className={`${button.button} ${button.secondary}`} onClick={() => setConfirmStop(false)} disabled={busy}>
                Behold avtalen
              </button>
            </div>
          </section>
        ) : null}
        {pendingAvtaleGiro ? <AvtaleGiroInstructions agreement={pendingAvtaleGiro} headingRef={stepsHeading} /> : null}
        {details && !details.changeable ? <p className={ui.panelAccent}>{billingErrorMessages.paymentMethodNotChangeable}</p> : null}
        {details?.changeable ? (
          <Form className={`${ui.panel} ${form.form}`} onSubmit={submit} errors={methodForm.summary} aria-labelledby="ny-metode">
            <fieldset id="ny-metode-valg" className={form.fieldset} aria-describedby={choiceError ? 'ny-metode-feil' : undefined}>
              <legend id="ny-metode" className={form.legend}>
                Velg ny betalingsmetode
              </legend>
              {details.choices.map((method) => {
                const id = `metode-${method}`;
                const isCurrent = method === currentProvider;
                return (
                  <div key={method} className={styles.option}>
                    <label className={form.choice} htmlFor={id}>
                      <input
                        id={id}
                        type="radio"
                        name="method"
                        value={method}
                        checked={choice === method}
                        disabled={isCurrent || busy}
                        aria-describedby={method === 'AVTALEGIRO' && choice === 'AVTALEGIRO' ? `${id}-hint avtalegiro-forklaring` : `${id}-hint`}
                        onChange={() => {
                          methodField.onChange(method);
                          mutation.reset();
                        }}
                      />
                      <span className={styles.choiceText}>
                        <strong>
                          {paymentProviderLabels[method]}
                          {isCurrent ? ' (den du har nå)' : ''}
                        </strong>
                        <span id={`${id}-hint`} className={form.hint}>
                          {hints[method]}
                        </span>
                      </span>
                    </label>
                    {method === 'AVTALEGIRO' && choice === 'AVTALEGIRO' ? (
                      <div id="avtalegiro-forklaring" className={styles.nested}>
                        <p className={styles.noteHeading}>Du gjør ferdig avtalen i din egen nettbank</p>
                        <p className={ui.text}>
                          Du trenger ikke oppgi kontonummer her. Når du har valgt AvtaleGiro, får du et KID-nummer og en kort oppskrift. I nettbanken velger du selv hvilken konto det skal trekkes fra,
                          og et maksbeløp per trekk.
                        </p>
                        <p className={ui.muted}>Til banken har bekreftet avtalen, får du fakturaene som vanlig giro.</p>
                      </div>
                    ) : null}
                  </div>
                );
              })}
              {choiceError ? (
                <p id="ny-metode-feil" className={form.error}>
                  {choiceError}
                </p>
              ) : null}
            </fieldset>
            <ErrorAlert error={stoppingVipps.current ? null : mutation.error} />
            <div className={ui.actions}>
              <button type="submit" className={`${button.button} ${button.primary}`} disabled={busy}>
                {busy
                  ? choice === 'VIPPS'
                    ? 'Sender deg til Vipps …'
                    : choice === 'SWEDBANK-PPG'
                      ? 'Sender deg til betalingstjenesten …'
                      : 'Lagrer …'
                  : choice
                    ? submitLabels[choice]
                    : 'Lagre betalingsmetode'}
              </button>
              <ButtonLink to={pathTo('home')}>Avbryt</ButtonLink>
            </div>
          </Form>
        ) : null}
      </div>
    </Page>
  );
}
