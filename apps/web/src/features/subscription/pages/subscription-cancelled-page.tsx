import { formatLongDate, lastDayWithAccess, userFacingState } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import { ButtonLink, HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { NoticePanel, Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { useCurrentSubscription, useToday } from '../use-subscription.ts';

/** SPEC §2 /abonnement-avsluttet: the cancellation is registered; when access ends; undo. */
export function SubscriptionCancelledPage() {
  const subscription = useCurrentSubscription();
  const today = useToday();
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
