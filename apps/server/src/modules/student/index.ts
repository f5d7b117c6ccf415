// The student area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import { studentRoutes } from './routes.ts';
import { createStudentService, type StudentDeps, type StudentService } from './service.ts';

/**
 * Student subscriptions (SPEC §7's student calls, signed in) and /student's public facts. Returns
 * the service the nightly re-verification job runs.
 */
export async function registerStudent(app: FastifyInstance, deps: StudentDeps): Promise<StudentService> {
  const student = createStudentService(deps);
  await app.register(studentRoutes, { student });
  return student;
}

export type { StudentService } from './service.ts';
