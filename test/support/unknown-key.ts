import type { JsonSchema } from './openapi';

export type KeyPath = Array<string | number>;

/** An object of a request the schema closes, and the keys it knows. */
export interface ClosedObject {
  path: KeyPath;
  known: string[];
}

/**
 * Where a value generated from `schema` has an object the schema closes (`additionalProperties:
 * false`): the places an unknown key must be refused. Unions are not entered: which member a value
 * matched is not known here.
 */
export function closedObjectsIn(value: unknown, schema: JsonSchema | undefined, resolve: (s: JsonSchema) => JsonSchema, at: KeyPath = []): ClosedObject[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  const s = resolve(schema);
  if (s.anyOf || s.oneOf || s.allOf) return [];
  if (Array.isArray(value)) return s.items ? value.flatMap((item, i) => closedObjectsIn(item, s.items, resolve, [...at, i])) : [];
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  const own = s.additionalProperties === false ? [{ path: at, known: Object.keys(properties) }] : [];
  return [...own, ...Object.entries(value).flatMap(([key, inner]) => (key in properties ? closedObjectsIn(inner, properties[key], resolve, [...at, key]) : []))];
}

/** A copy of `value` with `key` added to the object at `path`. */
export function withKeyAt(value: unknown, path: KeyPath, key: string, added: unknown): unknown {
  if (!path.length) return { ...(value as object), [key]: added };
  const [head, ...rest] = path;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[head] = withKeyAt(copy[head], rest, key, added);
  return copy;
}

/** The dotted field name the API's error body gives a key at this path. */
export const fieldName = (path: KeyPath, key: string) => [...path, key].join('.');
