import { LegalDocumentPage } from '../components/legal-document-page.tsx';

/** SPEC §2 cookie-policy: Markdown per title group (content/legal/{group}/cookie-policy.md). */
export function CookiePolicyPage() {
  return <LegalDocumentPage pageKey="cookiePolicy" document="cookie-policy" />;
}
