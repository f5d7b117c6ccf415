import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function DataTakeoutPage() {
  return <PlaceholderPage page={pages.dataTakeout} />;
}
