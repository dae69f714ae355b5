import { describe, expect, it } from 'vitest';
import { jsonParam } from './sql-params';

describe('jsonParam', () => {
  it('drops NUL characters from strings at any depth and keeps everything else', () => {
    const value = { a: 'x\u0000y', list: ['\u0000', 'plain'], nested: { 'k\u0000': 'v' }, n: 1, b: null };
    expect(JSON.parse(jsonParam(value))).toEqual({ a: 'xy', list: ['', 'plain'], nested: { k: 'v' }, n: 1, b: null });
  });

  it('leaves a literal backslash followed by u0000 alone', () => {
    const value = { path: '\\u0000', both: '\\\u0000', many: '\\\\u0000\u0000' };
    expect(JSON.parse(jsonParam(value))).toEqual({ path: '\\u0000', both: '\\', many: '\\\\u0000' });
  });

  it('returns plain JSON when there is nothing to drop', () => {
    expect(jsonParam([{ a: 'b' }])).toBe('[{"a":"b"}]');
  });
});
