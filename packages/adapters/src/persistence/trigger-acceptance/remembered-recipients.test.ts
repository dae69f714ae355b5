import { describe, expect, it } from 'vitest';
import { RememberedRecipients, storedKey, withObjectKey, type RecipientRead } from './remembered-recipients';

const read = (notes = ''): RecipientRead => ({ subscriber: { id: 'row-1', subscriber_id: 'ada', data: { notes } }, preferences: null, version: '7/1' });

describe('RememberedRecipients', () => {
  it('remembers a read under its key until it is forgotten', () => {
    const remembered = new RememberedRecipients();
    const key = storedKey('env', 'workflow', 'ada');
    remembered.set(key, read());
    expect(remembered.get(key)).toEqual(read());
    remembered.forget(key);
    expect(remembered.get(key)).toBeUndefined();
  });

  it('keeps a read as stored apart from reads with an object, and reads with different objects apart', () => {
    const remembered = new RememberedRecipients();
    const key = storedKey('env', 'workflow', 'ada');
    remembered.set(withObjectKey(key, { json: '{"subscriberId":"ada","firstName":"A"}' }), read('with A'));
    expect(remembered.get(key)).toBeUndefined();
    expect(remembered.get(withObjectKey(key, { json: '{"subscriberId":"ada","firstName":"B"}' }))).toBeUndefined();
    expect(remembered.get(withObjectKey(key, { json: '{"subscriberId":"ada","firstName":"A"}' }))).toEqual(read('with A'));
    // The parts cannot run into each other: a subscriberId holds no NUL.
    expect(storedKey('env', 'workflow', 'a/b')).not.toBe(storedKey('env', 'workflow/a', 'b'));
  });

  it('does not remember a read larger than its bound', () => {
    const remembered = new RememberedRecipients();
    const key = storedKey('env', 'workflow', 'large');
    remembered.set(key, read('x'.repeat(20_000)));
    expect(remembered.get(key)).toBeUndefined();
  });
});
