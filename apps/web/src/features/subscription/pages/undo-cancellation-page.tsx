import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatLongDate, userFacingState } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import { isApiError } from '../../../lib/http.ts';
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
  const end = formatLongDate(subscription.currentPeriodEnd);
  const home = (
    <Link className={`${button.button} ${done ? button.primary : button.secondary}`} to={pathTo('home')}>
      Til Min Side
    </Link>
  );

  if (done) {
    return (
      <Page title={pages.undoCancellation.title}>
        <div className={`${ui.stack} ${ui.narrow}`}>
          <p className={ui.success} role="status">
            Oppsigelsen er angret. {subscription.planName} fortsetter som før, og neste fornyelse er {end}.
          </p>
          <div className={ui.actions}>{home}</div>
        </div>
      </Page>
    );
  }

  if (state === 'expired') {
    return (
      <Page title={pages.undoCancellation.title} lead={`Abonnementet løp ut ${end}, så oppsigelsen kan ikke angres lenger. Du kan starte det på nytt i stedet.`}>
        <section className={`${ui.panelAccent} ${ui.narrow}`}>
          <ReactivateButton subscription={subscription} />
        </section>
      </Page>
    );
  }

  if (state !== 'cancelled') {
    return (
      <Page title={pages.undoCancellation.title}>
        <section className={`${ui.panelAccent} ${ui.narrow}`}>
          <p className={ui.text}>Abonnementet ditt er ikke sagt opp, så det er ingenting å angre.</p>
          <div className={ui.actions}>{home}</div>
        </section>
      </Page>
    );
  }

  return (
    <Page title={pages.undoCancellation.title} lead={`${subscription.planName} er sagt opp og løper ut ${end}. Angrer du oppsigelsen, fortsetter abonnementet som før.`}>
      <section className={`${ui.panel} ${ui.narrow}`} aria-labelledby="angre">
        <h2 id="angre" className={ui.panelHeading}>
          Vil du fortsette å abonnere?
        </h2>
        <p className={ui.text}>Du betaler som før, og abonnementet fornyes {end}.</p>
        {mutation.error ? (
          <p className={ui.alert} role="alert">
            {isApiError(mutation.error) ? mutation.error.message : 'Noe gikk galt. Prøv igjen om litt.'}
          </p>
        ) : null}
        <div className={ui.actions}>
          <button type="button" className={`${button.button} ${button.primary} ${ui.button}`} disabled={mutation.isPending} onClick={() => mutation.mutate()}>
            {mutation.isPending ? 'Angrer …' : 'Angre oppsigelsen'}
          </button>
          {home}
        </div>
      </section>
    </Page>
  );
}
