// Query keys: how an answer is found in the cache (docs/decisions/035).

export type QueryKey = readonly unknown[];

declare const dataTag: unique symbol;
/** A key that carries the type of its answer, as `queryOptions` returns it: `getQueryData(key)` is then typed. */
export type DataTag<K extends QueryKey, T> = K & { [dataTag]: T };

/** The answer type of a tagged key, or `T` when the key has no tag (or `T` is given by hand). */
export type DataOf<T, K> = unknown extends T ? (K extends { [dataTag]: infer D } ? D : T) : T;

const isPlainObject = (value: unknown): value is Record<string, unknown> => Object.prototype.toString.call(value) === '[object Object]';

/** One string per key, the same for objects with the same fields in another order. */
export function hashKey(key: QueryKey): string {
  return JSON.stringify(key, (_, value: unknown) =>
    isPlainObject(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((name) => [name, value[name]]),
        )
      : value,
  );
}

/** Whether `key` starts with `prefix`: every element, and every field of an object, the prefix names is equal in `key`. */
export function matchesPrefix(key: unknown, prefix: unknown): boolean {
  if (key === prefix) return true;
  if (typeof key !== typeof prefix || key === null || prefix === null || typeof prefix !== 'object') return false;
  return Object.keys(prefix).every((name) => matchesPrefix((key as Record<string, unknown>)[name], (prefix as Record<string, unknown>)[name]));
}

/**
 * `next`, but with every part that is deeply equal to `previous` replaced by the part of `previous`:
 * a refetch that brings the same answer keeps its objects, so memos and effects on them do not run again.
 */
export function replaceEqualDeep<T>(previous: unknown, next: T): T {
  if (previous === next) return next;
  const arrays = Array.isArray(previous) && Array.isArray(next);
  if (!arrays && !(isPlainObject(previous) && isPlainObject(next))) return next;
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const names = Object.keys(after);
  const copy: Record<string, unknown> = arrays ? ([] as unknown as Record<string, unknown>) : {};
  let same = 0;
  for (const name of names) {
    copy[name] = replaceEqualDeep(before[name], after[name]);
    if (copy[name] === before[name] && Object.hasOwn(before, name)) same += 1;
  }
  return (same === names.length && Object.keys(before).length === names.length ? previous : copy) as T;
}
