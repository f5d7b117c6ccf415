import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function WinbackPage() {
  return <PlaceholderPage page={pages.winback} />;
}
