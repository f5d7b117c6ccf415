import { LegalDocumentPage } from '../components/legal-document-page.tsx';

/** SPEC §2 data: Markdown per title group (content/legal/{group}/data.md). */
export function DataPage() {
  return <LegalDocumentPage pageKey="data" document="data" />;
}
