import { useMutation } from '../../../lib/query/index.ts';
import { useRef, useState, type FormEvent } from 'react';
import { invoicePaymentMethods, paymentProviderLabels, type CreateInvoicePaymentBody, type InvoicePaymentMethod, type PaymentRedirect } from '@minside/domain';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Form } from '../../../components/form.tsx';
import form from '../../../components/form.module.css';
import ui from '../../../components/ui.module.css';
import { formatKroner } from '../format.ts';
import { createAttemptKeys } from '../../../lib/idempotency.ts';
import { savePaymentKeys, type PaymentFlowSource } from '../payment-keys.ts';
import { goToProvider } from '../provider-redirect.ts';
import styles from './pay-form.module.css';

const hints: Record<InvoicePaymentMethod, string> = {
  VIPPS: 'Du godkjenner betalingen i Vipps-appen.',
  'SWEDBANK-PPG': 'Visa eller Mastercard. Du skriver inn kortet hos betalingstjenesten, ikke hos oss.',
};

export interface PayFormProps {
  ariaInvoiceNo: number;
  amountOre: number;
  source: Extract<PaymentFlowSource, 'payInvoice' | 'payLink'>;
  /** Starts the payment at the server; answers where to send the browser. */
  start: (body: CreateInvoicePaymentBody) => Promise<PaymentRedirect>;
}

/** Pay one invoice with Vipps or card: choose, then off to the provider's page (it sends the browser back). */
export function PayForm({ ariaInvoiceNo, amountOre, source, start }: PayFormProps) {
  const [method, setMethod] = useState<InvoicePaymentMethod>('VIPPS');
  const attempts = useRef(createAttemptKeys());
  const mutation = useMutation({
    mutationFn: (chosen: InvoicePaymentMethod) => start({ method: chosen, idempotencyKey: attempts.current.keyFor(chosen) }),
    onSuccess: (redirect, chosen) => {
      savePaymentKeys({ paymentMethodId: chosen, invoiceDueAmount: amountOre, invoiceNo: String(ariaInvoiceNo), agreementId: redirect.paymentId, source });
      goToProvider(redirect.redirectUrl);
    },
  });
  // Between the answer and the browser leaving, the button stays busy: no second attempt.
  const busy = mutation.isPending || mutation.isSuccess;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    mutation.mutate(method);
  }

  return (
    // One choice that always has a value: nothing to check, so no useZodForm and no field errors,
    // only the call's (an alert). The shared Form all the same, for one pattern on every form
    // (issues 25.12, 26.3).
    <Form className={`${form.form} ${styles.form}`} onSubmit={submit} errors={{}}>
      <fieldset className={form.fieldset}>
        <legend className={form.legend}>Velg betalingsmåte</legend>
        {invoicePaymentMethods.map((candidate) => {
          const id = `betal-med-${candidate}`;
          return (
            <label key={candidate} className={form.choice} htmlFor={id}>
              <input id={id} type="radio" name="method" value={candidate} checked={method === candidate} onChange={() => setMethod(candidate)} aria-describedby={`${id}-hint`} disabled={busy} />
              <span className={styles.choiceText}>
                <strong>{paymentProviderLabels[candidate]}</strong>
                <span id={`${id}-hint`} className={form.hint}>
                  {hints[candidate]}
                </span>
              </span>
            </label>
          );
        })}
      </fieldset>
      <ErrorAlert error={mutation.error} />
      <div className={ui.actions}>
        <button type="submit" className={`${button.button} ${button.primary}`} aria-disabled={busy} disabled={busy}>
          {busy
            ? `Sender deg til ${paymentProviderLabels[method] === 'Vipps' ? 'Vipps' : 'betalingstjenesten'} …`
            : `Betal ${formatKroner(amountOre)} med ${paymentProviderLabels[method] === 'Vipps' ? 'Vipps' : 'kort'}`}
        </button>
      </div>
    </Form>
  );
}
