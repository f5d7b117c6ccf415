import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function DataPage() {
  return <PlaceholderPage page={pages.data} />;
}
