import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function StudentPage() {
  return <PlaceholderPage page={pages.student} />;
}
