import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { arrayParam, columnParam, textArrayLiteral } from './sql-params';

const database = useTestDatabase(2);
let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(() => client?.end());

/** What PostgreSQL reads from the parameter (binary or a literal's text), as JSON (arrays of text, booleans, uuids or JSON values). */
async function read(param: Buffer | string, type: string): Promise<unknown[]> {
  const { rows } = await client.query<{ v: unknown[] }>(`SELECT to_jsonb($1::${type}[]) AS v`, [param]);
  return rows[0].v;
}

// Characters that mean something in an array literal, around and inside text.
const tricky = fc.constantFrom('"', '\\', ',', '{', '}', ' ', 'NULL', 'null', '\u0000', "'", '\n', 'é', '😀', '');
const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.array(tricky, { maxLength: 6 }).map((parts) => parts.join('')));

describe('arrayParam', () => {
  it('gives PostgreSQL exactly the text values (NUL dropped) and NULLs it was given', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text, { nil: null }), { maxLength: 20 }), async (values) => {
        expect(await read(arrayParam(values, 'text'), 'text')).toEqual(values.map((v) => (v === null ? null : v.replaceAll('\u0000', ''))));
      }),
      { numRuns: 300 },
    );
  });

  it('gives PostgreSQL JSON values as their documents, absent ones as NULL', async () => {
    const json = fc.jsonValue().filter((v) => v !== null);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(json, { nil: undefined }), { maxLength: 10 }), async (values) => {
        // JSON's own round trip: -0 reads back as 0, and NUL is dropped from strings (see jsonParam).
        const expected = values.map((v) => (v === undefined ? null : JSON.parse(JSON.stringify(v).replaceAll('\\u0000', ''))));
        expect(await read(arrayParam(values, 'jsonb'), 'jsonb')).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('gives PostgreSQL the ids (either case) and NULLs it was given', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(fc.uuid(), { nil: null }), { maxLength: 20 }), fc.boolean(), async (ids, upper) => {
        const given = upper ? ids.map((id) => id && id.toUpperCase()) : ids;
        expect(await read(arrayParam(given, 'uuid'), 'uuid')).toEqual(ids.map((id) => id && id.toLowerCase()));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a malformed id before sending anything, so it can never become a NULL or shift the elements', () => {
    const id = crypto.randomUUID();
    const malformed = ['', 'NULL', `${id},${id}`, id.slice(1), `${id}0`, id.replace('-', 'x'), id.replace(/[0-9a-f]$/, 'g'), id.replace(/[0-9a-f]$/, '\u0660'), `{${id.slice(1, 35)}}`, 42];
    for (const value of malformed) expect(() => arrayParam([id, value], 'uuid'), String(value)).toThrow(/not a uuid/);
  });

  it('gives PostgreSQL booleans, integers and empty arrays of every type', async () => {
    expect(await read(arrayParam([true, false, null], 'boolean'), 'boolean')).toEqual([true, false, null]);
    expect(await read(arrayParam([0, 12, null, -3, 2147483647, -2147483648], 'int'), 'int')).toEqual([0, 12, null, -3, 2147483647, -2147483648]);
    for (const bad of [2147483648, 1.5, Number.NaN]) expect(() => arrayParam([bad], 'int')).toThrow(/int4/);
    for (const type of ['uuid', 'text', 'jsonb', 'boolean', 'int'] as const) expect(await read(arrayParam([], type), type === 'int' ? 'int4' : type)).toEqual([]);
    // An object given for text is written as its JSON, as node-postgres writes one.
    expect(await read(arrayParam([{ a: '"' }], 'text'), 'text')).toEqual(['{"a":"\\""}']);
    // JSON beyond ASCII (fc.jsonValue's strings are ASCII), beside a NULL.
    expect(await read(arrayParam([{ a: 'é😀\u0000' }, null, ['ü']], 'jsonb'), 'jsonb')).toEqual([{ a: 'é😀' }, null, ['ü']]);
  });

  it('carries a text[] per row as the text of its literal, read back by a cast', async () => {
    // How the accept statement takes each trigger's context keys: an array cannot be an element of one.
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(fc.array(text, { maxLength: 5 }), { nil: null }), { maxLength: 8 }), async (lists) => {
        const literal = arrayParam(lists.map((list) => list && textArrayLiteral(list)), 'text');
        const { rows } = await client.query<{ v: string[] | null }>('SELECT x::text[] AS v FROM unnest($1::text[]) WITH ORDINALITY AS u(x, i) ORDER BY i', [literal]);
        expect(rows.map((r) => r.v)).toEqual(lists.map((list) => list && list.map((v) => v.replaceAll('\u0000', ''))));
      }),
      { numRuns: 200 },
    );
  });
});

describe('columnParam', () => {
  it('sends a column with no values as NULL, which unnest reads as NULLs beside the other columns', async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    const absent = columnParam([undefined, null], 'jsonb');
    expect(absent).toBeNull();
    const { rows } = await client.query('SELECT r.id, r.doc, r.label FROM unnest($1::uuid[], $2::jsonb[], $3::text[]) AS r(id, doc, label)', [
      columnParam(ids, 'uuid'),
      absent,
      columnParam([null, 'b'], 'text'),
    ]);
    expect(rows).toEqual([
      { id: ids[0], doc: null, label: null },
      { id: ids[1], doc: null, label: 'b' },
    ]);
    // With every column absent (no rows at all), there is nothing to read.
    expect((await client.query('SELECT * FROM unnest($1::uuid[], $2::text[]) AS r(a, b)', [columnParam([], 'uuid'), columnParam([], 'text')])).rows).toEqual([]);
  });
});
