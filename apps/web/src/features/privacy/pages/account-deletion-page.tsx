import { pages } from '../../../app/paths.ts';
import { PlaceholderPage } from '../../../components/placeholder-page.tsx';

export function AccountDeletionPage() {
  return <PlaceholderPage page={pages.accountDeletion} />;
}
