import { describe, expect, it } from 'vitest';
import { headerSafe, singleLine } from './header-safe';

describe('singleLine', () => {
  it.each([
    ['Order 7', 'Order 7'],
    ['Hi\r\nBcc: victim@example.com', 'Hi Bcc: victim@example.com'],
    ['a\nb\rc\r\n\r\nd', 'a b c d'],
    ['', ''],
  ])('%j -> %j', (given, expected) => expect(singleLine(given)).toBe(expected));
});

describe('headerSafe', () => {
  it.each<[string, unknown, unknown]>([
    ['from', 'a@example.com\r\nBcc: x@example.com', 'a@example.com Bcc: x@example.com'],
    ['senderName', 'Shop\n', 'Shop '],
    ['cc', ['c@example.com\r\nX-Evil: 1', 'd@example.com'], ['c@example.com X-Evil: 1', 'd@example.com']],
    ['bcc', 'b@example.com\n', 'b@example.com '],
    ['title', 'New\r\nmessage', 'New message'],
    ['headers', { 'X-Ok': 'fine', 'X-Bad\r\nBcc': 'v\r\nBcc: y@example.com' }, { 'X-Ok': 'fine', 'X-Bad Bcc': 'v Bcc: y@example.com' }],
    ['text', 'line one\nline two', 'line one\nline two'],
    ['data', { note: 'a\nb' }, { note: 'a\nb' }],
  ])('%s: %j -> %j (the rest left as it is)', (key, given, expected) => {
    const fields = { [key]: given, replyTo: 'r@example.com', port: 25 };
    expect(headerSafe(fields)).toEqual({ [key]: expected, replyTo: 'r@example.com', port: 25 });
    expect(fields[key]).toBe(given);
  });

  it('returns the very object when nothing has a line break', () => {
    const clean = { from: 'a@example.com', cc: ['c@example.com'], headers: { 'X-A': '1' }, port: 25 };
    expect(headerSafe(clean)).toBe(clean);
  });
});
