import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from '../../../lib/router/index.ts';
import { billingErrorMessages, type Invoice, type Payment } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { useSessionSubscription } from '../../auth/index.ts';
import { invoiceQueryOptions } from '../api/get-invoices.ts';
import { paymentQueryOptions } from '../api/get-payment.ts';
import { billingKeys } from '../api/keys.ts';
import { startInvoicePayment } from '../api/start-invoice-payment.ts';
import { AvtaleGiroDrawNotice } from '../components/avtalegiro-draw-notice.tsx';
import { InvoiceDetails } from '../components/invoice-details.tsx';
import { PayForm } from '../components/pay-form.tsx';
import { PaymentOutcomePanel } from '../components/payment-outcome-panel.tsx';
import { formatLongDate, paymentOutcome, returnedPaymentId } from '../format.ts';
import { clearPaymentKeys } from '../payment-keys.ts';

interface PayInvoicePageProps {
  /** The invoice to pay, from the path /betal-faktura/{ariaInvoiceNo} (SPEC §2). */
  ariaInvoiceNo: string;
}

const invoiceNoPattern = /^\d{1,15}$/;

function BackLinks({ primary = false }: { primary?: boolean }) {
  return (
    <>
      <Link className={`${button.button} ${primary ? button.primary : button.secondary}`} to={pathTo('invoiceOverview')}>
        Til fakturaoversikten
      </Link>
      <HomeLink variant="secondary" />
    </>
  );
}

/** The provider sent the browser back: what the server says happened, and what now. */
function ReturnedPayment({ paymentId, invoice, onRetry }: { paymentId: string; invoice: Invoice | null; onRetry: () => void }) {
  const queryClient = useQueryClient();
  const subscription = useSessionSubscription();
  const { data: payment, error } = useQuery(paymentQueryOptions(paymentId));
  const outcome = payment ? paymentOutcome(payment.status) : null;

  useEffect(() => {
    if (!outcome || outcome === 'waiting') return;
    // The flow is over whatever its outcome: the temporary keys go, the invoice list is refreshed.
    clearPaymentKeys();
    if (subscription) void queryClient.invalidateQueries({ queryKey: billingKeys.invoices(subscription.ariaAccountNo) });
  }, [outcome, queryClient, subscription]);

  if (error) {
    return (
      <p className={ui.alert} role="alert">
        {isApiError(error) && error.status === 404
          ? 'Vi fant ikke betalingen. Sjekk fakturaoversikten om fakturaen er betalt.'
          : 'Vi fikk ikke sjekket betalingen akkurat nå. Last siden på nytt om litt.'}
      </p>
    );
  }
  if (!payment) {
    return (
      <p className={ui.muted} role="status">
        Sjekker betalingen …
      </p>
    );
  }
  return (
    <PaymentOutcomePanel payment={payment} receiptFacts={receiptFacts(payment, invoice)}>
      {outcome === 'cancelled' || outcome === 'failed' ? (
        <button type="button" className={`${button.button} ${button.primary}`} onClick={onRetry}>
          Prøv igjen
        </button>
      ) : null}
      {outcome === 'waiting' ? null : <BackLinks primary={outcome === 'succeeded' || outcome === 'refunded'} />}
    </PaymentOutcomePanel>
  );
}

function receiptFacts(payment: Payment, invoice: Invoice | null): { label: string; value: string }[] {
  const facts = [{ label: 'Faktura', value: String(payment.ariaInvoiceNo ?? invoice?.ariaInvoiceNo ?? '') }];
  if (invoice) facts.push({ label: 'KID', value: invoice.kid });
  return facts;
}

