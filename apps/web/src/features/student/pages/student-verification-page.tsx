import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function StudentVerificationPage() {
  return <PlaceholderPage page={pages.studentVerification} />;
}
