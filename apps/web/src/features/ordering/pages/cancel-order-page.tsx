import { Link, useSearchParams } from '../../../lib/router/index.ts';
import { pages, pathTo } from '../../../app/paths.ts';
import button from '../../../components/button.module.css';
import { Page } from '../../../components/page.tsx';
import ui from '../../../components/ui.module.css';
import { useSessionUser } from '../../auth/index.ts';
import { useCancelOrder, useOrder } from '../api/orders.ts';
import { clearDraft } from '../order-draft.ts';

/**
 * SPEC §2 /avbryt-bestilling, §8 "Kjøpet ditt ble avbrutt" with a retry: where the buyer lands
 * after cancelling at the provider. "Prøv igjen" resumes the same order; "Avbryt bestillingen"
 * ends it (and cancels a payment still open at the provider).
 */
export function CancelOrderPage() {
  const [search] = useSearchParams();
  const user = useSessionUser();
  const orderId = user ? search.get('orderId') : null;
  const { data } = useOrder(orderId);
  const cancel = useCancelOrder();
  const order = cancel.data ?? data?.order ?? null;
  const open = order !== null && (order.state === 'created' || order.state === 'awaiting_payment');

  return (
    <Page title={pages.cancelOrder.title}>
      <section className={`${ui.panelAccent} ${ui.narrow}`} aria-labelledby="avbrutt">
        <h2 id="avbrutt" className={ui.panelHeading}>
          {order?.state === 'cancelled' ? 'Bestillingen er avbrutt' : 'Du har ikke betalt noe'}
        </h2>
        <p className={ui.text} role="status">
          {order?.state === 'cancelled'
            ? 'Bestillingen er avsluttet, og du er ikke trukket for noe. Du kan starte en ny bestilling når du vil.'
            : open
              ? 'Betalingen ble avbrutt før den var fullført. Bestillingen din er tatt vare på, så du kan prøve igjen uten å fylle ut alt på nytt.'
              : 'Kjøpet ble ikke fullført, og du er ikke trukket for noe.'}
        </p>
        {cancel.error ? (
          <p className={ui.alert} role="alert">
            {cancel.error.message}
          </p>
        ) : null}
        <div className={ui.actions}>
          {open && order ? (
            <>
              <Link className={`${button.button} ${button.primary}`} to={`${pathTo('orderSubscription')}?ordre=${encodeURIComponent(order.orderId)}`}>
                Prøv igjen
              </Link>
              <button
                type="button"
                className={`${button.button} ${button.secondary} ${ui.button}`}
                disabled={cancel.isPending}
                onClick={() => cancel.mutate(order.orderId, { onSuccess: () => clearDraft() })}
              >
                {cancel.isPending ? 'Avbryter …' : 'Avbryt bestillingen'}
              </button>
            </>
          ) : (
            <Link className={`${button.button} ${button.primary}`} to={pathTo('orderSubscription')}>
              Start en ny bestilling
            </Link>
          )}
        </div>
      </section>
    </Page>
  );
}
