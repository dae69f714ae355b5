import { assertNever } from '../entities/channel';
import type { FieldFilterPart, FilterFieldType, StepFilter } from '../entities/step-filter';
import { parseRange } from '../entities/step-filter';

export interface StepFilterInput {
  subscriber?: object | null;
  payload?: Record<string, unknown> | null;
}

export interface FilterCheck {
  field: string;
  on: FieldFilterPart['on'];
  operator: FieldFilterPart['operator'];
  expected: string;
  actual: unknown;
  passed: boolean;
}

export interface StepFilterOutcome {
  passed: boolean;
  /** Every condition evaluated, for execution details. */
  checks: FilterCheck[];
}

/**
 * Evaluates step filters (also integration conditions): every group must pass; a group joins its
 * children with AND or OR and is inverted by isNegated; an empty list passes.
 * A missing field fails every positive operator, so its NOT_ counterpart passes.
 */
export function evaluateStepFilters(filters: readonly StepFilter[] | null | undefined, input: StepFilterInput): StepFilterOutcome {
  const checks: FilterCheck[] = [];
  let passed = true;
  for (const group of filters ?? []) {
    const results = group.children.map((part) => {
      const actual = readPath(part.on === 'subscriber' ? input.subscriber : input.payload, part.field);
      const ok = evaluatePart(part, actual, group.type);
      checks.push({ field: part.field, on: part.on, operator: part.operator, expected: part.value, actual, passed: ok });
      return ok;
    });
    const joined = results.length === 0 || (group.value === 'OR' ? results.some(Boolean) : results.every(Boolean));
    if (joined === group.isNegated) passed = false;
  }
  return { passed, checks };
}

function evaluatePart(part: FieldFilterPart, actual: unknown, type: FilterFieldType): boolean {
  const { operator, value } = part;
  switch (operator) {
    case 'EQUAL':
      return equals(actual, value, type);
    case 'NOT_EQUAL':
      return !equals(actual, value, type);
    case 'LARGER':
      return compare(actual, value, type, (d) => d > 0);
    case 'SMALLER':
      return compare(actual, value, type, (d) => d < 0);
    case 'LARGER_EQUAL':
      return compare(actual, value, type, (d) => d >= 0);
    case 'SMALLER_EQUAL':
      return compare(actual, value, type, (d) => d <= 0);
    case 'IN':
      return isIn(actual, value);
    case 'NOT_IN':
      return !isIn(actual, value);
    case 'ANY_IN':
      return asList(actual).some((item) => parseList(value).includes(item));
    case 'ALL_IN': {
      const present = asList(actual);
      return present.length > 0 && parseList(value).every((item) => present.includes(item));
    }
    case 'BETWEEN':
      return between(actual, value);
    case 'NOT_BETWEEN':
      return !between(actual, value);
    case 'LIKE':
      return like(actual, value);
    case 'NOT_LIKE':
      return !like(actual, value);
    default:
      return assertNever(operator, 'filter operator');
  }
}

function readPath(source: unknown, path: string): unknown {
  let value = source;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const isScalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);
const toNumber = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
const toTime = (v: unknown): number =>
  v instanceof Date ? v.getTime() : typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;

/** Orders two values as numbers, dates or text: the filter's type decides, else what both parse as. */
function difference(actual: unknown, expected: string, type: FilterFieldType): number | null {
  if (actual instanceof Date) return toTime(actual) - toTime(expected);
  if (!isScalar(actual)) return null;
  const [a, b] = [toNumber(actual), toNumber(expected)];
  if (type !== 'DATE' && (type === 'NUMBER' || (Number.isFinite(a) && Number.isFinite(b)))) {
    return Number.isFinite(a) && Number.isFinite(b) ? a - b : null;
  }
  const [ta, tb] = [toTime(actual), toTime(expected)];
  if (type === 'DATE' || (Number.isFinite(ta) && Number.isFinite(tb))) return Number.isFinite(ta) && Number.isFinite(tb) ? ta - tb : null;
  const [sa, sb] = [String(actual), expected];
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function compare(actual: unknown, expected: string, type: FilterFieldType, test: (d: number) => boolean): boolean {
  const d = difference(actual, expected, type);
  return d !== null && test(d);
}

function equals(actual: unknown, expected: string, type: FilterFieldType): boolean {
  if (actual === undefined || actual === null) return false;
  if (isScalar(actual) && String(actual) === expected) return true;
  // "10" equals "10.0" only where values are numbers or dates, not for text.
  const quantitative = type === 'NUMBER' || type === 'DATE' || typeof actual === 'number' || actual instanceof Date;
  return quantitative && difference(actual, expected, type) === 0;
}

/** `"a, b"` or `'["a","b"]'` -> ["a", "b"]. */
function parseList(value: string): string[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // Not JSON: fall back to commas.
    }
  }
  return trimmed === '' ? [] : trimmed.split(',').map((v) => v.trim());
}

function asList(actual: unknown): string[] {
  if (Array.isArray(actual)) return actual.filter(isScalar).map(String);
  return isScalar(actual) ? [String(actual)] : [];
}

function isIn(actual: unknown, value: string): boolean {
  const list = parseList(value);
  return Array.isArray(actual) ? asList(actual).some((v) => list.includes(v)) : isScalar(actual) && list.includes(String(actual));
}

function between(actual: unknown, value: string): boolean {
  const range = parseRange(value);
  if (!range || !(isScalar(actual) || actual instanceof Date)) return false;
  const n = Number.isFinite(toNumber(actual)) ? toNumber(actual) : toTime(actual);
  return Number.isFinite(n) && n >= Math.min(...range) && n <= Math.max(...range);
}

function like(actual: unknown, value: string): boolean {
  return isScalar(actual) && String(actual).toLowerCase().includes(value.toLowerCase());
}
