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

/** A value of a text or jsonb element as its text: JSON as its text, NUL dropped from text (see `jsonParam`). */
function elementText(value: unknown, type: ArrayElementType): string {
  if (type === 'jsonb' || typeof value === 'object') return jsonParam(value);
  const text = String(value);
  return type === 'text' && text.includes('\0') ? text.replaceAll('\0', '') : text;
}

/**
 * Text values as the text of a text[] literal, for an element that PostgreSQL casts to an array itself
 * (an array cannot be an element of one): absent values as NULL, each quoted with `"` and `\` escaped
 * only where they occur, NUL dropped (see `jsonParam`).
 */
export function textArrayLiteral(values: readonly (string | null | undefined)[]): string {
  const parts = values.map((value) => {
    if (value === undefined || value === null) return 'NULL';
    const text = elementText(value, 'text');
    return `"${NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, '\\$&') : text}"`;
  });
  return `{${parts.join(',')}}`;
}

// PostgreSQL's type ids of the elements (pg_type.oid), which a binary array names.
const ELEMENT_OID: Record<ArrayElementType, number> = { uuid: 2950, text: 25, jsonb: 3802, boolean: 16, int: 23 };
// Hex digits' values by character code, -16 for any other character (so a pair with one is negative).
const HEX = new Int8Array(0x10000).fill(-16);
for (let d = 0; d < 16; d++) HEX['0123456789abcdef'.charCodeAt(d)] = HEX['0123456789ABCDEF'.charCodeAt(d)] = d;
// Where each byte of an id's text starts: its 32 digits, between the dashes at 8, 13, 18 and 23.
const UUID_BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/**
 * A JS array as a `$n::type[]` parameter in PostgreSQL's binary array format (a Buffer, which
 * node-postgres sends as binary): absent values as NULL, JSON as its text, NUL dropped from text (see
 * `jsonParam`); an object given for text is written as its JSON, as node-postgres writes it. An id
 * that is not a uuid's text throws here, rather than becoming a NULL or shifting the column's rows.
 * The statement must cast the parameter to that very array type (`$n::uuid[]`): a binary array names
 * its element type, and PostgreSQL refuses one of another.
 *
 * In the text format, PostgreSQL scans each literal for quotes and delimiters and parses each id's
 * 36 characters; the binary one copies each id's 16 bytes and each text's bytes as they are: a
 * fan-out chunk's columns (8 of ids and 5 of text, 1,000 rows) take the database about 3 ms instead
 * of 9. Text and JSON made only of ASCII
 * (nearly all) are written in one encoding pass: their latin1 bytes are their UTF-8 ones.
 */
export function arrayParam(values: readonly unknown[], type: ArrayElementType): Buffer {
  const n = values.length;
  let nulls = 0;
  for (let i = 0; i < n; i++) if (values[i] === undefined || values[i] === null) nulls++;
  const hasNull = nulls ? 1 : 0;
  if (type === 'uuid' || type === 'boolean' || type === 'int') {
    const width = type === 'uuid' ? 16 : type === 'int' ? 4 : 1;
    const body = 4 * n + width * (n - nulls);
    const buf = arrayHeader(n, hasNull, type, body);
    let at = buf.length - body;
    for (let i = 0; i < n; i++) {
      const value = values[i];
      if (value === undefined || value === null) {
        buf.writeInt32BE(-1, at);
        at += 4;
        continue;
      }
      buf.writeInt32BE(width, at);
      at += 4;
      if (type === 'uuid') writeUuid(buf, at, value);
      else if (type === 'int') {
        if (!Number.isInteger(value) || (value as number) > 0x7fffffff || (value as number) < -0x80000000) throw new TypeError(`not an int4 array element: ${String(value)}`);
        buf.writeInt32BE(value as number, at);
      } else buf[at] = value ? 1 : 0;
      at += width;
    }
    return buf;
  }
  const texts = new Array<string | null>(n);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    texts[i] = value === undefined || value === null ? null : elementText(value, type);
  }
  // A jsonb element is its text after a version byte (1).
  const version = type === 'jsonb' ? 1 : 0;
  const joined = texts.join('');
  if (Buffer.byteLength(joined, 'utf8') === joined.length) {
    // Only ASCII: each element's length is its byte count, and latin1 writes every character as that byte.
    const parts = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const text = texts[i];
      parts[i] = text === null ? '\xff\xff\xff\xff' : version ? `${int32Chars(text.length + 1)}\x01${text}` : int32Chars(text.length) + text;
    }
    const elements = parts.join('');
    const buf = arrayHeader(n, hasNull, type, elements.length);
    buf.write(elements, buf.length - elements.length, 'latin1');
    return buf;
  }
  const sizes = texts.map((text) => (text === null ? -1 : Buffer.byteLength(text, 'utf8') + version));
  const body = sizes.reduce((sum, size) => sum + 4 + Math.max(size, 0), 0);
  const buf = arrayHeader(n, hasNull, type, body);
  let at = buf.length - body;
  for (let i = 0; i < n; i++) {
    buf.writeInt32BE(sizes[i], at);
    at += 4;
    const text = texts[i];
    if (text === null) continue;
    if (version) buf[at++] = version;
    at += buf.write(text, at, 'utf8');
  }
  return buf;
}

/** A 32-bit integer's four bytes (big-endian) as characters, for latin1. */
function int32Chars(value: number): string {
  return String.fromCharCode((value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255);
}

/** A binary array's buffer with its header written (one dimension from 1; none when empty), and room for `body` bytes of elements at its end. */
function arrayHeader(n: number, hasNull: number, type: ArrayElementType, body: number): Buffer {
  const buf = Buffer.allocUnsafe((n ? 20 : 12) + body);
  buf.writeInt32BE(n ? 1 : 0, 0);
  buf.writeInt32BE(hasNull, 4);
  buf.writeInt32BE(ELEMENT_OID[type], 8);
  if (n) {
    buf.writeInt32BE(n, 12);
    buf.writeInt32BE(1, 16);
  }
  return buf;
}

/** An id's 16 bytes at `at`, from its text (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, either case). */
function writeUuid(buf: Buffer, at: number, value: unknown): void {
  const text = typeof value === 'string' ? value : '';
  let bad = text.length !== 36 || text.charCodeAt(8) !== 45 || text.charCodeAt(13) !== 45 || text.charCodeAt(18) !== 45 || text.charCodeAt(23) !== 45;
  for (let j = 0; j < 16 && !bad; j++) {
    const p = UUID_BYTE_AT[j];
    const byte = (HEX[text.charCodeAt(p)] << 4) | HEX[text.charCodeAt(p + 1)];
    if (byte < 0) bad = true;
    else buf[at + j] = byte;
  }
  if (bad) throw new TypeError(`not a uuid: ${JSON.stringify(String(value))}`);
}

/**
 * One column of a multi-array `unnest($1::t[], $2::u[], ...)`: `arrayParam`, or NULL when every value
 * is absent, which unnest reads as a column of NULLs (it pads each array to the longest). Most of an
 * in-app message's columns are absent for every row of a fan-out chunk: sent as NULL instead of a
 * thousand NULLs each, they save about a third of `arrayParam`'s time in a fan-out, and PostgreSQL
 * has less input to parse.
 */
export function columnParam(values: readonly unknown[], type: ArrayElementType): Buffer | null {
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
