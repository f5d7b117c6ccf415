// The student area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { StudentPage } from './pages/student-page.tsx';
import { StudentReceiptPage } from './pages/student-receipt-page.tsx';

export const routes = {
  student: { Component: StudentPage },
  // The page with the code entry form loads on its own: zod and the form library (lib/use-zod-form.ts) stay off
  // the student page and the receipt (docs/performance.md).
  studentVerification: { load: () => import('./pages/student-verification-page.tsx').then((page) => page.StudentVerificationPage) },
  studentReceipt: { Component: StudentReceiptPage },
} satisfies AreaRoutes<'student'>;
