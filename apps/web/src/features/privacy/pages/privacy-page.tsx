import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function PrivacyPage() {
  return <PlaceholderPage page={pages.privacy} />;
}
