import { useMutation } from '../../../lib/query/index.ts';
import { useState } from 'react';
import { formatLongDate, lastDayWithAccess, renewalDay, userFacingState } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { NoticePanel, Panel } from '../../../components/panel.tsx';
import { undoCancellation } from '../api/mutations.ts';
import { ReactivateButton } from '../components/reactivate-button.tsx';
import ui from '../../../components/ui.module.css';
import { useCurrentSubscription, useSubscriptionUpdate, useToday } from '../use-subscription.ts';

/** SPEC §2 /angre-oppsigelse: undo the cancellation while the paid period runs. */
export function UndoCancellationPage() {
  const subscription = useCurrentSubscription();
  const today = useToday();
  const update = useSubscriptionUpdate();
  const [done, setDone] = useState(false);
  const mutation = useMutation({
    mutationFn: () => {
      if (!subscription) throw new Error('no subscription');
      return undoCancellation(subscription);
    },
    onSuccess: (result) => {
      update(result);
      setDone(true);
    },
  });
  if (!subscription) return null;
  const state = userFacingState(subscription, today);
  // Issue 25.2: access runs to the last day; the renewal is the day after.
  const end = formatLongDate(lastDayWithAccess(subscription.currentPeriodEnd));
  const renews = formatLongDate(renewalDay(subscription.currentPeriodEnd));

  if (done) {
    return (
      <Page title={pages.undoCancellation.title}>
        <div className={`${ui.stack} ${ui.narrow}`}>
          <p className={ui.success} role="status">
            Oppsigelsen er angret. {subscription.planName} fortsetter som før, og neste fornyelse er {renews}.
          </p>
          <div className={ui.actions}>
            <HomeLink />
          </div>
        </div>
      </Page>
    );
  }

  if (state === 'expired') {
    return (
      <Page title={pages.undoCancellation.title} lead={`Abonnementet ga tilgang til og med ${end}, så oppsigelsen kan ikke angres lenger. Du kan starte det på nytt i stedet.`}>
        <Panel accent narrow>
          <ReactivateButton subscription={subscription} />
        </Panel>
      </Page>
    );
  }

  if (state !== 'cancelled') {
    return (
      <Page title={pages.undoCancellation.title}>
        <NoticePanel actions={<HomeLink variant="secondary" />}>Abonnementet ditt er ikke sagt opp, så det er ingenting å angre.</NoticePanel>
      </Page>
    );
  }

  return (
    <Page title={pages.undoCancellation.title} lead={`${subscription.planName} er sagt opp og gir tilgang til og med ${end}. Angrer du oppsigelsen, fortsetter abonnementet som før.`}>
      <Panel
        narrow
        heading="Vil du fortsette å abonnere?"
        headingId="angre"
        actions={
          <>
            <button type="button" className={`${button.button} ${button.primary} ${ui.button}`} disabled={mutation.isPending} onClick={() => mutation.mutate()}>
              {mutation.isPending ? 'Angrer …' : 'Angre oppsigelsen'}
            </button>
            <HomeLink variant="secondary" />
          </>
        }
      >
        <p className={ui.text}>Du betaler som før, og abonnementet fornyes {renews}.</p>
        <ErrorAlert error={mutation.error} />
      </Panel>
    </Page>
  );
}
