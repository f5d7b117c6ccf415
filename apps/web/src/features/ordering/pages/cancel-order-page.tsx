import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function CancelOrderPage() {
  return <PlaceholderPage page={pages.cancelOrder} />;
}
