import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function DeliveryChangePage() {
  return <PlaceholderPage page={pages.deliveryChange} />;
}
