import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function HomePage() {
  return <PlaceholderPage page={pages.home} />;
}
