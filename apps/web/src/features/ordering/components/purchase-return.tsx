import { useEffect } from 'react';
import { useNavigate, useSearchParams } from '../../../lib/router/index.ts';
import { pages, pathTo, redirects } from '../../../app/paths.ts';
import { HomeLink } from '../../../components/links.tsx';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { useIdentity } from '../../auth/index.ts';
import { useOrder } from '../api/orders.ts';
import { clearDraft } from '../order-draft.ts';

/**
 * /completepurchase and /completevippspurchase: the provider sent the buyer back. The server
 * (which asks the provider) tells what became of the order; each outcome has its page:
 * the receipt, "Kjøpet ditt ble avbrutt" (retry the same order), "Kjøp feilet", or the timeout.
 */
export function PurchaseReturn({ page }: { page: 'completePurchase' | 'completeVippsPurchase' }) {
  const [search] = useSearchParams();
  const orderId = search.get('orderId');
  const navigate = useNavigate();
  const identity = useIdentity();
  const { data, error } = useOrder(orderId);
  const state = data?.order.state;

  useEffect(() => {
    if (!data || !orderId) return;
    const query = `?orderId=${encodeURIComponent(orderId)}`;
    if (data.order.state === 'fulfilled') {
      clearDraft();
      if (data.session) identity.remember(data.session);
      void navigate(`${pathTo('receipt')}${query}`, { replace: true });
    } else if (data.order.state === 'created' || data.order.state === 'cancelled') {
      void navigate(`${pathTo('cancelOrder')}${query}`, { replace: true });
    } else if (data.order.state === 'failed') {
      clearDraft();
      void navigate(`${pathTo('purchaseError')}${query}`, { replace: true });
    } else if (data.order.state === 'timed_out') {
      clearDraft();
      void navigate(redirects.orderTimeout.pattern, { replace: true });
    }
  }, [data, orderId, identity, navigate]);

  useEffect(() => {
    if (error || orderId === null) void navigate(pathTo('purchaseError'), { replace: true });
  }, [error, orderId, navigate]);

  return (
    <Page title={pages[page].title}>
      {state === 'paid' ? (
        <Panel accent heading="Vi fikk ikke fullført bestillingen" headingId="betalt-uten-abonnement" actions={<HomeLink />}>
          <p className={ui.text} role="alert">
            Betalingen er mottatt, men du har allerede et aktivt abonnement på avisen. Pengene blir betalt tilbake til deg.
          </p>
        </Panel>
      ) : (
        <p className={ui.muted} role="status">
          Sjekker svaret fra betalingstjenesten …
        </p>
      )}
    </Page>
  );
}
