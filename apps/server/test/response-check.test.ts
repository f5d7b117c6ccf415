import { serializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checksAlikeBothWays, compileResponseWriter, responseSerializerCompiler } from '../src/lib/response-check.ts';
import { buildTestApp, type TestApp } from './helper.ts';

// ADR 020 and 038: every response is checked against its schema before it is sent. A contract has
// no transform, codec or default, so it checks alike both ways, and its compiled writer checks and
// writes it. Here every response schema of the route table meets values made from it, most of them
// fitting and some broken at one place, and the app's serializer must answer each exactly as
// fastify-type-provider-zod's does: the same text, or the same error.

/** A small seeded generator, so a failure names a seed that repeats it. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { chance: (p: number) => next() < p, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}
type Random = ReturnType<typeof randomFrom>;

const strings = [
  '',
  'a',
  'ADR',
  'Komplett',
  'Ærlig talt «sitat» "x" \\ \n\t',
  '2026-11-27',
  '2026-02-30',
  '2026-11-27T10:15:00.000Z',
  'kari@example.no',
  '0190b8a4-3c2e-7f00-8000-000000000001',
  'https://minside.adressa.no/',
  '\u2028\u2029',
  '\ud800',
  '😀'.repeat(40),
  'x'.repeat(300),
];
const numbers = [0, 1, -1, 4, 12, 100, 44_900, 1.5, -0, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, 1e21];
const anything = [null, undefined, 0, 'tekst', true, [], {}, { a: 1 }];

/** A value for `schema`: fitting, unless `broken` decides to break it at this node. */
function valueFor(schema: z.core.$ZodType, random: Random, broken: number, depth = 0): unknown {
  if (random.chance(broken)) return random.pick(anything);
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const inner = (key: string) => def[key] as z.core.$ZodType;
  switch (def.type) {
    case 'string':
      return random.pick(strings);
    case 'number':
      return random.chance(0.8) ? random.pick([0, 1, 4, 12, 100, 44_900]) : random.pick(numbers);
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    case 'undefined':
    case 'void':
      return undefined;
    case 'enum':
      return random.pick(z.core.util.getEnumValues(def.entries as z.core.util.EnumLike));
    case 'literal':
      return random.pick(def.values as unknown[]);
    case 'date':
      return new Date(Date.UTC(2026, 10, 27));
    case 'nullable':
      return random.chance(0.3) ? null : valueFor(inner('innerType'), random, broken, depth + 1);
    case 'optional':
      return random.chance(0.3) ? undefined : valueFor(inner('innerType'), random, broken, depth + 1);
    case 'readonly':
    case 'nonoptional':
      return valueFor(inner('innerType'), random, broken, depth + 1);
    case 'lazy':
      return depth > 6 ? null : valueFor((def.getter as () => z.core.$ZodType)(), random, broken, depth + 1);
    case 'array':
    case 'set': {
      const length = depth > 6 ? 0 : random.pick([0, 1, 2, 3]);
      const items = Array.from({ length }, () => valueFor(inner('element') ?? inner('valueType'), random, broken, depth + 1));
      return def.type === 'set' ? new Set(items) : items;
    }
    case 'tuple':
      return (def.items as z.core.$ZodType[]).map((item) => valueFor(item, random, broken, depth + 1));
    case 'record':
      return { [String(valueFor(inner('keyType'), random, 0, depth + 1))]: valueFor(inner('valueType'), random, broken, depth + 1) };
    case 'union':
      return valueFor(random.pick(def.options as z.core.$ZodType[]), random, broken, depth + 1);
    case 'intersection':
      return { ...(valueFor(inner('left'), random, broken, depth + 1) as object), ...(valueFor(inner('right'), random, broken, depth + 1) as object) };
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(def.shape as Record<string, z.core.$ZodType>)) {
        if (random.chance(broken / 2)) continue; // a key left out
        const item = valueFor(child, random, broken, depth + 1);
        if (item !== undefined || random.chance(0.5)) value[key] = item;
      }
      if (random.chance(0.3)) value.internalNote = 'not in the contract';
      return value;
    }
    default:
      return random.pick(anything);
  }
}

/** What a serializer answers: the text it would send, or which error it threw. */
function outcome(serialize: (data: unknown) => string, data: unknown): string {
  try {
    return serialize(data);
  } catch (error) {
    return `threw ${(error as { code?: string }).code ?? (error as Error).name}`;
  }
}

describe('the route table’s response contracts (PGlite)', () => {
  let test: TestApp;
  const schemas = new Map<string, z.core.$ZodType>();
  beforeAll(async () => {
    test = await buildTestApp('pglite');
    for (const route of test.app.routeTable()) {
      for (const [status, schema] of Object.entries((route.schema?.response ?? {}) as Record<string, unknown>)) {
        if (schema instanceof z.core.$ZodType && route.method !== 'HEAD') schemas.set(`${route.method} ${route.url} ${status}`, schema);
      }
    }
  });
  afterAll(async () => {
    await test.close();
  });

  it('every response schema checks alike both ways, so its compiled writer answers', () => {
    expect(schemas.size).toBeGreaterThan(300);
    expect([...schemas].filter(([, schema]) => !checksAlikeBothWays(schema)).map(([name]) => name)).toEqual([]);
  });

  it('answers every value as the library does, and writes every fitting one without the library', () => {
    let fitting = 0;
    let refused = 0;
    for (const [name, schema] of schemas) {
      const route = { schema, method: 'GET', url: name, httpStatus: '200' };
      const ours = responseSerializerCompiler(route);
      const library = serializerCompiler(route);
      const writer = compileResponseWriter(schema);
      for (let seed = 0; seed < 60; seed++) {
        const value = valueFor(schema, randomFrom(seed * 7919 + name.length), seed % 3 === 0 ? 0 : 0.04);
        const expected = outcome(library, value);
        expect(outcome(ours, value), `${name}, seed ${seed}`).toBe(expected);
        if (expected.startsWith('threw')) {
          refused++;
        } else {
          fitting++;
          expect(writer(value), `${name}, seed ${seed}: the writer turned down a fitting value`).toBe(expected);
        }
      }
    }
    // Both kinds in numbers: a generator that only made broken values (or only fitting ones) would prove little.
    expect(fitting).toBeGreaterThan(5_000);
    expect(refused).toBeGreaterThan(2_000);
  });
});
