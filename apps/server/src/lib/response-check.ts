import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { InvalidSchemaError, ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Schema kinds whose check gives the same answer read forwards (`safeParse`) as backwards
 * (`safeEncode`): no transform, codec, pipe, default or catch anywhere under them. Checks that
 * rewrite the value (`.trim()`, `z.url()`) the compiled writer leaves to the library when they do.
 */
const directionNeutral = new Set<string>([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'symbol',
  'null',
  'undefined',
  'void',
  'never',
  'any',
  'unknown',
  'date',
  'nan',
  'enum',
  'literal',
  'custom',
  'object',
  'array',
  'tuple',
  'record',
  'map',
  'set',
  'union',
  'intersection',
  'nullable',
  'optional',
  'nonoptional',
  'readonly',
  'lazy',
]);

/** What a schema of `def` contains: the schemas the kinds above are built of. */
function childrenOf(def: z.core.$ZodTypeDef): z.core.$ZodType[] {
  const parts = def as unknown as Record<string, unknown>;
  const children: unknown[] = [];
  if (def.type === 'object') children.push(...Object.values(parts.shape as object), parts.catchall);
  if (def.type === 'array' || def.type === 'set') children.push(parts.element, parts.valueType);
  if (def.type === 'tuple') children.push(...(parts.items as unknown[]), parts.rest);
  if (def.type === 'record' || def.type === 'map') children.push(parts.keyType, parts.valueType);
  if (def.type === 'union') children.push(...(parts.options as unknown[]));
  if (def.type === 'intersection') children.push(parts.left, parts.right);
  if (def.type === 'nullable' || def.type === 'optional' || def.type === 'nonoptional' || def.type === 'readonly') children.push(parts.innerType);
  if (def.type === 'lazy') children.push((parts.getter as () => unknown)());
  return children.filter((child): child is z.core.$ZodType => child instanceof z.core.$ZodType);
}

/** True when nothing in `schema` reads differently forwards and backwards (the kinds above, all the way down). */
export function checksAlikeBothWays(schema: z.core.$ZodType, seen = new Set<z.core.$ZodType>()): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const { def } = schema._zod;
  return directionNeutral.has(def.type) && childrenOf(def).every((child) => checksAlikeBothWays(child, seen));
}

/** What a compiled writer answers for a value its schema does not take (exactly as zod would refuse it there). */
const DOES_NOT_FIT: unique symbol = Symbol('does not fit');
/** What it answers where it cannot tell (a check that rewrites the value, a `toJSON`, a throw): the library's check then decides the whole answer. */
const UNSURE: unique symbol = Symbol('unsure');
type Text = string | undefined | typeof DOES_NOT_FIT | typeof UNSURE;

/** The checks zod runs on a node (runChecks in zod's core): the node itself when it is a check (a format), then its own. */
function checksOf(schema: z.core.$ZodType): z.core.$ZodCheck[] {
  const own = schema._zod.def.checks ?? [];
  return schema._zod.traits.has('$ZodCheck') ? [schema as unknown as z.core.$ZodCheck, ...own] : [...own];
}

/**
 * Whether the checks pass on `value`, as zod's runChecks would find: each check that applies
 * (`when`) runs and adds no issue. A check that rewrites the value (`.trim()`, `z.url()`'s
 * normalising, `.overwrite()`) or is asynchronous makes the answer UNSURE: zod would send, or refuse,
 * something else.
 */
function passesChecks(checks: z.core.$ZodCheck[]): (value: unknown) => true | typeof DOES_NOT_FIT | typeof UNSURE {
  return (value) => {
    const payload: z.core.ParsePayload<never> = { value: value as never, issues: [] };
    for (const check of checks) {
      const when = check._zod.def.when;
      if (when && !when(payload)) continue;
      const result = check._zod.check(payload) as unknown;
      if (result instanceof Promise || payload.value !== value) return UNSURE;
      if (payload.issues.length > 0) return DOES_NOT_FIT;
    }
    return true;
  };
}

/** Whether JSON.stringify would call a `toJSON` somewhere in `value`: with the property's name, which a part written on its own would not pass. */
function reachesToJson(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > 64 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  return (Array.isArray(value) ? value : Object.values(value)).some((item) => reachesToJson(item, depth + 1));
}

/**
 * Compiles `schema` into one function that checks a value and writes its JSON in one pass, as
 * `JSON.stringify(z.safeEncode(schema, value).data)` would, or answers DOES_NOT_FIT (zod refuses it)
 * or UNSURE (the library must decide). zod's own check runs every node through code all schemas
 * share, which the app's hundreds of schemas make slow (ADR 038); this is code for the one shape.
 * What it does not know (records, tuples, intersections, discriminated unions, refinements of
 * objects, coercion, …) it hands to zod for that node. Only for schemas that check alike both ways.
 */
