import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  activateStudentBodySchema,
  activateStudentResponseSchema,
  sessionQuerySchema,
  studentEmailBodySchema,
  studentEmailResponseSchema,
  studentInfoResponseSchema,
  studentStatusResponseSchema,
} from '@minside/domain';
import type { StudentService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409, 429);

/**
 * SPEC §7 `POST student-email/` and `POST activate-student-subscription/` (both spellings,
 * with and without the trailing slash), the signed-in student's status for the home page,
 * and the public facts for /student. The title is `?titleCode=` (as for /api/session), else the host's.
 */
export const studentRoutes: FastifyPluginAsyncZod<{ student: StudentService }> = async (app, { student }) => {
  // SPEC §7's paths share no prefix: the signed-in calls share this plugin and its hook instead.
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', app.authenticate);
    const typed = signedIn.withTypeProvider<ZodTypeProvider>();
    for (const path of ['/api/student-email/', '/api/student-email']) {
      typed.post(path, { schema: { tags: ['student'], querystring: sessionQuerySchema, body: studentEmailBodySchema, response: { 200: studentEmailResponseSchema, ...errors } } }, async (request) =>
        student.sendCode(request.user, request.title, request.body),
      );
    }
    for (const path of ['/api/activate-student-subscription/', '/api/activate-student-subscription']) {
      typed.post(
        path,
        { schema: { tags: ['student'], querystring: sessionQuerySchema, body: activateStudentBodySchema, response: { 200: activateStudentResponseSchema, ...errors } } },
        async (request) => student.activate(request.user, request.title, request.body),
      );
    }
    typed.get('/api/student/status', { schema: { tags: ['student'], response: { 200: studentStatusResponseSchema, ...errors } } }, async (request) => ({
      status: await student.status(request.user.id),
    }));
  });

  app.get('/api/student/info', { schema: { tags: ['student'], querystring: sessionQuerySchema, response: { 200: studentInfoResponseSchema, ...errors } } }, async (request) =>
    student.info(request.title.titleCode),
  );
};
