// Public API of the student area. Its pages are in routes.ts (loaded lazily).
export { StudentStatusNotice, useStudentStatusOf } from './components/student-status-notice.tsx';
