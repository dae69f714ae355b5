import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from './request-fingerprint';

describe('canonicalJson', () => {
  it.each([
    ['scalars', 42, '42'],
    ['string', 'a"b', '"a\\"b"'],
    ['null', null, 'null'],
    ['keys sorted', { b: 1, a: 2 }, '{"a":2,"b":1}'],
    ['nested keys sorted', { z: { y: 1, x: [{ d: 1, c: 2 }] }, a: true }, '{"a":true,"z":{"x":[{"c":2,"d":1}],"y":1}}'],
    ['array order kept', [3, 1, 2], '[3,1,2]'],
    ['undefined member dropped', { a: undefined, b: 1 }, '{"b":1}'],
    ['undefined array item is null', [undefined], '[null]'],
    ['empty object', {}, '{}'],
    ['unicode key', { é: 1, e: 2 }, '{"e":2,"é":1}'],
  ])('%s', (_name, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });
});

describe('requestFingerprint', () => {
  const base = { method: 'POST', path: '/v2/subscribers', body: '{"subscriberId":"a","data":{"x":1,"y":[1,2]}}' };
  const fingerprint = requestFingerprint(base);

  it.each([
    ['keys reordered', { body: '{"data":{"y":[1,2],"x":1},"subscriberId":"a"}' }],
    ['whitespace', { body: ' { "subscriberId" : "a",\n "data": {"x": 1, "y": [1, 2]} } ' }],
    ['method case', { method: 'post' }],
  ])('is the same with %s', (_name, change) => {
    expect(requestFingerprint({ ...base, ...change })).toBe(fingerprint);
  });

  it.each([
    ['another value', { body: '{"subscriberId":"b","data":{"x":1,"y":[1,2]}}' }],
    ['array order', { body: '{"subscriberId":"a","data":{"x":1,"y":[2,1]}}' }],
    ['an extra field', { body: '{"subscriberId":"a","data":{"x":1,"y":[1,2]},"email":null}' }],
    ['another path', { path: '/v1/subscribers/bulk' }],
    ['another query', { path: '/v2/subscribers?failIfExists=true' }],
    ['another method', { method: 'PATCH' }],
    ['no body', { body: '' }],
  ])('differs with %s', (_name, change) => {
    expect(requestFingerprint({ ...base, ...change })).not.toBe(fingerprint);
  });

  it('hashes a body that is not JSON as raw text', () => {
    const raw = { method: 'POST', path: '/x', body: '{not json' };
    expect(requestFingerprint(raw)).toBe(requestFingerprint({ ...raw }));
    expect(requestFingerprint(raw)).not.toBe(requestFingerprint({ ...raw, body: '{not  json' }));
  });
});
