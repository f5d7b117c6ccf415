import { LegalDocumentPage } from '../components/legal-document-page.tsx';

/** SPEC §2 personvern: Markdown per title group (content/legal/{group}/personvern.md). */
export function PrivacyPage() {
  return <LegalDocumentPage pageKey="privacy" document="personvern" />;
}
