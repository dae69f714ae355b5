const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a caller-given id can be compared with a uuid column without a cast error. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Positional parameters for SQL built from optional filters: `p(value)` returns its `$n`. */
export class SqlParams {
  readonly values: unknown[] = [];

  p = (value: unknown): string => {
    this.values.push(value);
    return `$${this.values.length}`;
  };
}

/** Exact, order-insensitive equality of a text[] column with the given keys; `@>` lets a GIN index narrow it. */
export function sameKeys(column: string, keys: string): string {
  return `(${column} @> ${keys}::text[] AND ${column} <@ ${keys}::text[] AND cardinality(${column}) = cardinality(${keys}::text[]))`;
}

/**
 * JSON text for a jsonb parameter. PostgreSQL text cannot hold NUL, so it is dropped from strings
 * (it can arrive in payloads, provider errors and HTTP response bodies); one such byte must not
 * fail a whole batch.
 */
export function jsonParam(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '') : v));
}
