import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function PrivacySettingsPage() {
  return <PlaceholderPage page={pages.privacySettings} />;
}
