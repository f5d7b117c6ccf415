import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from '../../../lib/router/index.ts';
import { formatKroner } from '@minside/domain';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useSessionUser } from '../../auth/index.ts';
import { useTitle } from '../../titles/index.ts';
import { useWinback } from '../api/orders.ts';

/**
 * SPEC §2 /winback (public), §9 "a winback of 3 months for the price of 1": for former
 * subscribers, known by a signed link (`?token=`) or by signing in; active ones are sent to
 * /allerede-abonnent.
 */
export function WinbackPage() {
  const title = useTitle();
  const user = useSessionUser();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const navigate = useNavigate();
  const { data, isPending, error } = useWinback(title.titleCode, token);

  useEffect(() => {
    if (data?.activeSubscriber && user) void navigate(pathTo('alreadySubscriber'), { replace: true });
  }, [data?.activeSubscriber, user, navigate]);

  const orderLink = `${pathTo('orderSubscription')}?${new URLSearchParams({ tilbud: 'winback', ...(token ? { token } : {}) })}`;
  const offer = data?.offer ?? null;

  return (
    <Page
      title={pages.winback.title}
      lead={data?.givenName ? `Hei ${data.givenName}! Vi har savnet deg hos ${title.name}.` : `Har du vært abonnent hos ${title.name} før? Da har vi et tilbud til deg.`}
    >
      <section className={`${ui.panelAccent} ${ui.narrow}`} aria-labelledby="tilbud">
        <h2 id="tilbud" className={ui.panelHeading}>
          3 måneder for prisen av 1
        </h2>
        {isPending ? (
          <p className={ui.muted} role="status">
            Henter tilbudet …
          </p>
        ) : error ? (
          <p className={ui.alert} role="alert">
            Vi fikk ikke hentet tilbudet. Last siden på nytt om litt.
          </p>
        ) : data?.eligible && offer ? (
          <>
            <p className={ui.text}>
              Få {offer.plan.name} i 3 måneder for {formatKroner(offer.quote.amountNowOre)}. Deretter {formatKroner(offer.quote.priceLaterOre)} per måned, og du kan si opp når du vil.
            </p>
            <div className={ui.actions}>
              <Link className={`${button.button} ${button.primary}`} to={orderLink}>
                Ta imot tilbudet
              </Link>
            </div>
          </>
        ) : (
          <>
            <p className={ui.text} role={data?.reason ? 'alert' : undefined}>
              {data?.reason ?? 'Tilbudet gjelder for deg som har hatt abonnement før. Logg inn, så ser vi om det gjelder deg.'}
            </p>
            <div className={ui.actions}>
              <Link className={`${button.button} ${user ? button.secondary : button.primary}`} to={user ? pathTo('orderSubscription') : orderLink}>
                {user ? 'Se alle tilbud' : 'Logg inn og se tilbudet'}
              </Link>
            </div>
          </>
        )}
      </section>
    </Page>
  );
}
