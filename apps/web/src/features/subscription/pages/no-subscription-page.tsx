import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function NoSubscriptionPage() {
  return <PlaceholderPage page={pages.noSubscription} />;
}
