// The student area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { StudentPage } from './pages/student-page.tsx';
import { StudentVerificationPage } from './pages/student-verification-page.tsx';
import { StudentReceiptPage } from './pages/student-receipt-page.tsx';

export const routes = {
  student: { Component: StudentPage },
  studentVerification: { Component: StudentVerificationPage },
  studentReceipt: { Component: StudentReceiptPage },
} satisfies AreaRoutes<'student'>;
