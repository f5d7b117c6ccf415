import { Link } from '../../../lib/router/index.ts';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useSessionSubscription } from '../../auth/index.ts';
import { useTitle } from '../../titles/index.ts';

/** SPEC §2 /allerede-abonnent: the buyer has a subscription here already, so there is nothing to buy. */
export function AlreadySubscriberPage() {
  const title = useTitle();
  const subscription = useSessionSubscription();
  return (
    <Page title={pages.alreadySubscriber.title}>
      <section className={`${ui.panelAccent} ${ui.narrow}`} aria-labelledby="har-abonnement">
        <h2 id="har-abonnement" className={ui.panelHeading}>
          Du har allerede tilgang
        </h2>
        <p className={ui.text}>
          {subscription ? `Du har ${subscription.planName} hos ${title.name}` : `Du har allerede et aktivt abonnement hos ${title.name}`}, så du trenger ikke kjøpe et nytt. Vil du bytte abonnement
          eller betalingsperiode, gjør du det på Min Side.
        </p>
        <div className={ui.actions}>
          <HomeLink />
          <Link className={`${button.button} ${button.secondary}`} to={pathTo('changeSubscription')}>
            Endre abonnement
          </Link>
        </div>
      </section>
    </Page>
  );
}
