import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function BusinessPage() {
  return <PlaceholderPage page={pages.business} />;
}
