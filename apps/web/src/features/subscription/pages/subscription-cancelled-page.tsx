import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function SubscriptionCancelledPage() {
  return <PlaceholderPage page={pages.subscriptionCancelled} />;
}
