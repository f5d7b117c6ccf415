import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function CancelSubscriptionPage() {
  return <PlaceholderPage page={pages.cancelSubscription} />;
}
