import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function Consent3Page() {
  return <PlaceholderPage page={pages.consent3} />;
}
