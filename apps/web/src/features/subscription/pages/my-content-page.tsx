import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function MyContentPage() {
  return <PlaceholderPage page={pages.myContent} />;
}
