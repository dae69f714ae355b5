import { describe, expect, it } from 'vitest';
import type { FieldFilterPart, FilterFieldType, StepFilter } from '../entities/step-filter';
import { validateStepFilters } from '../entities/step-filter';
import { evaluateStepFilters } from './evaluate-step-filters';

const input = {
  subscriber: { firstName: 'Ada', email: 'ada@example.com', data: { plan: 'pro', seats: 12 } },
  payload: { total: 150, status: 'shipped', tags: ['vip', 'eu'], placedAt: '2024-06-15T10:00:00Z', note: 'Leave at DOOR' },
};

const group = (children: FieldFilterPart[], extra: Partial<StepFilter> = {}): StepFilter => ({
  isNegated: false,
  type: 'TEXT',
  value: 'AND',
  children,
  ...extra,
});
const part = (on: 'subscriber' | 'payload', field: string, operator: FieldFilterPart['operator'], value: string): FieldFilterPart => ({
  on,
  field,
  operator,
  value,
});

describe('evaluateStepFilters: every operator', () => {
  const cases: Array<[string, FieldFilterPart, boolean, FilterFieldType?]> = [
    ['EQUAL text', part('payload', 'status', 'EQUAL', 'shipped'), true],
    ['EQUAL mismatch', part('payload', 'status', 'EQUAL', 'pending'), false],
    ['EQUAL number written differently', part('payload', 'total', 'EQUAL', '150.0'), true],
    ['EQUAL on a missing field', part('payload', 'missing', 'EQUAL', ''), false],
    ['NOT_EQUAL', part('payload', 'status', 'NOT_EQUAL', 'pending'), true],
    ['NOT_EQUAL on a missing field', part('payload', 'missing', 'NOT_EQUAL', 'x'), true],
    ['LARGER numbers', part('payload', 'total', 'LARGER', '100'), true],
    ['LARGER compares numbers, not text', part('payload', 'total', 'LARGER', '99'), true],
    ['SMALLER', part('payload', 'total', 'SMALLER', '100'), false],
    ['LARGER_EQUAL at the bound', part('payload', 'total', 'LARGER_EQUAL', '150'), true],
    ['SMALLER_EQUAL at the bound', part('payload', 'total', 'SMALLER_EQUAL', '150'), true],
    ['LARGER dates', part('payload', 'placedAt', 'LARGER', '2024-01-01'), true, 'DATE'],
    ['SMALLER dates', part('payload', 'placedAt', 'SMALLER', '2024-01-01'), false, 'DATE'],
    ['LARGER on a missing field', part('payload', 'missing', 'LARGER', '1'), false],
    ['IN a comma list', part('payload', 'status', 'IN', 'pending, shipped'), true],
    ['IN a JSON list', part('payload', 'status', 'IN', '["pending"]'), false],
    ['NOT_IN', part('payload', 'status', 'NOT_IN', 'pending,cancelled'), true],
    ['ANY_IN', part('payload', 'tags', 'ANY_IN', 'us,eu'), true],
    ['ANY_IN none', part('payload', 'tags', 'ANY_IN', 'us,asia'), false],
    ['ALL_IN', part('payload', 'tags', 'ALL_IN', 'vip,eu'), true],
    ['ALL_IN partly', part('payload', 'tags', 'ALL_IN', 'vip,us'), false],
    ['BETWEEN inclusive', part('payload', 'total', 'BETWEEN', '100,150'), true],
    ['BETWEEN outside', part('payload', 'total', 'BETWEEN', '1,10'), false],
    ['BETWEEN dates', part('payload', 'placedAt', 'BETWEEN', '2024-06-01,2024-07-01'), true],
    ['NOT_BETWEEN', part('payload', 'total', 'NOT_BETWEEN', '1,10'), true],
    ['LIKE is a case-insensitive substring', part('payload', 'note', 'LIKE', 'door'), true],
    ['NOT_LIKE', part('payload', 'note', 'NOT_LIKE', 'window'), true],
    ['subscriber field', part('subscriber', 'firstName', 'EQUAL', 'Ada'), true],
    ['subscriber nested data', part('subscriber', 'data.plan', 'EQUAL', 'pro'), true],
    ['subscriber nested number', part('subscriber', 'data.seats', 'SMALLER_EQUAL', '12'), true],
  ];
  it.each(cases)('%s', (_name, condition, expected, type = 'TEXT') => {
    expect(evaluateStepFilters([group([condition], { type })], input).passed).toBe(expected);
  });
});

describe('evaluateStepFilters: groups', () => {
  const yes = part('payload', 'status', 'EQUAL', 'shipped');
  const no = part('payload', 'status', 'EQUAL', 'pending');
  const cases: Array<[string, StepFilter[], boolean]> = [
    ['no filters pass', [], true],
    ['an empty group passes', [group([])], true],
    ['AND needs every child', [group([yes, no])], false],
    ['OR needs one child', [group([yes, no], { value: 'OR' })], true],
    ['isNegated inverts a group', [group([no], { isNegated: true })], true],
    ['every group must pass', [group([yes]), group([no])], false],
  ];
  it.each(cases)('%s', (_name, filters, expected) => {
    expect(evaluateStepFilters(filters, input).passed).toBe(expected);
  });

  it('reports each check with the value it saw', () => {
    const { checks } = evaluateStepFilters([group([yes])], input);
    expect(checks).toEqual([{ field: 'status', on: 'payload', operator: 'EQUAL', expected: 'shipped', actual: 'shipped', passed: true }]);
  });
});

describe('validateStepFilters', () => {
  it('accepts well-formed filters', () => {
    expect(validateStepFilters([group([part('payload', 'total', 'BETWEEN', '1,5')])])).toEqual({});
  });

  it('names each bad field', () => {
    const errors = validateStepFilters([
      { isNegated: 'no', type: 'TEXT', value: 'XOR', children: [{ field: '', value: '1', operator: 'NEAR', on: 'tenant' }] },
      group([part('payload', 'total', 'BETWEEN', '5')]),
    ]);
    expect(Object.keys(errors).sort()).toEqual([
      'conditions.0.children.0.field',
      'conditions.0.children.0.on',
      'conditions.0.children.0.operator',
      'conditions.0.isNegated',
      'conditions.0.value',
      'conditions.1.children.0.value',
    ]);
  });

  it('refuses a non-array', () => {
    expect(validateStepFilters({}, 'filters')).toHaveProperty('filters');
  });
});
