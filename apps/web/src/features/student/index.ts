// Public API of the student area. Its pages are in routes.ts (loaded lazily).
export { StudentStatusNotice } from './components/student-status-notice.tsx';
