import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function EditProfilePage() {
  return <PlaceholderPage page={pages.editProfile} />;
}
