import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from './helper.ts';

// Issue 26.6: the OpenAPI document at /api/docs is a contract others can use. It validates with
// a maintained OpenAPI validator, every operation says what it takes and what it answers, and
// the web's central calls are type-checked against a client generated from it, so a route whose
// contract drifts from what the web expects fails here.

interface MediaType {
  schema?: Record<string, unknown>;
}
interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
}
interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, ResponseObject>;
}
type Document = OpenAPI3 & { paths: Record<string, Record<string, Operation>> };

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;
const writes = new Set<string>(['put', 'post', 'delete', 'patch']);

/**
 * Writes that take no body at all. Empty on purpose: the API's writes are JSON (plugins/csrf.ts
 * refuses any other content type, and an empty JSON body is refused by Fastify), so a write
 * that needs nothing declares the empty object `{}` (emptyBodySchema) instead of being listed here.
 */
const writesWithoutBody: Record<string, string> = {};

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([route, item]) =>
    methods.filter((method) => item[method] !== undefined).map((method) => ({ key: `${method.toUpperCase()} ${route}`, route, method, operation: item[method] as Operation })),
  );

const hasSchema = (media: MediaType | undefined) => media?.schema !== undefined && typeof media.schema === 'object';

/** Every JSON answer of the API is an object or an array (the web's http.ts refuses anything else). */
function isJsonContract(schema: Record<string, unknown>): boolean {
  if (typeof schema['$ref'] === 'string') return true;
  if (schema['type'] === 'object' || schema['type'] === 'array') return true;
  const branches = (['oneOf', 'anyOf', 'allOf'] as const).flatMap((keyword) => (Array.isArray(schema[keyword]) ? (schema[keyword] as Record<string, unknown>[]) : []));
  return branches.length > 0 && branches.every(isJsonContract);
}

/** The API's error body: `{ code, message }` (packages/domain/src/core/api-error.ts). */
function isApiError(schema: Record<string, unknown> | undefined): boolean {
  const required = (schema?.['required'] ?? []) as string[];
  return schema?.['type'] === 'object' && required.includes('code') && required.includes('message');
}

