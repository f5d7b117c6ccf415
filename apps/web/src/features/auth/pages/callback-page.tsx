import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function CallbackPage() {
  return <PlaceholderPage page={pages.callback} />;
}
