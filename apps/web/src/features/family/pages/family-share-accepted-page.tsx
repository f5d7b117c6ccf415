import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function FamilyShareAcceptedPage() {
  return <PlaceholderPage page={pages.familyShareAccepted} />;
}
