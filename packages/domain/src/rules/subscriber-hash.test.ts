import { describe, expect, it } from 'vitest';
import { subscriberHash, subscriberHashMatches } from './subscriber-hash';

describe('subscriberHashMatches', () => {
  const good = subscriberHash('key-2', 'ada');
  it.each<[string, string[], string, string | undefined, boolean]>([
    ['a hash made with one of the keys', ['key-1', 'key-2'], 'ada', good, true],
    ['the same hash in upper case', ['key-2'], 'ada', good.toUpperCase(), true],
    ['a hash of another subscriber', ['key-2'], 'bob', good, false],
    ['a hash made with another key', ['key-1'], 'ada', good, false],
    ['no hash', ['key-2'], 'ada', undefined, false],
    ['a malformed hash', ['key-2'], 'ada', 'zz', false],
    ['no keys at all', [], 'ada', good, false],
  ])('%s -> %s', (_, secrets, subscriberId, hash, expected) => {
    expect(subscriberHashMatches(secrets, subscriberId, hash)).toBe(expected);
  });
});
