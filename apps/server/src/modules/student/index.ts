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
