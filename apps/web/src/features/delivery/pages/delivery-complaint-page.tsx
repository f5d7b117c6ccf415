import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function DeliveryComplaintPage() {
  return <PlaceholderPage page={pages.deliveryComplaint} />;
}
