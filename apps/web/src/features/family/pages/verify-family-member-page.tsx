import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function VerifyFamilyMemberPage() {
  return <PlaceholderPage page={pages.verifyFamilyMember} />;
}
