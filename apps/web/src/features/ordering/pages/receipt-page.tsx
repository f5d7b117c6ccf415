import { withdrawalTexts } from '@minside/domain';
import { Link, useSearchParams } from '../../../lib/router/index.ts';
import { pages, pathTo } from '../../../app/paths.ts';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useSessionSubscription } from '../../auth/index.ts';
import { useTitle } from '../../titles/index.ts';
import { useOrder } from '../api/orders.ts';
import { OrderSummary } from '../components/order-summary.tsx';

/** SPEC §2 /kvittering: what was bought, what it cost, what it costs later, and when the paper starts. */
export function ReceiptPage() {
  const [search] = useSearchParams();
  const orderId = search.get('orderId');
  const title = useTitle();
  const subscription = useSessionSubscription();
  const { data, error, isPending } = useOrder(orderId);
  const order = data?.order.state === 'fulfilled' ? data.order : null;

  return (
    <Page title={pages.receipt.title} lead={`Takk for bestillingen! Velkommen som abonnent hos ${title.name}.`}>
      <section className={`${ui.panelAccent} ${ui.narrow}`} aria-labelledby="kjopt">
        <h2 id="kjopt" className={ui.panelHeading}>
          Dette har du kjøpt
        </h2>
        {order ? (
          <OrderSummary
            planName={order.plan.name}
            billingPeriod={order.plan.billingPeriod}
            quote={order.quote}
            deliveryAddress={order.deliveryAddress}
            paperStartsOn={order.paperStartsOn}
            startedOn={order.startedOn}
          />
        ) : orderId && isPending ? (
          <p className={ui.muted} role="status">
            Henter kvitteringen …
          </p>
        ) : (
          <p className={ui.text} role={error ? 'alert' : undefined}>
            {subscription ? `Du har ${subscription.planName}.` : 'Abonnementet ditt er registrert.'} Kvitteringen er også sendt på e-post.
          </p>
        )}
        {order ? <p className={ui.text}>Kvitteringen er også sendt til deg på e-post.</p> : null}
        {order ? (
          <p className={ui.text}>
            <strong>Angrerett:</strong> {withdrawalTexts.beforeBuying} <Link to={pathTo('withdrawal')}>Angre kjøpet</Link>
          </p>
        ) : null}
        <div className={ui.actions}>
          <HomeLink />
        </div>
      </section>
    </Page>
  );
}
