import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function UndoCancellationPage() {
  return <PlaceholderPage page={pages.undoCancellation} />;
}