export function compileResponseWriter(schema: z.core.$ZodType): (value: unknown) => Text {
  const helpers: unknown[] = [];
  let counter = 0;
  const helper = (value: unknown) => `h[${helpers.push(value) - 1}]`;
  const fresh = () => `v${counter++}`;
  const toJson = helper(reachesToJson);
  /** The nodes being compiled: a schema that contains itself (a getter) is handed to zod where it repeats. */
  const open = new Set<z.core.$ZodType>();

  /** Statements that hand a node to zod, as the library checks it (`safeEncode`), and write what it answers. */
  const delegate = (node: z.core.$ZodType, value: string, out: string) => {
    const write = (input: unknown): Text => {
      const result = z.safeEncode(node, input);
      if (!result.success) return DOES_NOT_FIT;
      return reachesToJson(result.data) ? UNSURE : (JSON.stringify(result.data) as string | undefined);
    };
    const text = fresh();
    return `const ${text} = ${helper(write)}(${value}); if (${text} === F || ${text} === U) return ${text}; ${out} = ${text};`;
  };

  /** May this node take `undefined`? Then a key for it must be there, as zod requires of a key that is not optional. */
  const takesUndefined = (node: z.core.$ZodType): boolean => {
    const def = node._zod.def;
    if ('coerce' in def && def.coerce) return true;
    if (def.type === 'string' || def.type === 'number' || def.type === 'boolean' || def.type === 'null' || def.type === 'object' || def.type === 'array' || def.type === 'enum') return false;
    if (def.type === 'literal') return (def as z.core.$ZodLiteralDef<z.core.util.Literal>).values.includes(undefined);
    if (def.type === 'nullable' || def.type === 'readonly') return takesUndefined((def as z.core.$ZodNullableDef | z.core.$ZodReadonlyDef).innerType);
    return true;
  };

  /** Statements that set `out` (a declared variable) to the node's text for the value in `value`, or return F or U. */
  const emit = (node: z.core.$ZodType, value: string, out: string): string => {
    if (open.has(node)) return delegate(node, value, out);
    open.add(node);
    try {
      return emitNode(node, value, out);
    } finally {
      open.delete(node);
    }
  };

  const emitNode = (node: z.core.$ZodType, value: string, out: string): string => {
    const def = node._zod.def;
    const checks = checksOf(node);
    const leaf = def.type === 'string' || def.type === 'number' || def.type === 'boolean';
    if (('coerce' in def && def.coerce) || node._zod.traits.has('$ZodExactOptional')) return delegate(node, value, out);
    if (checks.length > 0 && !leaf) return delegate(node, value, out);
    const passed = fresh();
    const checked = checks.length > 0 ? ` const ${passed} = ${helper(passesChecks(checks))}(${value}); if (${passed} !== true) return ${passed};` : '';
    switch (def.type) {
      case 'string':
        return `if (typeof ${value} !== 'string') return F;${checked} ${out} = JSON.stringify(${value});`;
      case 'number':
        return `if (typeof ${value} !== 'number' || !Number.isFinite(${value})) return F;${checked} ${out} = '' + ${value};`;
      case 'boolean':
        return `if (${value} !== true && ${value} !== false) return F;${checked} ${out} = ${value} ? 'true' : 'false';`;
      case 'null':
        return `if (${value} !== null) return F; ${out} = 'null';`;
      case 'enum': {
        const values = new Set(z.core.util.getEnumValues((def as z.core.$ZodEnumDef).entries));
        return `if (!${helper(values)}.has(${value})) return F; ${out} = JSON.stringify(${value});`;
      }
      case 'literal': {
        const values = (def as z.core.$ZodLiteralDef<z.core.util.Literal>).values;
        if (!values.every((entry) => typeof entry === 'string' || typeof entry === 'number' || typeof entry === 'boolean' || entry === null)) break;
        return `if (!${helper(new Set(values))}.has(${value})) return F; ${out} = JSON.stringify(${value});`;
      }
      case 'any':
      case 'unknown':
        return `if (${toJson}(${value})) return U; ${out} = JSON.stringify(${value});`;
      case 'nullable':
        return `if (${value} === null) ${out} = 'null'; else { ${emit((def as z.core.$ZodNullableDef).innerType, value, out)} }`;
      case 'optional':
        return `if (${value} === undefined) ${out} = undefined; else { ${emit((def as z.core.$ZodOptionalDef).innerType, value, out)} }`;
      case 'readonly':
        return emit((def as z.core.$ZodReadonlyDef).innerType, value, out);
      case 'array': {
        const item = fresh();
        const text = fresh();
        const index = fresh();
        return `if (!Array.isArray(${value})) return F; ${out} = '['; for (let ${index} = 0; ${index} < ${value}.length; ${index}++) { const ${item} = ${value}[${index}]; let ${text}; ${emit((def as z.core.$ZodArrayDef).element, item, text)} ${out} += (${index} === 0 ? '' : ',') + (${text} === undefined ? 'null' : ${text}); } ${out} += ']';`;
      }
      case 'object': {
        const { shape, catchall } = def as z.core.$ZodObjectDef;
        const keys = Object.keys(shape);
        if (catchall !== undefined || keys.includes('__proto__') || keys.includes('toJSON') || Object.getOwnPropertySymbols(shape).length > 0) break;
        // A key zod takes as optional both ways must be left out whole when absent (zod ignores its check then); one optional only one way is zod's to judge.
        if (keys.some((key) => shape[key]!._zod.optin !== undefined && shape[key]!._zod.optout !== 'optional')) break;
        const first = fresh();
        let code = `if (typeof ${value} !== 'object' || ${value} === null || Array.isArray(${value})) return F; ${out} = '{'; let ${first} = true;`;
        for (const key of keys) {
          const child = shape[key]!;
          const item = fresh();
          const text = fresh();
          const name = JSON.stringify(key);
          const write = `const ${item} = ${value}[${name}]; let ${text}; ${emit(child, item, text)} if (${text} !== undefined) { ${out} += (${first} ? '' : ',') + ${JSON.stringify(`${name}:`)} + ${text}; ${first} = false; }`;
          if (child._zod.optin !== undefined) code += ` if (${name} in ${value}) { ${write} }`;
          else code += `${takesUndefined(child) ? ` if (!(${name} in ${value})) return F;` : ''} ${write}`;
        }
        return `${code} ${out} += '}';`;
      }
      case 'union': {
        const union = def as z.core.$ZodUnionDef & { inclusive?: boolean };
        // A discriminated union and z.xor (exactly one must fit) are not first-that-fits: zod decides them.
        if (union.inclusive === false) break;
        const options = union.options.map((option) => helper(compileResponseWriter(option)));
        const text = fresh();
        return `{ let ${text} = F; ${options.map((option) => `if (${text} === F) ${text} = ${option}(${value});`).join(' ')} if (${text} === F || ${text} === U) return ${text}; ${out} = ${text}; }`;
      }
    }
    return delegate(node, value, out);
  };

  const body = `let out; ${emit(schema, 'value', 'out')} return out;`;
  // The code is built from the schema's own key names (JSON.stringify-quoted) and helper indices, never from data.
  // A throw anywhere (a BigInt, a cycle, a getter) is UNSURE: the library's check then answers, or throws its own error.
  const build = new Function('h', 'F', 'U', `return function writeResponse(value) { try { ${body} } catch { return U; } };`) as (
    helpers: unknown[],
    fail: typeof DOES_NOT_FIT,
    unsure: typeof UNSURE,
  ) => (value: unknown) => Text;
  return build(helpers, DOES_NOT_FIT, UNSURE);
}

