import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function ConnectSubscriptionPage() {
  return <PlaceholderPage page={pages.connectSubscription} />;
}
