import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { InvalidSchemaError, ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Schema kinds whose check gives the same answer read forwards (`safeParse`) as backwards
 * (`safeEncode`): no transform, codec, pipe, default or catch anywhere under them. Checks
 * (`refine`, formats, lengths) run in both directions alike.
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

/** What a compiled writer answers for a value its schema does not take: the library's check then says why. */
const DOES_NOT_FIT: unique symbol = Symbol('does not fit');
type Text = string | undefined | typeof DOES_NOT_FIT;

/** The checks zod runs on a node after its type (runChecks in zod's core): the node itself when it is a check (a format), then its own. */
function checksOf(schema: z.core.$ZodType): z.core.$ZodCheck[] {
  const own = schema._zod.def.checks ?? [];
  return schema._zod.traits.has('$ZodCheck') ? [schema as unknown as z.core.$ZodCheck, ...own] : [...own];
}

/**
 * True when the checks pass on `value`, as zod's runChecks would find: each check that applies
 * (`when`) runs on the value and adds no issue. Only pass or fail matters here: the reasons come
 * from the library's check when it fails.
 */
function passesChecks(checks: z.core.$ZodCheck[]): (value: unknown) => boolean {
  return (value) => {
    const payload: z.core.ParsePayload<never> = { value: value as never, issues: [] };
    for (const check of checks) {
      const when = check._zod.def.when;
      if (when && !when(payload)) continue;
      const result = check._zod.check(payload) as unknown;
      if (result instanceof Promise || payload.issues.length > 0) return false;
    }
    return true;
  };
}

/**
 * Compiles `schema` into one function that checks a value and writes its JSON in one pass, as
 * `JSON.stringify(z.safeParse(schema, value).data)` would, or answers DOES_NOT_FIT. zod's own check
 * runs every node through code all schemas share, which the app's hundreds of schemas make slow
 * (ADR 038); this is code for the one shape. What it does not know (records, tuples,
 * intersections, refinements of objects, …) it hands to zod for that node. Only for schemas that
 * check alike both ways.
 */
export function compileResponseWriter(schema: z.core.$ZodType): (value: unknown) => Text {
  const helpers: unknown[] = [];
  let counter = 0;
  const helper = (value: unknown) => `h[${helpers.push(value) - 1}]`;
  const fresh = () => `v${counter++}`;

  /** Hands a node to zod: its forward check (alike both ways, checked before) and JSON.stringify of what it answers. */
  const delegate = (node: z.core.$ZodType, value: string) => {
    const write = (input: unknown): Text => {
      const result = z.safeParse(node, input);
      return result.success ? (JSON.stringify(result.data) as string | undefined) : DOES_NOT_FIT;
    };
    return `${helper(write)}(${value})`;
  };

  /** May this node take `undefined` (so a key for it must be checked for presence, as zod does)? */
  const takesUndefined = (node: z.core.$ZodType): boolean => {
    const { type } = node._zod.def;
    if (type === 'string' || type === 'number' || type === 'boolean' || type === 'null' || type === 'object' || type === 'array' || type === 'enum') return false;
    if (type === 'literal') return (node._zod.def as z.core.$ZodLiteralDef<z.core.util.Literal>).values.includes(undefined);
    if (type === 'nullable' || type === 'readonly') return takesUndefined((node._zod.def as z.core.$ZodNullableDef | z.core.$ZodReadonlyDef).innerType);
    return true;
  };

  /** Statements that set `out` (a declared variable) to the node's text for the value in `value`, or return DOES_NOT_FIT. */
  const emit = (node: z.core.$ZodType, value: string, out: string): string => {
    const def = node._zod.def;
    const checks = checksOf(node);
    const leaf = def.type === 'string' || def.type === 'number' || def.type === 'boolean';
    if ('coerce' in def && def.coerce) return `${out} = ${delegate(node, value)}; if (${out} === F) return F;`;
    if (checks.length > 0 && !leaf) return `${out} = ${delegate(node, value)}; if (${out} === F) return F;`;
    const checked = checks.length > 0 ? ` || !${helper(passesChecks(checks))}(${value})` : '';
    switch (def.type) {
      case 'string':
        return `if (typeof ${value} !== 'string'${checked}) return F; ${out} = JSON.stringify(${value});`;
      case 'number':
        return `if (typeof ${value} !== 'number' || !Number.isFinite(${value})${checked}) return F; ${out} = '' + ${value};`;
      case 'boolean':
        return `if (${value} === true) ${out} = 'true'; else if (${value} === false) ${out} = 'false'; else return F;`;
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
        return `${out} = JSON.stringify(${value});`;
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
        if (catchall !== undefined || keys.includes('__proto__')) break;
        const first = fresh();
        let code = `if (typeof ${value} !== 'object' || ${value} === null || Array.isArray(${value})) return F; ${out} = '{'; let ${first} = true;`;
        for (const key of keys) {
          const child = shape[key]!;
          const item = fresh();
          const text = fresh();
          const name = JSON.stringify(key);
          // zod: a key whose schema is not optional must be there, even when its schema would take undefined.
          if (child._zod.optin === undefined && takesUndefined(child)) code += ` if (!(${name} in ${value})) return F;`;
          code += ` const ${item} = ${value}[${name}]; let ${text}; ${emit(child, item, text)} if (${text} !== undefined) { ${out} += (${first} ? '' : ',') + ${JSON.stringify(`${name}:`)} + ${text}; ${first} = false; }`;
        }
        return `${code} ${out} += '}';`;
      }
      case 'union': {
        const union = def as z.core.$ZodUnionDef & { inclusive?: boolean };
        // z.xor (exactly one must fit) is not first-that-fits: zod decides it.
        if (union.inclusive === false) break;
        const options = union.options.map((option) => helper(compileResponseWriter(option)));
        const text = fresh();
        return `{ let ${text} = F; ${options.map((option) => `if (${text} === F) ${text} = ${option}(${value});`).join(' ')} if (${text} === F) return F; ${out} = ${text}; }`;
      }
    }
    return `${out} = ${delegate(node, value)}; if (${out} === F) return F;`;
  };

  const body = `let out; ${emit(schema, 'value', 'out')} return out;`;
  // The code is built from the schema's own key names (JSON.stringify-quoted) and helper indices, never from data.
  const build = new Function('h', 'F', `return function writeResponse(value) { ${body} };`) as (helpers: unknown[], fail: typeof DOES_NOT_FIT) => (value: unknown) => Text;
  return build(helpers, DOES_NOT_FIT);
}

/**
 * Every response with a schema is checked against it before it is sent (ADR 020): a payload that
 * does not fit is a `ResponseSerializationError` (a 500 without internals), and keys the schema
 * does not name are stripped. This is fastify-type-provider-zod's `serializerCompiler`, cheaper
 * (ADR 038): a schema that checks alike both ways is checked and written by its compiled writer;
 * what the writer refuses, and every other schema, goes the library's way (`safeEncode`), which
 * then throws the library's error.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof z.core.$ZodType)) throw new InvalidSchemaError(JSON.stringify(schema));
  const write = checksAlikeBothWays(schema) ? compileResponseWriter(schema) : undefined;
  return (data: unknown) => {
    const text = write?.(data);
    if (typeof text === 'string') return text;
    const result = z.safeEncode(schema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
