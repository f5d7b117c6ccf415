import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function DeliveryAddressPage() {
  return <PlaceholderPage page={pages.deliveryAddress} />;
}
