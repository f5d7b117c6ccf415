import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  billingErrorCodes,
  billingErrorMessages,
  changeablePaymentMethods,
  isValidNorwegianAccountNumber,
  paymentProviderLabels,
  subscriptionMethodOfProvider,
  type ChangeablePaymentMethod,
  type ChangePaymentMethodResponse,
} from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import form from '../../../components/form.module.css';
import { ButtonLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { useSessionSubscription } from '../../auth/index.ts';
import { changePaymentMethod, paymentMethodQueryOptions } from '../api/payment-method.ts';
import { CurrentMethod } from '../components/current-method.tsx';
import { createAttemptKeys } from '../idempotency.ts';
import { paymentMethodFetchError } from '../messages.ts';
import { savePaymentKeys } from '../payment-keys.ts';
import { goToProvider } from '../provider-redirect.ts';
import { useMethodChanged } from '../use-method-changed.ts';
import styles from './change-payment-method-page.module.css';

const hints: Record<ChangeablePaymentMethod, string> = {
  'SWEDBANK-PPG': 'Trekkes automatisk fra kortet ved hver fornyelse. Du legger inn kortet hos betalingstjenesten.',
  VIPPS: 'Fast betaling med Vipps. Du godkjenner avtalen i Vipps-appen én gang.',
  AVTALEGIRO: 'Trekkes automatisk fra bankkontoen din på forfallsdatoen. Banken bekrefter avtalen.',
  BANKGIRO: 'Du får fakturaen som giro eller eFaktura i nettbanken og betaler selv.',
};

/** Where the provider-backed methods send the user, for the button text. */
const submitLabels: Record<ChangeablePaymentMethod, string> = {
  'SWEDBANK-PPG': 'Gå videre og legg inn kort',
  VIPPS: 'Gå videre til Vipps',
  AVTALEGIRO: 'Bruk AvtaleGiro',
  BANKGIRO: 'Bruk giro / eFaktura',
};

function doneMessage(response: ChangePaymentMethodResponse): string {
  if (response.result === 'PENDING_BANK_CONFIRMATION') {
    return 'AvtaleGiro er registrert. Når banken har bekreftet avtalen, trekkes fakturaene automatisk. Til da får du dem som giro.';
  }
  return `Betalingsmetoden er endret til ${response.paymentMethod.label}.`;
}

/** SPEC §2 /endre-betalingsmetode: the method in use, and a switch to card, Vipps, AvtaleGiro or giro/eFaktura. */
export function ChangePaymentMethodPage() {
  const subscription = useSessionSubscription();
  const ref = { ariaAccountNo: subscription?.ariaAccountNo ?? 0, titleCode: subscription?.titleCode ?? '' };
  const current = useQuery({ ...paymentMethodQueryOptions(ref), enabled: subscription !== null });
  const methodChanged = useMethodChanged();
  const [choice, setChoice] = useState<ChangeablePaymentMethod | null>(null);
  const [bankAccount, setBankAccount] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [choiceError, setChoiceError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const bankAccountInput = useRef<HTMLInputElement>(null);
  const attempts = useRef(createAttemptKeys());

  const mutation = useMutation({
    mutationFn: (method: ChangeablePaymentMethod) =>
      changePaymentMethod({
        ...ref,
        method,
        ...(method === 'AVTALEGIRO' ? { bankAccountNumber: bankAccount.trim() } : {}),
        idempotencyKey: attempts.current.keyFor(method === 'AVTALEGIRO' ? `${method}:${bankAccount.replace(/[\s.]/g, '')}` : method),
      }),
    onSuccess: async (response, method) => {
      if (response.result === 'REDIRECT' && response.redirectUrl && response.paymentId) {
        savePaymentKeys({ paymentMethodId: method, agreementId: response.paymentId, source: 'changePaymentMethod' });
        goToProvider(response.redirectUrl);
        return;
      }
      attempts.current.reset();
      setChoice(null);
      setBankAccount('');
      setDone(doneMessage(response));
      await methodChanged(response.paymentMethod);
    },
    onError: (error) => {
      if (isApiError(error) && (error.code === billingErrorCodes.invalidBankAccount || error.code === billingErrorCodes.bankAccountRequired)) {
        setFieldError(error.message);
        bankAccountInput.current?.focus();
      }
    },
  });
  const redirecting = mutation.isSuccess && mutation.data.result === 'REDIRECT';
  const busy = mutation.isPending || redirecting;

  const details = current.data;
  const currentProvider = details ? changeablePaymentMethods.find((method) => subscriptionMethodOfProvider[method] === details.method) : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setDone(null);
    if (!choice) {
      setChoiceError('Betalingsmetode er påkrevd');
      return;
    }
    if (choice === 'AVTALEGIRO') {
      const problem = bankAccount.trim() === '' ? billingErrorMessages.bankAccountRequired : isValidNorwegianAccountNumber(bankAccount) ? null : billingErrorMessages.invalidBankAccount;
      setFieldError(problem);
      if (problem) {
        bankAccountInput.current?.focus();
        return;
      }
    }
    mutation.mutate(choice);
  }

  const page = pages.changePaymentMethod;
  return (
    <Page title={page.title} lead={page.purpose}>
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
            {details.method === 'CARD' && details.changeable ? (
              <Link className={`${button.button} ${button.secondary} ${button.small}`} to={pathTo('addPaymentCard')}>
                Bytt betalingskort
              </Link>
            ) : null}
          </CurrentMethod>
        ) : null}
        {details && !details.changeable ? (
          <p className={ui.panelAccent}>{billingErrorMessages.paymentMethodNotChangeable}</p>
        ) : null}
        {details?.changeable ? (
          <form className={`${ui.panel} ${form.form}`} onSubmit={submit} noValidate aria-labelledby="ny-metode">
            <fieldset className={form.fieldset} aria-describedby={choiceError ? 'ny-metode-feil' : undefined}>
              <legend id="ny-metode" className={form.legend}>
                Velg ny betalingsmetode
              </legend>
              {changeablePaymentMethods.map((method) => {
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
                        aria-describedby={`${id}-hint`}
                        onChange={() => {
                          setChoice(method);
                          setChoiceError(null);
                          setFieldError(null);
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
                      <div className={`${form.field} ${styles.nested}`}>
                        <label className={form.label} htmlFor="kontonummer">
                          Kontonummer
                        </label>
                        <span id="kontonummer-hint" className={form.hint}>
                          Kontoen fakturaene skal trekkes fra: 11 siffer, for eksempel 1234.56.78903.
                        </span>
                        <input
                          ref={bankAccountInput}
                          id="kontonummer"
                          className={`${form.input} ${styles.accountInput}`}
                          inputMode="numeric"
                          autoComplete="off"
                          value={bankAccount}
                          aria-invalid={fieldError ? true : undefined}
                          aria-describedby={fieldError ? 'kontonummer-hint kontonummer-feil' : 'kontonummer-hint'}
                          onChange={(event) => {
                            setBankAccount(event.target.value);
                            setFieldError(null);
                          }}
                          disabled={busy}
                        />
                        {fieldError ? (
                          <p id="kontonummer-feil" className={form.error}>
                            {fieldError}
                          </p>
                        ) : null}
                      </div>
                    ) : null}
                  </div>
                );
              })}
              {choiceError ? (
                <p id="ny-metode-feil" className={form.error} role="alert">
                  {choiceError}
                </p>
              ) : null}
            </fieldset>
            <ErrorAlert error={fieldError ? null : mutation.error} />
            <div className={ui.actions}>
              <button type="submit" className={`${button.button} ${button.primary}`} disabled={busy}>
                {busy ? (choice === 'VIPPS' ? 'Sender deg til Vipps …' : choice === 'SWEDBANK-PPG' ? 'Sender deg til betalingstjenesten …' : 'Lagrer …') : choice ? submitLabels[choice] : 'Lagre betalingsmetode'}
              </button>
              <ButtonLink to={pathTo('home')}>Avbryt</ButtonLink>
            </div>
          </form>
        ) : null}
      </div>
    </Page>
  );
}
