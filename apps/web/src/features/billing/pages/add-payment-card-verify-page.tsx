import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function AddPaymentCardVerifyPage() {
  return <PlaceholderPage page={pages.addPaymentCardVerify} />;
}
