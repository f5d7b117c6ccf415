import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function FamilySharingPage() {
  return <PlaceholderPage page={pages.familySharing} />;
}
