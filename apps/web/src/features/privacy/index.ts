// Public API of the privacy area. Its pages are in routes.ts (loaded lazily).
export { ConsentManagerButton } from './components/consent-manager-button.tsx';
export type { ConsentManagerButtonProps } from './components/consent-manager-button.tsx';
export { ConsentManager } from './components/consent-manager.tsx';
export { ConsentDialog } from './components/consent-dialog.tsx';
export type { ConsentDialogProps } from './components/consent-dialog.tsx';
export { useConsent, useConsentHistory } from './hooks/use-consent.ts';
export type { UseConsent } from './hooks/use-consent.ts';
export { consentKeys, consentQueryOptions, getConsent, putConsent, clientConfigQueryOptions } from './api/consent.ts';
export { ContentBlocks, Inline } from './components/content-blocks.tsx';
export { contentQueryOptions } from './api/privacy.ts';
