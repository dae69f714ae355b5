import { DomainError } from '../errors';
import { refuseBothCursors, TOTAL_COUNT_CAP, type CursorPage, type CursorQuery } from '../shared/pagination';

type Key = Date | string | null;

const compareKeys = (a: Key, b: Key): number => {
  // The SQL adapters order in the C collation (code units) and by instants; null sorts last ascending.
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const [x, y] = a instanceof Date && b instanceof Date ? [a.getTime(), b.getTime()] : [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

function encode(value: Key, id: string): string {
  return Buffer.from(JSON.stringify([value instanceof Date ? value.toISOString() : value, id])).toString('base64url');
}

function decode(cursor: string, dates: boolean, param: 'after' | 'before'): [Key, string] {
  try {
    const [value, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof id !== 'string' || (value !== null && typeof value !== 'string')) throw new Error('shape');
    return [dates && value !== null ? new Date(value) : value, id];
  } catch {
    throw DomainError.field(param, 'is not a cursor returned by this list', cursor);
  }
}

/**
 * Keyset pagination over (field, id) in memory, with the SQL adapters' rules: opaque `after`/`before`
 * cursors (not both), `includeCursor` keeps the cursor row, `next`/`previous` are null at either end,
 * totalCount stops at TOTAL_COUNT_CAP.
 */
export function cursorPage<Row extends { id: string }>(
  matches: readonly Row[],
  query: CursorQuery,
  key: (row: Row) => Key,
  dates = true,
): CursorPage<Row> {
  refuseBothCursors(query);
  const backwards = Boolean(query.before);
  const ascending = (query.orderDirection === 'ASC') !== backwards;
  const sign = ascending ? 1 : -1;
  const order = (a: Row, b: Row) => sign * (compareKeys(key(a), key(b)) || compareKeys(a.id, b.id));
  const cursor = query.after ?? query.before;
  let rows = [...matches].sort(order);
  if (cursor) {
    const [value, id] = decode(cursor, dates, backwards ? 'before' : 'after');
    rows = rows.filter((row) => {
      const byKey = sign * compareKeys(key(row), value);
      const byId = sign * compareKeys(row.id, id);
      return byKey > 0 || (byKey === 0 && (byId > 0 || (query.includeCursor && byId === 0)));
    });
  }
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (backwards) page.reverse();
  const at = (row: Row | undefined) => (row ? encode(key(row), row.id) : null);
  const [first, last] = [page[0], page[page.length - 1]];
  return {
    data: page,
    next: backwards ? at(last) : hasMore ? at(last) : null,
    previous: backwards ? (hasMore ? at(first) : null) : cursor ? at(first) : null,
    totalCount: Math.min(matches.length, TOTAL_COUNT_CAP),
    totalCountCapped: matches.length > TOTAL_COUNT_CAP,
  };
}
