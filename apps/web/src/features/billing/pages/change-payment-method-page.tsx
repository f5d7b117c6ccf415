import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function ChangePaymentMethodPage() {
  return <PlaceholderPage page={pages.changePaymentMethod} />;
}
