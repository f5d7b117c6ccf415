import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function AlreadySubscriberPage() {
  return <PlaceholderPage page={pages.alreadySubscriber} />;
}
