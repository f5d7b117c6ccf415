import { LegalDocumentPage } from '../components/legal-document-page.tsx';

/** SPEC §2 personverndetaljer: Markdown per title group (content/legal/{group}/personverndetaljer.md). */
export function PrivacyDetailsPage() {
  return <LegalDocumentPage pageKey="privacyDetails" document="personverndetaljer" />;
}
