import { pages } from '../../../app/paths.ts';
import { Page } from '../../../components/page.tsx';
import { Panel } from '../../../components/panel.tsx';
import ui from '../../../components/ui.module.css';
import { useTitle } from '../../titles/index.ts';
import { RetryOrderLinks } from '../components/retry-order-links.tsx';

/** SPEC §2 /feil-kjop, §8 "Kjøp feilet" (an unexpected error, or the provider refused the payment). */
export function PurchaseErrorPage() {
  const title = useTitle();
  return (
    <Page title={pages.purchaseError.title}>
      <Panel accent narrow heading="Noe gikk galt" headingId="uventet" actions={<RetryOrderLinks />}>
        <p className={ui.text} role="alert">
          Det oppstod en uventet feil, og kjøpet ble ikke fullført. Du er ikke trukket for noe.
        </p>
        <p className={ui.text}>
          Prøv igjen, eller kontakt kundesenteret på telefon {title.customerCenterPhoneNumber} eller {title.customerCenterEmail}.
        </p>
      </Panel>
    </Page>
  );
}
