import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function MoreTermsPage() {
  return <PlaceholderPage page={pages.moreTerms} />;
}
