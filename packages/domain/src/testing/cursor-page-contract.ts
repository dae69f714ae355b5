import { expect } from 'vitest';
import { DomainError } from '../errors';
import type { CursorPage, CursorQuery, OrderDirection } from '../shared/pagination';


const isValidation = (e: unknown) => e instanceof DomainError && e.code === 'VALIDATION_FAILED';

/**
 * What every cursor list promises, checked on one list whose matches in `orderBy` ascending order
 * are `expected` (at least three): pages of `limit` walked forward by `next` and back by
 * `previous` give every match once, in order; `next` is null on the last page and `previous` on the
 * first; `includeCursor` keeps the cursor row; descending reverses; a cursor that is not one, or
 * `after` with `before`, is a validation error.
 */
export async function expectCursorPagination<T, O extends string>(
  list: (query: CursorQuery<O>) => Promise<CursorPage<T>>,
  orderBy: O,
  expected: string[],
  key: (row: T) => string,
): Promise<void> {
  expect(expected.length).toBeGreaterThanOrEqual(3);
  const query = (orderDirection: OrderDirection, extra: Partial<CursorQuery<O>> = {}): CursorQuery<O> => ({
    limit: 2,
    orderBy,
    orderDirection,
    includeCursor: false,
    ...extra,
  });
  for (const [direction, order] of [['ASC', expected], ['DESC', [...expected].reverse()]] as const) {
    const forward: string[] = [];
    const pages: Array<CursorPage<T>> = [];
    let page = await list(query(direction));
    expect(page.previous).toBeNull();
    expect(page.totalCount).toBe(expected.length);
    expect(page.totalCountCapped).toBe(false);
    for (;;) {
      pages.push(page);
      forward.push(...page.data.map(key));
      if (!page.next) break;
      page = await list(query(direction, { after: page.next }));
      expect(page.previous).not.toBeNull();
    }
    expect(forward).toEqual(order);
    // Back from the last page by `previous`, one page at a time, to the first.
    const back: string[][] = [pages[pages.length - 1].data.map(key)];
    let previous = pages[pages.length - 1].previous;
    while (previous) {
      const before = await list(query(direction, { before: previous }));
      back.unshift(before.data.map(key));
      previous = before.previous;
    }
    expect(back.flat()).toEqual(order);
    // includeCursor: the page after a cursor starts with the cursor's own row.
    const again = await list(query(direction, { after: pages[0].next!, includeCursor: true }));
    expect(again.data.map(key)[0]).toBe(pages[0].data.map(key)[1]);
  }
  await expect(list(query('ASC', { after: 'not-a-cursor' }))).rejects.toSatisfy(isValidation);
  const first = await list(query('ASC'));
  await expect(list(query('ASC', { after: first.next!, before: first.next! }))).rejects.toSatisfy(isValidation);
}
