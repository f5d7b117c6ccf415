import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function CompletePurchasePage() {
  return <PlaceholderPage page={pages.completePurchase} />;
}