describe('the OpenAPI document at /api/docs (PGlite)', () => {
  let test: TestApp;
  let document: Document;

  beforeAll(async () => {
    test = await buildTestApp('pglite');
    const response = await test.app.inject({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    document = response.json<Document>();
  });
  afterAll(() => test?.close());

  it('validates against the OpenAPI specification (@apidevtools/swagger-parser)', async () => {
    // validate() dereferences in place: it gets its own copy.
    await expect(SwaggerParser.validate(structuredClone(document) as Awaited<ReturnType<typeof SwaggerParser.validate>>)).resolves.toBeDefined();
  });

  it('documents the request body of every write of /api', () => {
    const writeOperations = operationsOf(document).filter(({ route, method }) => route.startsWith('/api/') && writes.has(method));
    expect(writeOperations.length).toBeGreaterThan(60);
    const missing = writeOperations.filter(({ key, operation }) => !(key in writesWithoutBody) && !Object.values(operation.requestBody?.content ?? {}).some(hasSchema)).map(({ key }) => key);
    expect(missing).toEqual([]);
  });

  it('documents a success answer with its content and the error answers of every operation', () => {
    const problems = operationsOf(document).flatMap(({ key, operation }) => {
      const responses = Object.entries(operation.responses ?? {});
      // A link a person follows (GET /api/login/start) answers with a redirect, whose description says where to.
      const redirects = responses.filter(([status, response]) => /^3\d\d$/.test(status) && /\S/.test(response.description ?? '') && response.description !== 'Default Response');
      const successes = responses.filter(([status]) => /^2\d\d$/.test(status));
      const errors = responses.filter(([status]) => /^[45]\d\d$/.test(status));
      const statuses = new Set(responses.map(([status]) => status));
      const takesInput = operation.requestBody !== undefined || (operation.parameters ?? []).length > 0;
      const found: string[] = [];
      // A 204 has no content; any other success says what it sends: JSON (an object or an
      // array), or a file in its own media type (a PDF, a CSV, an EHF XML).
      const described = successes.filter(([status, response]) =>
        status === '204'
          ? true
          : Object.entries(response.content ?? {}).some(([type, media]) => hasSchema(media) && (type !== 'application/json' || isJsonContract(media.schema as Record<string, unknown>))),
      );
      if (successes.length + redirects.length === 0 || described.length < successes.length) found.push(`${key}: a success answer without its content`);
      // Any route can fail unexpectedly or find the database away (plugins/errors.ts), and input
      // that does not match the route's schema is a 400.
      for (const status of ['500', '503', ...(takesInput ? ['400'] : [])]) if (!statuses.has(status)) found.push(`${key}: no ${status} answer`);
      for (const [status, response] of errors) {
        if (!isApiError(response.content?.['application/json']?.schema)) found.push(`${key}: ${status} is not { code, message }`);
      }
      return found;
    });
    expect(problems).toEqual([]);
  });

  it('reads path and query parameters from plain objects, which the document can show whole', () => {
    // @fastify/swagger lists an operation's parameters from the properties of its params and
    // querystring schemas: a union there is flattened to its last branch, and the other
    // branches' values vanish from the contract (GET /api/content/{kind}/{page} lost every legal page).
    const unions = test.app.routeTable().flatMap((route) => {
      const schema = route.schema as { hide?: boolean; params?: unknown; querystring?: unknown } | undefined;
      if (!schema || schema.hide || route.method === 'HEAD') return [];
      return (['params', 'querystring'] as const).flatMap((part) => {
        const partSchema = schema[part];
        if (!(partSchema instanceof z.ZodType)) return [];
        const json = z.toJSONSchema(partSchema, { io: 'input', unrepresentable: 'any' });
        return json.type === 'object' && json.properties !== undefined ? [] : [`${route.method} ${route.url} ${part}`];
      });
    });
    expect(unions).toEqual([]);
  });

  // Generating and type-checking take 10–25 s on a busy 2-core machine: more than the project's 30 s default leaves room for.
  it("types the web's central calls with a client generated from the document (openapi-typescript)", { timeout: 120_000 }, async () => {
    const generated = astToString(await openapiTS(structuredClone(document), { silent: true }));
    const repo = fileURLToPath(new URL('../../../', import.meta.url));
    const web = (file: string) => JSON.stringify(path.join(repo, 'apps/web/src/features', file));
    // What drift this catches: the server's documented 200 answer (generated from the route's
    // response schema) must be assignable to the type the web's call promises its callers (the
    // domain type it names in `http.get<T>`). A route that drops or renames a field the web
    // reads, makes one optional or nullable, or answers with another schema than the one the
    // web names, no longer type-checks. (The other direction would fail on every new field.)
    const check = `
import type { paths } from './generated-api.ts';
import type { getSession } from ${web('auth/api/get-session.ts')};
import type { getInvoices } from ${web('billing/api/get-invoices.ts')};
import type { getSubscription } from ${web('subscription/api/get-subscription.ts')};
import type { getHomeOverview } from ${web('subscription/api/get-home-overview.ts')};
import type { getProfile } from ${web('profile/api/profile.ts')};
import type { getFamily } from ${web('family/api/family.ts')};

type Ok<P extends keyof paths> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;
type Promised<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;
declare function served<P extends keyof paths>(path: P): Ok<P>;

export const session: Promised<typeof getSession> = served('/api/session');
export const invoices: Promised<typeof getInvoices> = served('/api/invoice/{accountNo}');
export const subscription: Promised<typeof getSubscription> = served('/api/subscription/{accountNo}/{titleCode}');
export const overview: Promised<typeof getHomeOverview> = served('/api/overview');
export const profile: Promised<typeof getProfile> = served('/api/profile');
export const family: Promised<typeof getFamily> = served('/api/family');
`;
    expect(typeCheck(repo, { 'generated-api.ts': generated, 'web-calls.ts': check })).toEqual([]);
  });
});

/**
 * Type-checks in-memory files with the web's compiler options, as if they lay in apps/web/src
 * (so the web's imports resolve as they do in its own build). Returns the diagnostics as text.
 */
function typeCheck(repo: string, files: Record<string, string>): string[] {
  const webConfig = path.join(repo, 'apps/web/tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    webConfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${webConfig}`);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, composite: false, declaration: false, emitDeclarationOnly: false, incremental: false, tsBuildInfoFile: undefined };
  const folder = path.join(repo, 'apps/web/src/__contract__');
  const virtual = new Map(Object.entries(files).map(([name, text]) => [path.join(folder, name), text]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.directoryExists = (directory) => directory === folder || (directoryExists?.call(host, directory) ?? true);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError, create) => {
    const text = virtual.get(file);
    return text === undefined ? getSourceFile.call(host, file, language, onError, create) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options, host });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where =
      diagnostic.file && diagnostic.start !== undefined ? `${path.relative(repo, diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1} ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}
