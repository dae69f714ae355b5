import { describe, expect, it } from 'vitest';
import { SharedReads } from './shared-reads';

/** A read whose answers are given one by one, counting the reads started. */
function scripted<V>() {
  const pending: Array<{ resolve(value: V): void; reject(error: Error): void }> = [];
  return {
    started: () => pending.length,
    read: () => new Promise<V>((resolve, reject) => pending.push({ resolve, reject })),
    /** Answers the latest read, or the `index`th. */
    answer: (value: V, index = pending.length - 1) => pending[index].resolve(value),
    fail: (index = pending.length - 1) => pending[index].reject(new Error('connection lost')),
  };
}

describe('SharedReads', () => {
  it('gives the callers of one moment the same read, and keeps its answer for the lifetime from when it arrived', async () => {
    let now = 0;
    const source = scripted<string>();
    const reads = new SharedReads<string>(1_000, undefined, () => now);
    const together = [reads.get('k', source.read), reads.get('k', source.read)];
    now = 500; // the read takes half a second: its answer is kept until 1,500
    source.answer('one');
    expect(await Promise.all(together)).toEqual(['one', 'one']);
    now = 1_499;
    expect(await reads.get('k', source.read)).toBe('one');
    expect(source.started()).toBe(1);
    now = 1_500;
    const again = reads.get('k', source.read);
    source.answer('two');
    expect(await again).toBe('two');
    expect(source.started()).toBe(2);
  });

  it('keeps keys apart', async () => {
    const reads = new SharedReads<string>(1_000);
    expect(await Promise.all([reads.get('a', async () => 'A'), reads.get('b', async () => 'B')])).toEqual(['A', 'B']);
  });

  it('drops a failed read and an answer it is told not to keep, once settled', async () => {
    const source = scripted<string | null>();
    const reads = new SharedReads<string | null>(1_000, (value) => value !== null);
    const failed = [reads.get('k', source.read), reads.get('k', source.read)];
    source.fail();
    expect((await Promise.allSettled(failed)).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const unknown = reads.get('k', source.read);
    source.answer(null);
    expect(await unknown).toBeNull();
    const found = reads.get('k', source.read);
    source.answer('found');
    expect(await found).toBe('found');
    expect(await reads.get('k', source.read)).toBe('found');
    expect(source.started()).toBe(3);
  });

  it('drops everything past 10,000 keys, and a read dropped so that fails late leaves the newer read of its key alone', async () => {
    const source = scripted<string>();
    const reads = new SharedReads<string>(1_000);
    const old = reads.get('k', source.read);
    for (let i = 0; i <= 10_000; i++) await reads.get(`other-${i}`, async () => 'x');
    await reads.get('one-more', async () => 'x'); // finds 10,002 keys: all dropped, the read of 'k' in flight too
    const newer = reads.get('k', source.read);
    expect(source.started()).toBe(2);
    source.answer('newer', 1);
    expect(await newer).toBe('newer');
    source.fail(0);
    await expect(old).rejects.toThrow('connection lost');
    expect(await reads.get('k', source.read)).toBe('newer');
    expect(source.started()).toBe(2);
  });
});
