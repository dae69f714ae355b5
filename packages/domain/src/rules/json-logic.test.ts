import { describe, expect, it } from 'vitest';
import { evaluateJsonLogic, validateJsonLogic } from './json-logic';

describe('validateJsonLogic', () => {
  it.each([
    [{ '==': [{ var: 'payload.plan' }, 'pro'] }, []],
    [{ and: [{ '>': [{ var: 'payload.n' }, 1] }, { in: ['a', { var: 'subscriber.data.tags' }] }] }, []],
    [true, []],
    [{ nope: [1, 2] }, ["condition: unknown operator 'nope'"]],
    [{ '==': [1, 1], '!=': [1, 2] }, ['condition must have exactly one operator, found 2']],
    ['x', ['condition must be a JSON Logic object']],
  ])('%j -> %j', (rule, problems) => {
    expect(validateJsonLogic(rule)).toEqual(problems);
  });
});

describe('evaluateJsonLogic', () => {
  const data = { payload: { plan: 'pro' }, subscriber: { firstName: 'Ada' } };
  it('matches, misses, and treats no rule as a match', () => {
    expect(evaluateJsonLogic({ '==': [{ var: 'payload.plan' }, 'pro'] }, data)).toEqual({ matched: true });
    expect(evaluateJsonLogic({ '==': [{ var: 'payload.plan' }, 'free'] }, data)).toEqual({ matched: false });
    expect(evaluateJsonLogic(undefined, data)).toEqual({ matched: true });
  });
  it('counts a rule that throws as false and says why', () => {
    const outcome = evaluateJsonLogic({ bogus: [1] }, data);
    expect(outcome.matched).toBe(false);
    expect(outcome.error).toMatch(/condition failed: .*bogus/);
  });
});
