import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useSearchParams } from '../../../lib/router/index.ts';
import button from '../../../components/button.module.css';
import { HomeLink } from '../../../components/links.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { paymentQueryOptions } from '../api/get-payment.ts';
import { paymentOutcome, returnedPaymentId, type PaymentOutcome } from '../format.ts';
import { clearPaymentKeys, readPaymentKeys, type PaymentFlowSource } from '../payment-keys.ts';
import { PaymentOutcomePanel } from './payment-outcome-panel.tsx';

export interface ProviderReturnProps {
  source: Extract<PaymentFlowSource, 'changePaymentMethod' | 'addPaymentCard'>;
  headingFor: Partial<Record<PaymentOutcome, string>>;
  /** Once, when the provider confirmed the change. */
  onSucceeded: () => Promise<void>;
  /** Where "Prøv igjen" goes. */
  retryTo: string;
  retryLabel: string;
  successLinks?: ReactNode;
}

/**
 * The verify routes: the provider sent the browser back with the payment reference. The
 * server tells what happened. Without a reference in the URL, the one kept for this flow in
 * sessionStorage (SPEC §3 temporary keys) is used.
 */
export function ProviderReturn({ source, headingFor, onSucceeded, retryTo, retryLabel, successLinks }: ProviderReturnProps) {
  const [search] = useSearchParams();
  const kept = readPaymentKeys();
  const paymentId = returnedPaymentId(search) ?? (kept?.source === source ? (kept.agreementId ?? null) : null);
  const { data: payment, error } = useQuery({ ...paymentQueryOptions(paymentId ?? ''), enabled: paymentId !== null });
  const outcome = payment ? paymentOutcome(payment.status) : null;
  const reported = useRef(false);

  useEffect(() => {
    if (!outcome || outcome === 'waiting') return;
    clearPaymentKeys();
    if (outcome === 'succeeded' && !reported.current) {
      reported.current = true;
      void onSucceeded();
    }
  }, [outcome, onSucceeded]);

  const retry = (
    <Link className={`${button.button} ${button.primary}`} to={retryTo}>
      {retryLabel}
    </Link>
  );
  const home = <HomeLink variant="secondary" />;

  if (paymentId === null || error) {
    const notFound = paymentId === null || (isApiError(error) && error.status === 404);
    return (
      <section className={ui.panelAccent} aria-labelledby="ingen-betaling">
        <h2 id="ingen-betaling" className={ui.panelHeading}>
          {notFound ? 'Vi fant ikke endringen' : 'Vi fikk ikke sjekket endringen'}
        </h2>
        <p className={ui.text} role="alert">
          {notFound ? 'Det er ingen endring å bekrefte her. Har du startet en endring, kan du prøve på nytt.' : 'Last siden på nytt om litt. Endringen er ikke tapt.'}
        </p>
        <div className={ui.actions}>
          {retry}
          {home}
        </div>
      </section>
    );
  }
  if (!payment) {
    return (
      <p className={ui.muted} role="status">
        Sjekker svaret fra betalingstjenesten …
      </p>
    );
  }
  return (
    <PaymentOutcomePanel payment={payment} headingFor={headingFor} showAmount={false}>
      {outcome === 'succeeded' ? (
        <>
          <HomeLink />
          {successLinks}
        </>
      ) : outcome === 'waiting' ? null : (
        <>
          {retry}
          {home}
        </>
      )}
    </PaymentOutcomePanel>
  );
}
