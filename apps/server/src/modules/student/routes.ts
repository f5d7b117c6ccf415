import { requestUrlOf } from '../../plugins/portal-origin.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activateStudentBodySchema,
  activateStudentResponseSchema,
  sessionQuerySchema,
  studentEmailBodySchema,
  studentEmailResponseSchema,
  studentInfoResponseSchema,
  studentStatusResponseSchema,
} from '@minside/domain';
import type { SessionStore } from '../../plugins/session.ts';
import type { TitleService } from '../titles/index.ts';
import type { StudentService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409, 429);


/**
 * SPEC §7 `POST student-email/` and `POST activate-student-subscription/` (both spellings,
 * with and without the trailing slash), the signed-in student's status for the home page,
 * and the public facts for /student. The title is `?titleCode=` (as for /api/session), else the host's.
 */
export const studentRoutes: FastifyPluginAsyncZod<{ student: StudentService; sessions: SessionStore; titles: TitleService }> = async (app, { student, sessions, titles }) => {
  for (const path of ['/api/student-email/', '/api/student-email']) {
    app.post(
      path,
      { schema: { tags: ['student'], querystring: sessionQuerySchema, body: studentEmailBodySchema, response: { 200: studentEmailResponseSchema, ...errors } } },
      async (request) => {
        const { user } = await sessions.require(request);
        return student.sendCode(user, titles.titleFor(request.query.titleCode, requestUrlOf(request)), request.body);
      },
    );
  }

  for (const path of ['/api/activate-student-subscription/', '/api/activate-student-subscription']) {
    app.post(
      path,
      { schema: { tags: ['student'], querystring: sessionQuerySchema, body: activateStudentBodySchema, response: { 200: activateStudentResponseSchema, ...errors } } },
      async (request) => {
        const { user } = await sessions.require(request);
        return student.activate(user, titles.titleFor(request.query.titleCode, requestUrlOf(request)), request.body);
      },
    );
  }

  app.get('/api/student/status', { schema: { tags: ['student'], response: { 200: studentStatusResponseSchema, ...errors } } }, async (request) => {
    const { user } = await sessions.require(request);
    return { status: await student.status(user.id) };
  });

  app.get(
    '/api/student/info',
    { schema: { tags: ['student'], querystring: sessionQuerySchema, response: { 200: studentInfoResponseSchema, ...errors } } },
    async (request) => student.info(titles.titleFor(request.query.titleCode, requestUrlOf(request)).titleCode),
  );
};