/** A route's response schema, as fastify-type-provider-zod takes it: the schema, or `{ properties: schema }`. */
function resolveSchema(schema: unknown): z.core.$ZodType {
  if (schema instanceof z.core.$ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (properties instanceof z.core.$ZodType) return properties;
  throw new InvalidSchemaError(JSON.stringify(schema));
}

/**
 * Writers by schema object. Compiling one takes a fraction of a millisecond, and an app has
 * hundreds of response schemas, most never answered in a given process (a test builds many
 * apps): a writer is compiled on its schema's first answer and shared by every app in the process.
 * A schema the compiler cannot take (none today: test/response-check.test.ts compiles every one
 * of the route table) goes the library's way for good, rather than a 500 on each answer.
 */
const writers = new WeakMap<z.core.$ZodType, ((value: unknown) => Text) | null>();
function writerFor(schema: z.core.$ZodType): ((value: unknown) => Text) | null {
  let write = writers.get(schema);
  if (write === undefined) {
    try {
      write = checksAlikeBothWays(schema) ? compileResponseWriter(schema) : null;
    } catch {
      write = null;
    }
    writers.set(schema, write);
  }
  return write;
}

/**
 * Every response with a schema is checked against it before it is sent (ADR 020): a payload that
 * does not fit is a `ResponseSerializationError` (a 500 without internals), and keys the schema
 * does not name are stripped. This is fastify-type-provider-zod's `serializerCompiler`, cheaper
 * (ADR 038): a schema that checks alike both ways is checked and written by its compiled writer;
 * what the writer refuses, and every other schema, goes the library's way (`safeEncode`), which
 * then throws the library's error.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema: routeSchema, method, url }) => {
  const schema = resolveSchema(routeSchema);
  let write: ((value: unknown) => Text) | null | undefined;
  return (data: unknown) => {
    if (write === undefined) write = writerFor(schema);
    const text = write?.(data);
    if (typeof text === 'string') return text;
    const result = z.safeEncode(schema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
