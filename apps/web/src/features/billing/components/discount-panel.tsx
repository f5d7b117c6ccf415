import { useMutation, useQuery, useQueryClient } from '../../../lib/query/index.ts';
import { useId, type FormEvent } from 'react';
import { z } from 'zod';
import { billingErrorCodes, requiredMessage, type Discount } from '@minside/domain';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { useZodForm } from '../../../lib/use-zod-form.ts';
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

/** A code, trimmed (the server's `addDiscountBodySchema` takes it so), with the SPEC §5 message when there is none. */
const discountFormSchema = z.object({ discountCode: z.string().trim().min(1, requiredMessage('Rabattkode')) });

/** SPEC §7 addDiscount / getDiscountDetails: the active discount, or a field for a code that lowers the next invoices. */
export function DiscountPanel({ subscription }: { subscription: SubscriptionRef }) {
  const queryClient = useQueryClient();
  const { data: discount, isPending } = useQuery(discountQueryOptions(subscription));
  const inputId = useId();
  const codeForm = useZodForm({
    schema: discountFormSchema,
    defaultValues: { discountCode: '' },
    fieldIds: { discountCode: inputId },
    apiErrorField: (failure) => (codeErrors.has(failure.code) ? 'discountCode' : null),
  });
  const error = codeForm.errors.discountCode;
  const mutation = useMutation({
    mutationFn: (discountCode: string) => addDiscount({ ...subscription, discountCode }),
    onSuccess: (added) => {
      queryClient.setQueryData(billingKeys.discount(subscription.ariaAccountNo, subscription.titleCode), added);
      codeForm.reset({ discountCode: '' });
    },
    onError: codeForm.setApiError,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (mutation.isPending) return;
    void codeForm.handleSubmit(({ discountCode }) => mutation.mutate(discountCode))(event);
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
        <Form className={styles.form} onSubmit={submit} errors={codeForm.summary}>
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
                autoComplete="off"
                autoCapitalize="characters"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${inputId}-hint ${inputId}-error` : `${inputId}-hint`}
                {...codeForm.register('discountCode')}
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
          <ErrorAlert error={codeForm.alertError(mutation.error)} fallback="Noe gikk galt. Prøv igjen om litt." />
        </Form>
      )}
    </section>
  );
}
