import { useLocation } from '../../../lib/router/index.ts';
import { formatLongDate, lastDayWithAccess, userFacingState, type CreditedInvoice } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { ButtonLink, HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { NoticePanel, Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { useCurrentSubscription, useToday } from '../use-subscription.ts';

/** What /avslutt-abonnement hands to this page (kept in the history entry, so a reload still shows it). */
export interface CancelledState {
  creditedInvoices: CreditedInvoice[];
}

/** What happened to an invoice for the period after the access ends (ADR 026), in a sentence. */
const creditedText: Record<CreditedInvoice['outcome'], (no: number) => string> = {
  credited: (no) => `Fakturaen for neste periode (faktura ${no}) er kreditert, så du skal ikke betale den.`,
  refunded: (no) => `Fakturaen for neste periode (faktura ${no}) er kreditert, og pengene er betalt tilbake.`,
  pending: (no) => `Fakturaen for neste periode (faktura ${no}) blir kreditert. Har du betalt den, får du pengene tilbake.`,
};

/**
 * The invoices the cancellation credited, from the history entry: DELETE deleteSubscription's
 * answer, which the server validated (ADR 020), so a shape check is enough (without loading zod on
 * this page). An entry without them (the page opened directly, an older build) shows none.
 */
function creditedOf(state: unknown): CreditedInvoice[] {
  const list = (state as Partial<CancelledState> | null)?.creditedInvoices;
  if (!Array.isArray(list)) return [];
  return list.filter((entry: unknown): entry is CreditedInvoice => {
    const candidate = entry as Partial<CreditedInvoice> | null;
    return typeof candidate?.ariaInvoiceNo === 'number' && typeof candidate.outcome === 'string' && Object.hasOwn(creditedText, candidate.outcome);
  });
}

/** SPEC §2 /abonnement-avsluttet: the cancellation is registered; when access ends; undo. */
export function SubscriptionCancelledPage() {
  const subscription = useCurrentSubscription();
  const today = useToday();
  const credited = creditedOf(useLocation().state);
  if (!subscription) return null;
  const state = userFacingState(subscription, today);
  const end = formatLongDate(lastDayWithAccess(subscription.currentPeriodEnd));

  if (state !== 'cancelled') {
    return (
      <Page title={pages.subscriptionCancelled.title}>
        <NoticePanel actions={<HomeLink />}>{state === 'expired' ? `Abonnementet ditt ga tilgang til og med ${end}.` : 'Abonnementet ditt er ikke sagt opp.'}</NoticePanel>
      </Page>
    );
  }

  return (
    <Page title={pages.subscriptionCancelled.title} lead={`${subscription.planName} gir tilgang til og med ${end}. Takk for at du har lest oss!`}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        <p className={ui.success} role="status">
          Oppsigelsen er registrert. Du har tilgang som før til og med {end}, og du betaler ikke mer etter det.
        </p>
        {credited.map((invoice) => (
          <p key={invoice.ariaInvoiceNo} className={ui.text}>
            {creditedText[invoice.outcome](invoice.ariaInvoiceNo)}
          </p>
        ))}
        <Panel
          heading="Ombestemt deg?"
          headingId="ombestemt"
          actions={
            <>
              <ButtonLink to={pathTo('undoCancellation')}>Angre oppsigelse</ButtonLink>
              <HomeLink />
            </>
          }
        >
          <p className={ui.text}>Du kan angre oppsigelsen fram til {end}. Da fortsetter abonnementet som før.</p>
        </Panel>
      </div>
    </Page>
  );
}
