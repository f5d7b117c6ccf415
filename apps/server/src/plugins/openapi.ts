import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@minside/domain';
import { stateChangingMethods } from './route-scope.ts';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** The answers plugins/errors.ts gives whatever the route: an unexpected failure, and a database that does not answer or a server that is closing. */
const everyRoute = { 500: apiErrorSchema, 503: apiErrorSchema };
/** And to every write to /api: from another site (403) or not JSON (415), plugins/csrf.ts; over the body limit (413). */
const everyApiWrite = { 403: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema };

/** Adds the edge's answers to what a documented route declares itself (the route's own entries win). */
function withEdgeAnswers(input: TransformInput): TransformInput {
  const { schema, url, route } = input;
  if (!schema || schema.hide) return input;
  const methods = [route.method].flat();
  const apiWrite = (url === '/api' || url.startsWith('/api/')) && methods.some((method) => stateChangingMethods.has(method));
  return { ...input, schema: { ...schema, response: { ...everyRoute, ...(apiWrite ? everyApiWrite : {}), ...(schema.response as object | undefined) } } };
}

/**
 * The OpenAPI document at GET /api/docs, generated from the routes' zod schemas (issue 26.6:
 * test/openapi-contract.test.ts validates it and type-checks the web's calls against it).
 * Schemas with an id (the recursive ones, which can only be referred to) become
 * components/schemas: without jsonSchemaTransformObject their $refs would point nowhere.
 * Only the documentation is changed here; what a route validates and sends is its own schema.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Min Side API', version: '1.0.0' } },
    transform: (input) => jsonSchemaTransform(withEdgeAnswers(input)),
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
}
