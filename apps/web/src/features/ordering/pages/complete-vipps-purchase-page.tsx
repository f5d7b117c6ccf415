import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function CompleteVippsPurchasePage() {
  return <PlaceholderPage page={pages.completeVippsPurchase} />;
}
