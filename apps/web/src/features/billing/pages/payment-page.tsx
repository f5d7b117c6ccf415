import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function PaymentPage() {
  return <PlaceholderPage page={pages.payment} />;
}
