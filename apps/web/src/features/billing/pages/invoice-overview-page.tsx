import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function InvoiceOverviewPage() {
  return <PlaceholderPage page={pages.invoiceOverview} />;
}
