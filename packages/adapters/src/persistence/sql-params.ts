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
 * JSON text for a jsonb parameter. PostgreSQL text cannot hold NUL, so it is dropped from strings.
 * The API refuses NUL in requests (422 naming the field); it can still arrive from outside, in
 * provider errors and HTTP step responses, and one such byte must not fail a whole batch.
 */
export function jsonParam(value: unknown): string {
  // JSON writes NUL as the escape \u0000; removing the escapes from the text is much cheaper than a
  // replacer called for every value. An escape is preceded by an even run of backslashes (pairs
  // are escaped backslashes), which the pattern keeps.
  const text = JSON.stringify(value);
  return text.includes('\\u0000') ? text.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1') : text;
}

/** The element types `arrayParam` writes. */
export type ArrayElementType = 'uuid' | 'text' | 'jsonb' | 'boolean' | 'int';

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

/**
 * A JS array as the text of a `$n::type[]` parameter: absent values as NULL, JSON as its text, NUL
 * dropped from text (see `jsonParam`). node-postgres builds the same literal from an array, but runs
 * two regular-expression replaces and a type check per element: for a fan-out chunk's 26 columns of
 * a thousand rows that was a tenth of the service's CPU in a 100,000-recipient fan-out (cpu-prof:
 * escapeElement, prepareValue, arrayString). Booleans and integers are written unquoted, ids quoted as they are,
 * text and JSON quoted with `"` and `\` escaped only where they occur; an object given for text is
 * written as its JSON, as node-postgres writes it.
 */
export function arrayParam(values: readonly unknown[], type: ArrayElementType): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined || value === null) parts[i] = 'NULL';
    else if (type === 'boolean') parts[i] = value ? 't' : 'f';
    else if (type === 'int') parts[i] = String(value);
    // Quoted, though an id never needs escaping: a malformed one ('', 'NULL', 'a,b') then fails its cast
    // instead of becoming a NULL or two elements, which would shift the rows of every later column.
    else if (type === 'uuid') parts[i] = `"${String(value)}"`;
    else {
      let text = type === 'jsonb' || typeof value === 'object' ? jsonParam(value) : String(value);
      if (type === 'text' && text.includes('\0')) text = text.replaceAll('\0', '');
      parts[i] = `"${NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, '\\$&') : text}"`;
    }
  }
  return `{${parts.join(',')}}`;
}

/**
 * One column of a multi-array `unnest($1::t[], $2::u[], ...)`: `arrayParam`, or NULL when every value
 * is absent, which unnest reads as a column of NULLs (it pads each array to the longest). Most of an
 * in-app message's columns are absent for every row of a fan-out chunk: sent as NULL instead of a
 * thousand NULLs each, `arrayParam`'s time in a 100,000-recipient fan-out fell from 613 to 396 ms
 * (cpu-prof of the service), and PostgreSQL has less input to parse.
 */
export function columnParam(values: readonly unknown[], type: ArrayElementType): string | null {
  for (const value of values) if (value !== undefined && value !== null) return arrayParam(values, type);
  return null;
}

/** Text fixed in the code (never input) as an SQL string literal. */
export function sqlLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * A named statement: prepared once per connection, so PostgreSQL parses it once and, after a few
 * runs, reuses one generic plan. Hot statements are large CTEs whose planning cost more than their
 * execution (pg_stat_statements: ~2 ms a plan); an unnamed statement is planned on every call.
 */
export function prepared(name: string, text: string): (values: unknown[]) => { name: string; text: string; values: unknown[] } {
  return (values) => ({ name, text, values });
}

const statementNames = new Map<string, string>();

/**
 * A query for SQL text a library builds (pg-boss's), named by its text so it is prepared like our
 * own statements. Only a text with parameters is named: it is a single statement, so preparable.
 * Names are bounded: beyond that, further texts run unnamed.
 */
export function libraryQuery(text: string, values?: unknown[]): { name?: string; text: string; values?: unknown[] } {
  if (!values?.length) return { text, values };
  let name = statementNames.get(text);
  if (!name && statementNames.size < 64) statementNames.set(text, (name = `herald-lib-${statementNames.size}`));
  return { name, text, values };
}
