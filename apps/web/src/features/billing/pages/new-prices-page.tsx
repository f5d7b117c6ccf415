import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function NewPricesPage() {
  return <PlaceholderPage page={pages.newPrices} />;
}
