import { describe, expect, it } from 'vitest';
import { findUnstorable, NUL_MESSAGE, SURROGATE_MESSAGE } from './unstorable-strings';

describe('findUnstorable', () => {
  it.each([
    ['a clean value', { a: 'x', b: [1, 'y', { c: null }], emoji: '💩' }, null],
    ['a top-level string', 'a\0b', { field: 'body', message: NUL_MESSAGE }],
    ['a nested string', { payload: { note: 'a\0' } }, { field: 'payload.note', message: NUL_MESSAGE }],
    ['an array item', { subscriberIds: ['ok', '\0'] }, { field: 'subscriberIds.1', message: NUL_MESSAGE }],
    ['an object key', { data: { 'k\0': 1 } }, { field: 'data.k\\u0000', message: NUL_MESSAGE }],
    ['a lone high surrogate', { to: '\ud800' }, { field: 'to', message: SURROGATE_MESSAGE }],
    ['a lone low surrogate after text', { to: ['x\udfff'] }, { field: 'to.0', message: SURROGATE_MESSAGE }],
    ['a backslash-u text that is not NUL', { a: '\\u0000' }, null],
  ])('%s', (_name, value, expected) => {
    expect(findUnstorable(value)).toEqual(expected);
  });
});
