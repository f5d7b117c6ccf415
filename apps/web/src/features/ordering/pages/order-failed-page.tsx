import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function OrderFailedPage() {
  return <PlaceholderPage page={pages.orderFailed} />;
}
