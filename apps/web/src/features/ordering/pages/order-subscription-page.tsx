import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function OrderSubscriptionPage() {
  return <PlaceholderPage page={pages.orderSubscription} />;
}
