import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function BusinessTermsPage() {
  return <PlaceholderPage page={pages.businessTerms} />;
}
