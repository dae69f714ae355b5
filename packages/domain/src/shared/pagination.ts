import { DomainError } from '../errors';

export type OrderDirection = 'ASC' | 'DESC';

/** Cursor pagination as the interface describes it; cursors are opaque strings. */
export interface CursorQuery<OrderBy extends string = string> {
  after?: string;
  before?: string;
  limit: number;
  orderDirection: OrderDirection;
  orderBy: OrderBy;
  includeCursor: boolean;
}

export interface CursorPage<T> {
  data: T[];
  next: string | null;
  previous: string | null;
  totalCount: number;
  totalCountCapped: boolean;
}

/** totalCount is counted up to this many rows; more sets totalCountCapped. */
export const TOTAL_COUNT_CAP = 50_000;

/** A cursor list reads after one row or before one, never both: a validation error naming both fields. */
export function refuseBothCursors(query: Pick<CursorQuery, 'after' | 'before'>): void {
  if (query.after && query.before) {
    throw DomainError.validation({
      after: { messages: ['cannot be combined with before'] },
      before: { messages: ['cannot be combined with after'] },
    });
  }
}
