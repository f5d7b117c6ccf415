import { useParams } from 'react-router';
import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';
import styles from './pay-invoice-page.module.css';

export interface PayInvoicePageProps {
  /** The invoice to pay, from the path /betal-faktura/{ariaInvoiceNo} (SPEC §2). */
  ariaInvoiceNo: string;
}

export function PayInvoicePage({ ariaInvoiceNo }: PayInvoicePageProps) {
  return (
    <PlaceholderPage page={pages.payInvoice}>
      <p className={styles.invoice}>
        Fakturanummer: <strong>{ariaInvoiceNo}</strong>
      </p>
    </PlaceholderPage>
  );
}

/** Route module: passes the path parameter to the view as a prop. */
export function PayInvoiceRoute() {
  const { ariaInvoiceNo = '' } = useParams<'ariaInvoiceNo'>();
  return <PayInvoicePage ariaInvoiceNo={ariaInvoiceNo} />;
}
