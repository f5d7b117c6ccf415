import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function StudentReceiptPage() {
  return <PlaceholderPage page={pages.studentReceipt} />;
}
