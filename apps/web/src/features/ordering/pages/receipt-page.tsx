import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function ReceiptPage() {
  return <PlaceholderPage page={pages.receipt} />;
}
