import type { FieldErrors } from '../errors';

export const FILTER_OPERATORS = [
  'LARGER', 'SMALLER', 'LARGER_EQUAL', 'SMALLER_EQUAL', 'EQUAL', 'NOT_EQUAL', 'ALL_IN', 'ANY_IN', 'NOT_IN',
  'BETWEEN', 'NOT_BETWEEN', 'LIKE', 'NOT_LIKE', 'IN',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const FILTER_FIELD_TYPES = ['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP'] as const;
export type FilterFieldType = (typeof FILTER_FIELD_TYPES)[number];

export const FILTER_SOURCES = ['subscriber', 'payload'] as const;
export type FilterSource = (typeof FILTER_SOURCES)[number];

export interface FieldFilterPart {
  /** Dot path into the source, e.g. `data.plan` on the subscriber or `order.total` on the payload. */
  field: string;
  /** Always a string; lists are comma separated or a JSON array, ranges are `min,max`. */
  value: string;
  operator: FilterOperator;
  on: FilterSource;
}

/** A group of conditions joined by AND or OR; `type` hints how values compare (NUMBER, DATE...). */
export interface StepFilter {
  isNegated: boolean;
  type: FilterFieldType;
  value: 'AND' | 'OR';
  children: FieldFilterPart[];
}

const includes = <T extends string>(list: readonly T[], value: unknown): value is T => list.includes(value as T);

/** Checks conditions as written (shape, enums, BETWEEN ranges); fields are named like `conditions.0.children.1.operator`. */
export function validateStepFilters(filters: unknown, path = 'conditions'): FieldErrors {
  const errors: FieldErrors = {};
  const fail = (at: string, message: string, value?: unknown) => {
    (errors[at] ??= { messages: [], value }).messages.push(message);
  };
  if (!Array.isArray(filters)) {
    fail(path, 'must be an array of filter groups', filters);
    return errors;
  }
  filters.forEach((filter: Partial<StepFilter> | null, i) => {
    const at = `${path}.${i}`;
    if (filter === null || typeof filter !== 'object') return fail(at, 'must be an object', filter);
    if (typeof filter.isNegated !== 'boolean') fail(`${at}.isNegated`, 'must be a boolean', filter.isNegated);
    if (!includes(FILTER_FIELD_TYPES, filter.type)) fail(`${at}.type`, `must be one of ${FILTER_FIELD_TYPES.join(', ')}`, filter.type);
    if (filter.value !== 'AND' && filter.value !== 'OR') fail(`${at}.value`, 'must be AND or OR', filter.value);
    if (!Array.isArray(filter.children)) return fail(`${at}.children`, 'must be an array', filter.children);
    filter.children.forEach((child: Partial<FieldFilterPart> | null, j) => {
      const c = `${at}.children.${j}`;
      if (child === null || typeof child !== 'object') return fail(c, 'must be an object', child);
      if (typeof child.field !== 'string' || child.field.trim() === '') fail(`${c}.field`, 'must be a non-empty string', child.field);
      if (typeof child.value !== 'string') fail(`${c}.value`, 'must be a string', child.value);
      if (!includes(FILTER_OPERATORS, child.operator)) fail(`${c}.operator`, `must be one of ${FILTER_OPERATORS.join(', ')}`, child.operator);
      if (!includes(FILTER_SOURCES, child.on)) fail(`${c}.on`, 'must be subscriber or payload', child.on);
      if ((child.operator === 'BETWEEN' || child.operator === 'NOT_BETWEEN') && typeof child.value === 'string' && !parseRange(child.value)) {
        fail(`${c}.value`, 'must be a range "min,max" of two numbers or two dates', child.value);
      }
    });
  });
  return errors;
}

/** `"1,10"` or `"2024-01-01,2024-12-31"` -> the two bounds as numbers (dates as epoch ms). */
export function parseRange(value: string): [number, number] | null {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.length !== 2 || parts.some((p) => p === '')) return null;
  const asNumbers = parts.map(Number);
  if (asNumbers.every(Number.isFinite)) return [asNumbers[0], asNumbers[1]];
  const asDates = parts.map((p) => Date.parse(p));
  return asDates.every(Number.isFinite) ? [asDates[0], asDates[1]] : null;
}
