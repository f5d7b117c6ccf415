import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function BusinessAdminPage() {
  return <PlaceholderPage page={pages.businessAdmin} />;
}
