import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function ChangePaymentMethodVerifyPage() {
  return <PlaceholderPage page={pages.changePaymentMethodVerify} />;
}
