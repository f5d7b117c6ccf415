import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { billingErrorCodes, requiredMessage, type Discount } from '@minside/domain';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { addDiscount, discountQueryOptions } from '../api/discount.ts';
import { billingKeys } from '../api/keys.ts';
import type { SubscriptionRef } from '../api/payment-method.ts';
import styles from './discount-panel.module.css';

/** "Gjelder 3 fakturaer til." The description says what the discount is; this says how long it lasts. */
function remainingText(discount: Discount): string {
  return discount.remainingPeriods === 1 ? 'Gjelder én faktura til.' : `Gjelder ${discount.remainingPeriods} fakturaer til.`;
}

/** The server's refusals of the code itself: said at the field. Any other failure is an alert. */
const codeErrors: ReadonlySet<string> = new Set([billingErrorCodes.discountCodeInvalid, billingErrorCodes.discountCodeUsed]);
const isCodeError = (failure: unknown) => isApiError(failure) && codeErrors.has(failure.code);

/** SPEC §7 addDiscount / getDiscountDetails: the active discount, or a field for a code that lowers the next invoices. */
export function DiscountPanel({ subscription }: { subscription: SubscriptionRef }) {
  const queryClient = useQueryClient();
  const { data: discount, isPending } = useQuery(discountQueryOptions(subscription));
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const mutation = useMutation({
    mutationFn: (discountCode: string) => addDiscount({ ...subscription, discountCode }),
    onSuccess: (added) => {
      queryClient.setQueryData(billingKeys.discount(subscription.ariaAccountNo, subscription.titleCode), added);
      setCode('');
    },
    onError: (failure) => setError(isCodeError(failure) ? failure.message : null),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (mutation.isPending) return;
    if (code.trim() === '') {
      setError(requiredMessage('Rabattkode'));
      return;
    }
    setError(null);
    mutation.mutate(code.trim());
  }

  if (isPending) return null;
  return (
    <section className={styles.panel} aria-labelledby="rabatt">
      <h2 id="rabatt" className={ui.panelHeading}>
        Rabatt
      </h2>
      {discount && discount.remainingPeriods > 0 ? (
        <p className={ui.text} role={mutation.isSuccess ? 'status' : undefined}>
          {mutation.isSuccess ? 'Rabattkoden er registrert. ' : ''}
          <strong>{discount.description}</strong> (kode {discount.discountCode}). {remainingText(discount)}
        </p>
      ) : (
        <Form className={styles.form} onSubmit={submit} errors={{ [inputId]: error }}>
          <div className={form.field}>
            <label className={form.label} htmlFor={inputId}>
              Rabattkode
            </label>
            <span id={`${inputId}-hint`} className={form.hint}>
              Rabatten trekkes fra de neste fakturaene.
            </span>
            <div className={styles.row}>
              <input
                id={inputId}
                className={`${form.input} ${styles.input}`}
                value={code}
                autoComplete="off"
                autoCapitalize="characters"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${inputId}-hint ${inputId}-error` : `${inputId}-hint`}
                onChange={(event) => {
                  setCode(event.target.value);
                  setError(null);
                }}
              />
              <button type="submit" className={`${button.button} ${button.secondary}`} disabled={mutation.isPending}>
                {mutation.isPending ? 'Sjekker koden …' : 'Bruk koden'}
              </button>
            </div>
            {error ? (
              <p id={`${inputId}-error`} className={form.error}>
                {error}
              </p>
            ) : null}
          </div>
          <ErrorAlert error={isCodeError(mutation.error) ? null : mutation.error} fallback="Noe gikk galt. Prøv igjen om litt." />
        </Form>
      )}
    </section>
  );
}
