import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function ChangeSubscriptionReceiptPage() {
  return <PlaceholderPage page={pages.changeSubscriptionReceipt} />;
}
