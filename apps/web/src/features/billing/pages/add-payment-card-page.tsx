import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function AddPaymentCardPage() {
  return <PlaceholderPage page={pages.addPaymentCard} />;
}
