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
