import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function ContactPage() {
  return <PlaceholderPage page={pages.contact} />;
}
