// Public API of the ordering area. Its pages are in routes.ts (loaded lazily).
export { WithdrawalNotice } from './components/withdrawal-notice.tsx';
