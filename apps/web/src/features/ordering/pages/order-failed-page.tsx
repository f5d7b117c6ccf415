import { orderMessages } from '@minside/domain';
import { pages } from '../../../app/paths.ts';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { RetryOrderLinks } from '../components/retry-order-links.tsx';

/** SPEC §2 /bestilling-feilet (also where /order-timeout leads), §8 "timeout (server too slow, try later)". */
export function OrderFailedPage() {
  return (
    <Page title={pages.orderFailed.title}>
      <Panel accent narrow heading="Det tok for lang tid" headingId="for-treg" actions={<RetryOrderLinks />}>
        <p className={ui.text} role="alert">
          {orderMessages.timeout}
        </p>
        <p className={ui.text}>Du er ikke trukket for noe som ikke ble fullført. Ble du trukket likevel, får du pengene tilbake automatisk.</p>
      </Panel>
    </Page>
  );
}
