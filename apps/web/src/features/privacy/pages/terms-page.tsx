import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function TermsPage() {
  return <PlaceholderPage page={pages.terms} />;
}
