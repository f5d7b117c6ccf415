import { LegalDocumentPage } from '../components/legal-document-page.tsx';

/** SPEC §2 vilkaar-mer: Markdown per title group (content/legal/{group}/vilkaar-mer.md). */
export function MoreTermsPage() {
  return <LegalDocumentPage pageKey="moreTerms" document="vilkaar-mer" />;
}
