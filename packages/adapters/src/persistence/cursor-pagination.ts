import { DomainError, refuseBothCursors, TOTAL_COUNT_CAP, type CursorPage, type CursorQuery } from '@herald/domain';

/** The slice of a Prisma model delegate that keyset pagination needs. */
export interface CursorSource<Row> {
  findMany(args: { where: object; orderBy: object[]; take: number }): Promise<Row[]>;
  count(args: { where: object; take: number }): Promise<number>;
}

export type CursorField = { name: string; kind: 'date' | 'string' };

function encode(value: unknown, id: string): string {
  const v = value instanceof Date ? value.toISOString() : value;
  return Buffer.from(JSON.stringify([v, id])).toString('base64url');
}

function decode(cursor: string, field: CursorField, param: 'after' | 'before'): [unknown, string] {
  try {
    const [value, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof id !== 'string' || (value !== null && typeof value !== 'string')) throw new Error('shape');
    return [field.kind === 'date' && value !== null ? new Date(value) : value, id];
  } catch {
    throw DomainError.field(param, 'is not a cursor returned by this list', cursor);
  }
}

/**
 * Keyset pagination over (field, id), shared by every cursor list: `after`/`before` are opaque
 * cursors of a row; `next`/`previous` are null at either end; totalCount stops at 50,000.
 */
export async function paginate<Row extends { id: string }, T>(
  source: CursorSource<Row>,
  where: object,
  query: CursorQuery,
  field: CursorField,
  map: (row: Row) => T,
): Promise<CursorPage<T>> {
  refuseBothCursors(query);
  const backwards = Boolean(query.before);
  const ascending = (query.orderDirection === 'ASC') !== backwards;
  const direction = ascending ? 'asc' : 'desc';
  const cursor = query.after ?? query.before;
  let cursorWhere: object = {};
  if (cursor) {
    const [value, id] = decode(cursor, field, backwards ? 'before' : 'after');
    const strict = ascending ? 'gt' : 'lt';
    const idOp = query.includeCursor ? (ascending ? 'gte' : 'lte') : strict;
    cursorWhere = { OR: [{ [field.name]: { [strict]: value } }, { [field.name]: value, id: { [idOp]: id } }] };
  }
  const [rows, counted] = await Promise.all([
    source.findMany({
      where: cursor ? { AND: [where, cursorWhere] } : where,
      orderBy: [{ [field.name]: direction }, { id: direction }],
      take: query.limit + 1,
    }),
    source.count({ where, take: TOTAL_COUNT_CAP + 1 }),
  ]);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  const at = (row: Row | undefined) => (row ? encode((row as Record<string, unknown>)[field.name], row.id) : null);
  return {
    data: page.map(map),
    next: backwards ? at(last) : hasMore ? at(last) : null,
    previous: backwards ? (hasMore ? at(first) : null) : cursor ? at(first) : null,
    totalCount: Math.min(counted, TOTAL_COUNT_CAP),
    totalCountCapped: counted > TOTAL_COUNT_CAP,
  };
}