/** SPEC §2 /betal-faktura/{ariaInvoiceNo}: one invoice, paid with Vipps or card through the provider, then a receipt. */
function PayInvoicePage({ ariaInvoiceNo }: PayInvoicePageProps) {
  const subscription = useSessionSubscription();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const paymentId = returnedPaymentId(search);
  const valid = invoiceNoPattern.test(ariaInvoiceNo);
  const invoiceNo = valid ? Number(ariaInvoiceNo) : 0;
  const ariaAccountNo = subscription?.ariaAccountNo ?? 0;
  const { data: invoice, error, isPending } = useQuery({ ...invoiceQueryOptions(ariaAccountNo, invoiceNo), enabled: valid && subscription !== null });
  const { data: returned } = useQuery({ ...paymentQueryOptions(paymentId ?? ''), enabled: paymentId !== null });
  const paidJustNow = returned?.status === 'CAPTURED';
  const page = pages.payInvoice;

  function retry() {
    // Back to the form, without the old reference in the address.
    void navigate(pathTo('payInvoice', { ariaInvoiceNo }), { replace: true });
  }

  let body: ReactNode;
  if (!valid || invoice === null) {
    body = (
      <section className={ui.panelAccent} aria-labelledby="fant-ikke">
        <h2 id="fant-ikke" className={ui.panelHeading}>
          Vi fant ikke fakturaen
        </h2>
        <p className={ui.text}>Fakturanummer {ariaInvoiceNo} finnes ikke blant fakturaene dine. Se fakturaoversikten for fakturaene du har fått.</p>
        <div className={ui.actions}>
          <BackLinks />
        </div>
      </section>
    );
  } else if (error) {
    body = (
      <p className={ui.alert} role="alert">
        {isApiError(error) ? error.message : 'Vi fikk ikke hentet fakturaen akkurat nå. Prøv igjen om litt.'}
      </p>
    );
  } else if (isPending || !invoice) {
    body = (
      <p className={ui.muted} role="status">
        Henter fakturaen …
      </p>
    );
  } else {
    body = (
      <>
        {paymentId ? <ReturnedPayment paymentId={paymentId} invoice={invoice} onRetry={retry} /> : null}
        <InvoiceDetails invoice={invoice} />
        {invoice.status === 'PAID' && !paidJustNow ? (
          <section className={ui.panelAccent} aria-labelledby="allerede-betalt">
            <h2 id="allerede-betalt" className={ui.panelHeading}>
              {billingErrorMessages.invoiceAlreadyPaid}
            </h2>
            <p className={ui.text}>Du trenger ikke gjøre noe.</p>
            <div className={ui.actions}>
              <BackLinks />
            </div>
          </section>
        ) : null}
        {invoice.status !== 'PAID' && invoice.avtaleGiroDrawOn && !invoice.payable ? (
          <AvtaleGiroDrawNotice drawOn={invoice.avtaleGiroDrawOn} drawOre={invoice.avtaleGiroDrawOre ?? invoice.openOre} />
        ) : null}
        {invoice.status !== 'PAID' && !invoice.avtaleGiroDrawOn && !invoice.payable ? (
          <section className={ui.panelAccent} aria-labelledby="kan-ikke-betales">
            <h2 id="kan-ikke-betales" className={ui.panelHeading}>
              {billingErrorMessages.invoiceNotPayable}
            </h2>
            <p className={ui.text}>
              Betal i nettbanken med KID {invoice.kid} til konto {invoice.bankAccountNumber}, eller kontakt kundeservice.
            </p>
            <div className={ui.actions}>
              <BackLinks />
            </div>
          </section>
        ) : null}
        {invoice.status !== 'PAID' && invoice.payable && !paymentId ? (
          <section className={ui.panel} aria-labelledby="betal-naa">
            <h2 id="betal-naa" className={ui.panelHeading}>
              Betal nå
            </h2>
            <PayForm ariaInvoiceNo={invoice.ariaInvoiceNo} amountOre={invoice.openOre} source="payInvoice" start={(request) => startInvoicePayment(invoice.ariaInvoiceNo, request)} />
            {invoice.avtaleGiroDrawOn ? (
              // A netbank payment reaches us a day or more later, maybe too late to stop the draw: only Vipps and card here.
              <p className={ui.muted}>Fakturaen er sendt til banken for trekk med AvtaleGiro {formatLongDate(invoice.avtaleGiroDrawOn)}. Betaler du nå med Vipps eller kort, stopper vi trekket.</p>
            ) : invoice.collection === 'AVTALEGIRO_SCHEDULED' && invoice.scheduledDrawOn ? (
              // Not at the bank yet, but it will be: the netbank is no way to pay it either (issue 25.6).
              <p className={ui.muted}>
                Fakturaen trekkes automatisk med AvtaleGiro {formatLongDate(invoice.scheduledDrawOn)}, så du trenger ikke betale her. Betaler du likevel nå med Vipps eller kort, sender vi den ikke til
                banken.
              </p>
            ) : (
              <p className={ui.muted}>
                Vil du heller betale i nettbanken? Bruk KID {invoice.kid} og kontonummer {invoice.bankAccountNumber}.
              </p>
            )}
          </section>
        ) : null}
      </>
    );
  }

  return (
    <Page
      title={page.title}
      lead={
        <>
          Faktura <strong>{ariaInvoiceNo}</strong>. Du betaler trygt med Vipps eller kort hos betalingstjenesten.
        </>
      }
    >
      <div className={`${ui.stack} ${ui.narrow}`}>{body}</div>
    </Page>
  );
}

/** Route module: passes the path parameter to the view as a prop. */
export function PayInvoiceRoute() {
  const { ariaInvoiceNo = '' } = useParams<'ariaInvoiceNo'>();
  return <PayInvoicePage ariaInvoiceNo={ariaInvoiceNo} />;
}
