// Public API of the support area. Its pages are in routes.ts (loaded lazily).
export { faqFromDocument, searchFaq } from './faq.ts';
export type { FaqEntry, FaqTopic } from './faq.ts';
