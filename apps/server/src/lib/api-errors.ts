import { apiErrorSchema } from '@minside/domain';

/**
 * A route area's documented error answers, each status with the one error body `{ code, message }`
 * (packages/domain api-error.ts): `apiErrors(400, 401, 404)`. What every route may answer (500,
 * 503; 403, 413 and 415 on writes) the OpenAPI plugin adds itself (plugins/openapi.ts).
 */
export function apiErrors<const Status extends number>(...statuses: Status[]): Record<Status, typeof apiErrorSchema> {
  return Object.fromEntries(statuses.map((status) => [status, apiErrorSchema])) as Record<Status, typeof apiErrorSchema>;
}
