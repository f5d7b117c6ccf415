import Fastify from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sessionResponseSchema, subscriptionSchema } from '@minside/domain';
import { registerErrorHandling } from '../plugins/errors.ts';
import { checksAlikeBothWays, compileResponseWriter, responseSerializerCompiler } from './response-check.ts';

const subscription = {
  id: 'sub-1',
  ariaAccountNo: 40_000_001,
  titleCode: 'ADR',
  ariaPlanID: 'ADR-KOMPLETT',
  planName: 'Komplett',
  planProductType: 'COMBO',
  eligibleForSharing: true,
  instStatusCode: 1,
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: null },
  billingPeriod: 'MONTH',
  priceOre: 44_900,
  introductoryPrice: { priceOre: 100, months: 1, endsOn: '2026-12-01' },
  paymentMethod: 'INVOICE',
  features: { plusContent: true, ePaper: true, paper: true, familySharing: true, thirdPartyBundle: false },
  startedOn: '2024-01-01',
  currentPeriodEnd: '2026-12-01',
  cancelledAt: null,
  pendingChange: { ariaPlanID: 'ADR-DIGITAL', planName: 'Digital', on: '2026-12-01' },
  sharedFrom: null,
  companyDomain: null,
  maxMembers: 4,
};

/** A schema that contains itself through a getter, as zod 4 writes recursive types. */
interface TreeNode {
  name: string;
  children: TreeNode[];
}
const treeNode: z.ZodType<TreeNode> = z.object({
  name: z.string(),
  get children() {
    return z.array(treeNode);
  },
});

/** Both serializers of one schema, as Fastify compiles them for a route. */
function serializersOf(schema: z.ZodType) {
  const route = { schema, method: 'GET', url: '/api/test', httpStatus: '200' };
  return { ours: responseSerializerCompiler(route), library: serializerCompiler(route) };
}

/** What a serializer answers: the text it would send, or the name of what it threw. */
function outcome(serialize: (data: unknown) => string, data: unknown): string {
  try {
    return serialize(data);
  } catch (error) {
    return `threw ${(error as Error).name}: ${(error as { code?: string }).code}`;
  }
}

describe('checksAlikeBothWays', () => {
  it('holds for the contracts of the home page', () => {
    expect(checksAlikeBothWays(subscriptionSchema)).toBe(true);
    expect(checksAlikeBothWays(sessionResponseSchema)).toBe(true);
  });

  it('does not hold where a default, transform, pipe, codec or catch sits, however deep', () => {
    const inner = [
      z.string().default('x'),
      z.string().prefault('x'),
      z.string().transform((value) => value.length),
      z.string().pipe(z.string()),
      z.codec(z.string(), z.number(), { decode: Number, encode: String }),
      z.number().catch(0),
    ];
    for (const schema of inner) {
      expect(checksAlikeBothWays(schema)).toBe(false);
      expect(checksAlikeBothWays(z.object({ items: z.array(z.object({ value: schema.optional() })).nullable() }))).toBe(false);
      expect(checksAlikeBothWays(z.union([z.literal('none'), z.object({ value: schema })]))).toBe(false);
      expect(checksAlikeBothWays(z.record(z.string(), z.tuple([z.number()], schema)))).toBe(false);
    }
  });

  it('ends on a schema that refers to itself', () => {
    expect(checksAlikeBothWays(treeNode)).toBe(true);
    const lazy: z.ZodType<TreeNode> = z.lazy(() => z.object({ name: z.string().default(''), children: z.array(lazy) }));
    expect(checksAlikeBothWays(lazy)).toBe(false);
  });
});

