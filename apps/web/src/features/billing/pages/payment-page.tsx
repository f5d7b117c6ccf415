import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from '../../../lib/router/index.ts';
import { billingErrorMessages } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { isApiError } from '../../../lib/http.ts';
import { useTitle } from '../../titles/index.ts';
import { paymentQueryOptions } from '../api/get-payment.ts';
import { billingKeys } from '../api/keys.ts';
import { paylinkQueryOptions, startPaylinkPayment } from '../api/paylink.ts';
import { AvtaleGiroDrawNotice } from '../components/avtalegiro-draw-notice.tsx';
import { InvoiceDetails } from '../components/invoice-details.tsx';
import { PayForm } from '../components/pay-form.tsx';
import { PaymentOutcomePanel } from '../components/payment-outcome-panel.tsx';
import { formatInstant, paymentOutcome, returnedPaymentId } from '../format.ts';
import { clearPaymentKeys } from '../payment-keys.ts';

/** A pay-link token as the server signs them: URL-safe, bounded. */
const tokenPattern = /^[\w.~-]{1,512}$/;

function HelpLinks() {
  return (
    <Link className={`${button.button} ${button.secondary}`} to={pathTo('customerService')}>
      Kontakt kundeservice
    </Link>
  );
}

function PaylinkReturn({ token, paymentId, kid }: { token: string; paymentId: string; kid: string | undefined }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { data: payment, error } = useQuery(paymentQueryOptions(paymentId, token));
  const outcome = payment ? paymentOutcome(payment.status) : null;

  useEffect(() => {
    if (!outcome || outcome === 'waiting') return;
    clearPaymentKeys();
    void queryClient.invalidateQueries({ queryKey: billingKeys.paylink(token) });
  }, [outcome, queryClient, token]);

  if (error) {
    return (
      <p className={ui.alert} role="alert">
        {isApiError(error) ? error.message : 'Vi fikk ikke sjekket betalingen akkurat nå. Last siden på nytt om litt.'}
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
    <PaymentOutcomePanel payment={payment} receiptFacts={[{ label: 'Faktura', value: String(payment.ariaInvoiceNo ?? '') }, ...(kid ? [{ label: 'KID', value: kid }] : [])]}>
      {outcome === 'cancelled' || outcome === 'failed' ? (
        <button type="button" className={`${button.button} ${button.primary}`} onClick={() => void navigate(`${pathTo('payment')}?${new URLSearchParams({ token })}`, { replace: true })}>
          Prøv igjen
        </button>
      ) : null}
    </PaymentOutcomePanel>
  );
}

/** SPEC §2 /betaling (public): pay the one invoice of a signed, expiring pay-link from an e-mail or SMS, without signing in. */
export function PaymentPage() {
  const title = useTitle();
  const [search] = useSearchParams();
  const rawToken = search.get('token') ?? '';
  const token = tokenPattern.test(rawToken) ? rawToken : null;
  const paymentId = returnedPaymentId(search);
  const { data: details, error, isPending } = useQuery({ ...paylinkQueryOptions(token ?? ''), enabled: token !== null });
  const { data: returned } = useQuery({ ...paymentQueryOptions(paymentId ?? '', token ?? undefined), enabled: paymentId !== null && token !== null });
  const page = pages.payment;

  let body: ReactNode;
  if (token === null || error) {
    body = (
      <section className={ui.panelAccent} aria-labelledby="ugyldig-lenke">
        <h2 id="ugyldig-lenke" className={ui.panelHeading}>
          {token !== null && isApiError(error) ? error.message : billingErrorMessages.paylinkInvalid}
        </h2>
        <p className={ui.text}>
          Lenken du fikk på e-post eller SMS virker ikke. Du kan også logge inn og betale fra fakturaoversikten, eller få en ny lenke fra kundeservice på {title.customerCenterPhoneNumber}.
        </p>
        <div className={ui.actions}>
          <Link className={`${button.button} ${button.primary}`} to={pathTo('invoiceOverview')}>
            Logg inn og se fakturaene
          </Link>
          <HelpLinks />
        </div>
      </section>
    );
  } else if (isPending || !details) {
    body = (
      <p className={ui.muted} role="status">
        Henter fakturaen …
      </p>
    );
  } else {
    const paidHere = returned?.status === 'CAPTURED';
    body = (
      <>
        {paymentId ? <PaylinkReturn token={token} paymentId={paymentId} kid={details.kid} /> : null}
        <InvoiceDetails invoice={details} />
        {details.status === 'PAID' && !paidHere ? (
          <p className={ui.success} role="status">
            {billingErrorMessages.invoiceAlreadyPaid} Du trenger ikke gjøre noe.
          </p>
        ) : null}
        {details.status !== 'PAID' && details.avtaleGiroDrawOn && !details.payable ? (
          <AvtaleGiroDrawNotice drawOn={details.avtaleGiroDrawOn} drawOre={details.avtaleGiroDrawOre ?? details.openOre} />
        ) : null}
        {details.status !== 'PAID' && !details.avtaleGiroDrawOn && !details.payable ? (
          <p className={ui.panelAccent}>
            {billingErrorMessages.invoiceNotPayable} Kontakt kundeservice på {title.customerCenterPhoneNumber}.
          </p>
        ) : null}
        {details.status !== 'PAID' && details.payable && !paymentId ? (
          <section className={ui.panel} aria-labelledby="betal-naa">
            <h2 id="betal-naa" className={ui.panelHeading}>
              Betal nå
            </h2>
            <PayForm ariaInvoiceNo={details.ariaInvoiceNo} amountOre={details.openOre} source="payLink" start={(request) => startPaylinkPayment(token, request)} />
            <p className={ui.muted}>Lenken gjelder til {formatInstant(details.expiresAt)}. Du trenger ikke logge inn.</p>
          </section>
        ) : null}
      </>
    );
  }

  return (
    <Page title={page.title} lead={`Betal fakturaen fra ${title.name} med Vipps eller kort.`}>
      <div className={`${ui.stack} ${ui.narrow}`}>{body}</div>
    </Page>
  );
}
