import { LegalDocumentPage } from '../components/legal-document-page.tsx';

/** SPEC §2 vilkaar: Markdown per title group (content/legal/{group}/vilkaar.md). */
export function TermsPage() {
  return <LegalDocumentPage pageKey="terms" document="vilkaar" />;
}
