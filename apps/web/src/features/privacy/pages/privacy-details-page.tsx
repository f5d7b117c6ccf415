import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function PrivacyDetailsPage() {
  return <PlaceholderPage page={pages.privacyDetails} />;
}
