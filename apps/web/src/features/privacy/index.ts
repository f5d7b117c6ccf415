// Public API of the privacy area. Its pages are in routes.ts (loaded lazily).
export { ConsentManagerButton } from './components/consent-manager-button.tsx';
export { ConsentManager, loadConsentBar, preloadConsentBar } from './components/consent-manager.tsx';
export { clientConfigQueryOptions } from './api/client-config.ts';
export { ContentBlocks } from './components/content-blocks.tsx';
export { contentQueryOptions } from './api/privacy.ts';
