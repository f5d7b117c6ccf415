// Public API of the privacy area. Its pages are in routes.ts (loaded lazily).
export { ConsentManagerButton } from './components/consent-manager-button.tsx';
export type { ConsentManagerButtonProps } from './components/consent-manager-button.tsx';
