// Public API of the ordering area. Its pages are in routes.ts (loaded lazily).
export { useWithdrawalNotice, WithdrawalNotice } from './components/withdrawal-notice.tsx';
