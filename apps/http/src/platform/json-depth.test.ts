import { describe, expect, it } from 'vitest';
import { jsonDepth } from './json-depth';

describe('jsonDepth', () => {
  it.each([
    ['a scalar', '"x"', 0],
    ['a flat object', '{"a":1,"b":"c"}', 1],
    ['nested arrays and objects', '{"a":[{"b":[1]}],"c":{}}', 4],
    ['brackets inside strings', '{"a":"[[[{{{"}', 1],
    ['escaped quotes inside strings', '{"a":"\\"[[[","b":[]}', 2],
    ['an escaped backslash before a closing quote', '{"a":"\\\\","b":[[]]}', 3],
  ])('%s', (_name, text, depth) => {
    expect(jsonDepth(text)).toBe(depth);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it('stops counting past the limit on a 20,000-level body', () => {
    const text = '['.repeat(20_000) + ']'.repeat(20_000);
    expect(jsonDepth(text)).toBe(20_000);
    expect(jsonDepth(text, 64)).toBe(65);
  });
});
