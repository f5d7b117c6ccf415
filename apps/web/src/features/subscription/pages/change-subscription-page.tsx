import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function ChangeSubscriptionPage() {
  return <PlaceholderPage page={pages.changeSubscription} />;
}
