import { describe, expect, it } from 'vitest';
import { findNul } from './nul-strings';

describe('findNul', () => {
  it.each([
    ['a clean value', { a: 'x', b: [1, 'y', { c: null }] }, null],
    ['a top-level string', 'a\0b', 'body'],
    ['a nested string', { payload: { note: 'a\0' } }, 'payload.note'],
    ['an array item', { subscriberIds: ['ok', '\0'] }, 'subscriberIds.1'],
    ['an object key', { data: { 'k\0': 1 } }, 'data.k\\u0000'],
    ['a backslash-u text that is not NUL', { a: '\\u0000' }, null],
  ])('%s', (_name, value, expected) => {
    expect(findNul(value)).toBe(expected);
  });
});