describe('responseSerializerCompiler', () => {
  it('sends what the library serializer sends: the same text, unknown keys stripped', () => {
    const { ours, library } = serializersOf(subscriptionSchema);
    const withExtra = { ...subscription, passwordHash: 'secret', features: { ...subscription.features, internalNote: 'x' } };
    expect(ours(withExtra)).toBe(library(withExtra));
    expect(JSON.parse(ours(withExtra))).toEqual(subscription);
  });

  it('refuses what the library refuses, with the same error', () => {
    const { ours, library } = serializersOf(subscriptionSchema);
    const wrong = [
      { ...subscription, instStatusCode: 999 },
      { ...subscription, startedOn: '2024-13-01' },
      { ...subscription, priceOre: 1.5 },
      { ...subscription, planProductType: 'PAPER' },
      { ...subscription, pendingChange: { ariaPlanID: 'x', planName: 'y' } },
      { ...subscription, maxMembers: undefined },
      null,
      [],
    ];
    for (const data of wrong) {
      expect(outcome(ours, data)).toBe('threw FastifyError: FST_ERR_RESPONSE_SERIALIZATION');
      expect(outcome(library, data)).toBe(outcome(ours, data));
    }
  });

  it('checks backwards where the two ways differ: a missing field with a default is refused, not filled in', () => {
    const { ours, library } = serializersOf(z.object({ acceptedBy: z.string().nullable().default(null) }));
    expect(outcome(library, {})).toMatch(/^threw/);
    expect(outcome(ours, {})).toBe(outcome(library, {}));
    // Read forwards, the same schema would have sent the default.
    expect(z.safeParse(z.object({ acceptedBy: z.string().nullable().default(null) }), {}).success).toBe(true);
  });

  it('writes the subscription itself, without the library', () => {
    const { library } = serializersOf(subscriptionSchema);
    expect(compileResponseWriter(subscriptionSchema)(subscription)).toBe(library(subscription));
  });

  // The corners of JSON and of zod that the contracts of the route table seldom reach
  // (test/response-check.test.ts meets every contract with generated values).
  const corners: [string, z.ZodType, unknown[]][] = [
    ['a number that is not finite', z.object({ share: z.number() }), [{ share: 0.25 }, { share: -0 }, { share: 1e21 }, { share: Number.NaN }, { share: Number.POSITIVE_INFINITY }, { share: '1' }]],
    ['the first option that fits', z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.string() })]), [{ a: 'x', b: 'y' }, { b: 'y' }]],
    ['the first option that fits, the other way round', z.union([z.object({ a: z.string(), b: z.string() }), z.object({ a: z.string() })]), [{ a: 'x', b: 'y' }, { a: 'x' }]],
    ['undefined in an array', z.array(z.string().optional()), [[undefined, 'x'], [], ['x', 1]]],
    [
      'a key that must be there though its schema takes undefined',
      z.object({ note: z.unknown(), tag: z.string().optional() }),
      [{ note: undefined }, {}, { tag: undefined, note: 1 }, { note: { nested: [1, 'x'] } }],
    ],
    [
      'null, literals and enums',
      z.object({ kind: z.literal(['a', 1, true, null]), level: z.enum({ low: 1, high: 2 }), none: z.null() }),
      [
        { kind: 1, level: 2, none: null },
        { kind: 'b', level: 2, none: null },
        { kind: true, level: 'high', none: null },
      ],
    ],
    [
      'lengths in code points and formats',
      z.object({ code: z.string().min(2).max(3), on: z.iso.date(), at: z.iso.datetime() }),
      [
        { code: '😀😀', on: '2026-11-27', at: '2026-11-27T10:00:00Z' },
        { code: '😀😀😀😀', on: '2026-11-27', at: '2026-11-27T10:00:00Z' },
        { code: 'ab', on: '2026-13-01', at: '2026-11-27' },
      ],
    ],
    [
      'a refinement of an object',
      z.object({ from: z.number(), to: z.number() }).refine((range) => range.from <= range.to),
      [
        { from: 1, to: 2 },
        { from: 2, to: 1 },
      ],
    ],
    [
      'a record, a tuple and a readonly array',
      z.object({ byTitle: z.record(z.string(), z.number()), pair: z.tuple([z.string(), z.number()]), list: z.array(z.boolean()).readonly() }),
      [
        { byTitle: { ADR: 1 }, pair: ['x', 1], list: [true] },
        { byTitle: { ADR: 'x' }, pair: ['x', 1], list: [] },
      ],
    ],
    ['a looser object', z.looseObject({ id: z.string() }), [{ id: 'x', extra: 1 }, { extra: 1 }]],
    ['z.xor', z.xor([z.object({ a: z.string() }), z.object({ b: z.string() })]), [{ a: 'x' }, { a: 'x', b: 'y' }]],
    ['a date', z.object({ at: z.date() }), [{ at: new Date(Date.UTC(2026, 10, 27)) }, { at: '2026-11-27' }]],
    ['strings to escape', z.array(z.string()), [['"\\\n\u2028', '\ud800', 'Ærlig «sitat»']]],
  ];
  // Found by a review of the first version: each of these once came out differently.
  const keyed = (key: string) => `key:${key}`;
  const discriminated = z.discriminatedUnion('k', [z.object({ k: z.literal('a').optional(), p: z.string() }), z.object({ k: z.literal('b').optional(), q: z.string() })]);
  const circular: Record<string, unknown> = { s: 5 };
  circular.self = circular;
  corners.push(
    ['a check that rewrites: trim', z.object({ a: z.string().trim().toLowerCase() }), [{ a: '  X  ' }, { a: 'x' }]],
    ['a check that rewrites: a URL', z.object({ a: z.url() }), [{ a: ' https://example.com/\t' }, { a: 'https://example.com/' }, { a: 'ikke en adresse' }]],
    ['a check that rewrites into another type', z.string().overwrite(() => 5 as unknown as string), ['x']],
    ['a boolean with a check', z.object({ a: z.boolean().refine((value) => value) }), [{ a: false }, { a: true }]],
    ['coercion and a missing key', z.object({ a: z.coerce.string(), b: z.coerce.boolean() }), [{}, { a: 1, b: 0 }]],
    ['an exact optional', z.object({ a: z.string().exactOptional() }), [{ a: undefined }, {}, { a: 'x' }]],
    ['a key that is a symbol', z.object({ [Symbol('hidden')]: z.string(), b: z.string() }), [{ b: 'x' }]],
    [
      'toJSON that reads its key',
      z.object({ a: z.unknown(), list: z.array(z.unknown()) }),
      [
        { a: { toJSON: keyed }, list: [{ toJSON: keyed }] },
        { a: new Date(Date.UTC(2026, 10, 27)), list: [] },
      ],
    ],
    ['a key named toJSON', z.object({ toJSON: z.any() }), [{ toJSON: () => 'hi' }]],
    [
      'a BigInt where a string should be',
      z.object({ n: z.bigint(), s: z.string() }),
      [
        { n: 1n, s: 1 },
        { n: 1n, s: 'x' },
      ],
    ],
    ['a BigInt or a cycle before the option that fits', z.union([z.object({ n: z.any(), s: z.string() }), z.object({ s: z.number() })]), [{ n: 1n, s: 5 }, circular]],
    [
      'an optional key with a check, absent, in a union',
      z.union([
        z.object({
          a: z
            .string()
            .optional()
            .refine((value) => value !== undefined),
          b: z.string(),
        }),
        z.object({}),
      ]),
      [{ b: 'x' }, { a: 'y', b: 'x' }],
    ],
    ['a discriminated union in a union', z.union([discriminated, z.object({})]), [{ p: 'x' }, { k: 'b', q: 'y' }, { k: 'c' }]],
    [
      'a schema that contains itself',
      treeNode,
      [
        { name: 'a', children: [{ name: 'b', children: [] }] },
        { name: 'a', children: [{ name: 1, children: [] }] },
      ],
    ],
  );

  it.each(corners)('answers as the library does: %s', (_, schema, values) => {
    const { ours, library } = serializersOf(schema);
    const writer = compileResponseWriter(schema);
    for (const value of values) {
      const expected = outcome(library, value);
      expect(outcome(ours, value)).toBe(expected);
      // The writer never writes what the library would not send; where it cannot tell, it says so and the library answers.
      const written = writer(value);
      if (typeof written === 'string') expect(written).toBe(expected);
      else if (!expected.startsWith('threw')) expect(String(written)).toBe('Symbol(unsure)');
    }
  });

  it('takes a schema wrapped as { properties }, as the library does', () => {
    const ours = responseSerializerCompiler({ schema: { properties: subscriptionSchema }, method: 'GET', url: '/api/test', httpStatus: '200' });
    expect(ours(subscription)).toBe(serializersOf(subscriptionSchema).library(subscription));
  });

  it('refuses a schema that is not zod at compile time', () => {
    expect(() => responseSerializerCompiler({ schema: { type: 'object' }, method: 'GET', url: '/api/test', httpStatus: '200' })).toThrow(/Invalid schema/i);
  });
});

describe('a route whose answer does not fit its contract', () => {
  it('answers 500 INTERNAL_ERROR without the answer, and sends a fitting answer without the keys it does not name', async () => {
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(responseSerializerCompiler);
    registerErrorHandling(app);
    const schema = { response: { 200: subscriptionSchema } };
    app.get('/api/broken', { schema }, async () => ({ ...subscription, instStatusCode: 999, passwordHash: 'secret' }));
    app.get('/api/fitting', { schema }, async () => ({ ...subscription, passwordHash: 'secret' }));
    try {
      const broken = await app.inject({ method: 'GET', url: '/api/broken' });
      expect(broken.statusCode).toBe(500);
      expect(broken.json()).toEqual({ code: 'INTERNAL_ERROR', message: expect.any(String) });
      expect(broken.body).not.toContain('secret');
      const fitting = await app.inject({ method: 'GET', url: '/api/fitting' });
      expect(fitting.statusCode).toBe(200);
      expect(fitting.json()).toEqual(subscription);
    } finally {
      await app.close();
    }
  });
});
