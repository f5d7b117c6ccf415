import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '../../../lib/router/index.ts';
import { formatKroner, formatLongDate, osloToday, withdrawalTexts, type WithdrawalRefund, type WithdrawalResponse } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Fact, Facts } from '../../../components/facts.tsx';
import { ButtonLink, HomeAndCustomerServiceLinks, HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { NoticePanel, Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { useSessionUser } from '../../auth/index.ts';
import { subscriptionQueryOptions, useCurrentSubscription, useSubscriptionUpdate } from '../../subscription/index.ts';
import { useTitle } from '../../titles/index.ts';
import { withdraw, withdrawalKeys, withdrawalQueryOptions } from '../api/withdrawal.ts';
import styles from '../components/ordering.module.css';

/** How one invoice of the withdrawn purchase stands, in the subscriber's words. */
function refundText(refund: WithdrawalRefund): string {
  switch (refund.outcome) {
    case 'refunded':
      return `${formatKroner(refund.amountOre)} er betalt tilbake til deg${refund.creditNoteNumber ? ` (kreditnota ${refund.creditNoteNumber})` : ''}.`;
    case 'cancelled':
      return `Faktura ${refund.ariaInvoiceNo} på ${formatKroner(refund.amountOre)} er kreditert. Du skal ikke betale den.`;
    case 'pending':
      return `${formatKroner(refund.amountOre)} betales tilbake så snart betalingstjenesten har bekreftet det. Du får en kreditnota på e-post.`;
    case 'manual':
      return `${formatKroner(refund.amountOre)} betales tilbake av kundeservice, som tar kontakt med deg.`;
  }
}

function Withdrawn({ status }: { status: WithdrawalResponse }) {
  return (
    <Panel accent narrow heading="Du har angret kjøpet" headingId="angret" actions={<HomeLink />}>
      <p className={ui.success} role="status">
        Du angret kjøpet av {status.planName} {status.withdrawnAt ? formatLongDate(osloToday(new Date(status.withdrawnAt))) : ''}. Abonnementet er avsluttet.
      </p>
      {status.refunds.length > 0 ? (
        <ul className={styles.refunds} aria-label="Tilbakebetaling">
          {status.refunds.map((refund) => (
            <li key={refund.ariaInvoiceNo}>{refundText(refund)}</li>
          ))}
        </ul>
      ) : (
        <p className={ui.text}>Du hadde ikke betalt noe, så det er ingenting å betale tilbake.</p>
      )}
      <p className={ui.muted}>Bekreftelsen er sendt til deg på e-post.</p>
    </Panel>
  );
}

/**
 * Angre kjøpet (issue 25.8, ADR 030): the right of withdrawal for a subscription bought here on
 * the web. Within the deadline the page is the withdrawal form (the standard information, the
 * purchase's facts, one button); after it, the deadline with its date and the way to cancel.
 */
export function WithdrawalPage() {
  const subscription = useCurrentSubscription();
  const user = useSessionUser();
  const title = useTitle();
  const update = useSubscriptionUpdate();
  const queryClient = useQueryClient();
  const ref = subscription ?? { ariaAccountNo: 0, titleCode: '' };
  const { data: status, error, isPending } = useQuery({ ...withdrawalQueryOptions(ref), enabled: subscription !== null });
  const mutation = useMutation({
    mutationFn: () => withdraw(ref),
    onSuccess: async (answer) => {
      queryClient.setQueryData(withdrawalKeys.status(ref), answer);
      // The subscription has ended: the session and the home page learn it now.
      update(await queryClient.fetchQuery({ ...subscriptionQueryOptions(ref), staleTime: 0 }));
    },
  });
  if (!subscription) return null;
  const lead = 'Angrer du kjøpet av abonnementet? Ved kjøp på nett har du 14 dagers angrerett etter angrerettloven.';

  return (
    <Page title={pages.withdrawal.title} lead={lead}>
      <div className={`${ui.stack} ${ui.narrow}`}>
        {isPending ? (
          <p className={ui.muted} role="status">
            Henter kjøpet ditt …
          </p>
        ) : null}
        <ErrorAlert error={error} fallback="Vi fikk ikke hentet kjøpet ditt akkurat nå." />
        {status?.state === 'withdrawn' ? <Withdrawn status={status} /> : null}
        {status?.state === 'expired' ? (
          <NoticePanel
            actions={
              <>
                <ButtonLink to={pathTo('cancelSubscription')} variant="primary">
                  Si opp abonnementet
                </ButtonLink>
                <HomeLink variant="secondary" />
              </>
            }
          >
            {status.message}
          </NoticePanel>
        ) : null}
        {status?.state === 'notAvailable' ? <NoticePanel actions={<HomeAndCustomerServiceLinks />}>{status.message}</NoticePanel> : null}
        {status?.state === 'open' ? (
          <>
            <Panel heading="Angrerett" headingId="angrerett">
              <p className={ui.text}>{withdrawalTexts.right}</p>
              <p className={ui.text}>{withdrawalTexts.refund}</p>
            </Panel>
            <section className={ui.panelAccent} aria-labelledby="angreskjema">
              <h2 id="angreskjema" className={ui.panelHeading}>
                Angreskjema
              </h2>
              <Facts>
                <Fact label="Til">{title.name}</Fact>
                <Fact label="Abonnement">{status.planName}</Fact>
                <Fact label="Avtalen ble inngått">{status.agreedOn ? formatLongDate(status.agreedOn) : ''}</Fact>
                <Fact label="Angrefristen går ut">{status.deadline ? `${formatLongDate(status.deadline)} (til og med)` : ''}</Fact>
                <Fact label="Navn">{user ? `${user.givenName} ${user.familyName}`.trim() || user.displayName : ''}</Fact>
                <Fact label="Du får tilbake">{status.paidOre > 0 ? `${formatKroner(status.paidOre)}, med samme betalingsmiddel som du brukte` : 'Ingenting, du har ikke betalt noe ennå'}</Fact>
              </Facts>
              <p className={ui.text}>
                Når du angrer, avsluttes abonnementet i dag: tilgangen på nett og i appen stopper
                {subscription.features.paper ? ', og papiravisen slutter å komme' : ''}. Vil du heller beholde abonnementet ut perioden du har betalt for, kan du{' '}
                <Link to={pathTo('cancelSubscription')}>si det opp</Link> i stedet.
              </p>
              <ErrorAlert error={mutation.error} />
              <div className={ui.actions}>
                <button type="button" className={`${button.button} ${ui.danger} ${ui.button}`} onClick={() => mutation.mutate()} disabled={mutation.isPending}>
                  {mutation.isPending ? 'Angrer kjøpet …' : 'Angre kjøpet'}
                </button>
                <HomeLink variant="secondary">Avbryt</HomeLink>
              </div>
            </section>
          </>
        ) : null}
      </div>
    </Page>
  );
}
