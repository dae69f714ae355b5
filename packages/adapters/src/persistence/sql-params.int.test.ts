import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { arrayParam, columnParam } from './sql-params';

const database = useTestDatabase(2);
let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(() => client?.end());

/** What PostgreSQL reads from the literal, as JSON (arrays of text, booleans, uuids or JSON values). */
async function read(literal: string, type: string): Promise<unknown[]> {
  const { rows } = await client.query<{ v: unknown[] }>(`SELECT to_jsonb($1::${type}[]) AS v`, [literal]);
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

  it('gives PostgreSQL ids, booleans, integers and an empty array; a malformed id fails its cast, never shifts the elements', async () => {
    const ids = [crypto.randomUUID(), null, crypto.randomUUID()];
    expect(arrayParam(ids, 'uuid')).toBe(`{"${ids[0]}",NULL,"${ids[2]}"}`);
    for (const malformed of ['', 'NULL', `${ids[0]},${ids[2]}`]) await expect(read(arrayParam([malformed], 'uuid'), 'uuid')).rejects.toThrow(/uuid/);
    expect(await read(arrayParam(ids, 'uuid'), 'uuid')).toEqual(ids);
    expect(await read(arrayParam([true, false, null], 'boolean'), 'boolean')).toEqual([true, false, null]);
    expect(await read(arrayParam([0, 12, null, -3], 'int'), 'int')).toEqual([0, 12, null, -3]);
    expect(arrayParam([], 'text')).toBe('{}');
    // An object given for text is written as its JSON, as node-postgres writes one.
    expect(await read(arrayParam([{ a: '"' }], 'text'), 'text')).toEqual(['{"a":"\\""}']);
    expect(await read(arrayParam([], 'text'), 'text')).toEqual([]);
  });

  it('carries a text[] per row as the text of its literal, read back by a cast', async () => {
    // How the accept statement takes each trigger's context keys: an array cannot be an element of one.
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(fc.array(text, { maxLength: 5 }), { nil: null }), { maxLength: 8 }), async (lists) => {
        const literal = arrayParam(lists.map((list) => list && arrayParam(list, 'text')), 'text');
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
