import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function PurchaseErrorPage() {
  return <PlaceholderPage page={pages.purchaseError} />;
}
