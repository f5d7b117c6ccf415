import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function CookiePolicyPage() {
  return <PlaceholderPage page={pages.cookiePolicy} />;
}
