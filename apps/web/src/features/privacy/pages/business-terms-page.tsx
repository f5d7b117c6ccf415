import { LegalDocumentPage } from '../components/legal-document-page.tsx';

/** SPEC §2 vilkaar-bedrift: Markdown per title group (content/legal/{group}/vilkaar-bedrift.md). */
export function BusinessTermsPage() {
  return <LegalDocumentPage pageKey="businessTerms" document="vilkaar-bedrift" />;
}
