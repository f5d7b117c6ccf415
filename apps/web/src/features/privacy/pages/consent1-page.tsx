import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function Consent1Page() {
  return <PlaceholderPage page={pages.consent1} />;
}
