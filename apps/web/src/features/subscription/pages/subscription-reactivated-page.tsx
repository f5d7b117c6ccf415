import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function SubscriptionReactivatedPage() {
  return <PlaceholderPage page={pages.subscriptionReactivated} />;
}
