import { describe, expect, it } from 'vitest';
import { GroupCommit, type BatchWriter } from './group-commit';

type Item = { n: number; resolve(outcome: string): void; reject(error: unknown): void };

/** A writer whose batches stay in flight until `release` (all of them so far), recording each batch's items. */
function heldWriter(fail?: (n: number) => boolean) {
  const batches: number[][] = [];
  const alone: number[] = [];
  let waiting: (() => void)[] = [];
  const writer: BatchWriter<Item, string> = {
    async writeBatch(batch) {
      batches.push(batch.map((i) => i.n));
      await new Promise<void>((resolve) => waiting.push(resolve));
      if (fail && batch.some((i) => fail(i.n))) throw new Error('batch failed');
      return batch.map((i) => `batch:${i.n}`);
    },
    async writeAlone(item) {
      alone.push(item.n);
      if (fail?.(item.n)) throw new Error(`item ${item.n} failed`);
      return `alone:${item.n}`;
    },
  };
  const release = () => {
    const now = waiting;
    waiting = [];
    now.forEach((resolve) => resolve());
  };
  return { writer, batches, alone, release };
}

const add = (commits: GroupCommit<Item, string>, n: number) => new Promise<string>((resolve, reject) => commits.add({ n, resolve, reject }));
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('GroupCommit', () => {
  it('sends a lone item at once, and gives each caller its own outcome after its batch is written', async () => {
    const held = heldWriter();
    const commits = new GroupCommit(held.writer, 1_000);
    const outcome = add(commits, 1);
    expect(held.batches).toEqual([[1]]);
    held.release();
    expect(await outcome).toBe('batch:1');
  });

  it('starts a batch beside one in flight once 16 items wait, and sends the rest when nothing is in flight', async () => {
    const held = heldWriter();
    const commits = new GroupCommit(held.writer, 60_000);
    const outcomes = Array.from({ length: 20 }, (_, n) => add(commits, n));
    expect(held.batches.map((b) => b.length)).toEqual([1, 16]);
    held.release();
    await tick();
    expect(held.batches.map((b) => b.length)).toEqual([1, 16, 3]);
    held.release();
    expect(await Promise.all(outcomes)).toEqual(Array.from({ length: 20 }, (_, n) => `batch:${n}`));
  });

  it('lets a few items go beside a batch in flight once they have waited their limit', async () => {
    const held = heldWriter();
    const commits = new GroupCommit(held.writer, 20);
    const outcomes = [add(commits, 0), add(commits, 1), add(commits, 2)];
    expect(held.batches).toEqual([[0]]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(held.batches).toEqual([[0], [1, 2]]);
    held.release();
    expect(await Promise.all(outcomes)).toEqual(['batch:0', 'batch:1', 'batch:2']);
  });

  it('keeps at most four batches in flight', async () => {
    const held = heldWriter();
    const commits = new GroupCommit(held.writer, 5);
    const outcomes: Promise<string>[] = [];
    // Each item waits its limit, then goes beside the batches in flight: until four are.
    for (let n = 0; n < 6; n++) {
      outcomes.push(add(commits, n));
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(held.batches).toEqual([[0], [1], [2], [3]]);
    held.release();
    await tick();
    expect(held.batches).toEqual([[0], [1], [2], [3], [4, 5]]);
    held.release();
    expect(await Promise.all(outcomes)).toEqual([0, 1, 2, 3, 4, 5].map((n) => `batch:${n}`));
  });

  it('writes the items of a failed batch alone, so that one bad item fails only its own caller', async () => {
    const held = heldWriter((n) => n === 2);
    const commits = new GroupCommit(held.writer, 5);
    const first = add(commits, 0);
    const rest = [1, 2, 3].map((n) => add(commits, n).catch((error: Error) => error.message));
    await new Promise((resolve) => setTimeout(resolve, 40));
    held.release();
    expect(await first).toBe('batch:0');
    expect(await Promise.all(rest)).toEqual(['alone:1', 'item 2 failed', 'alone:3']);
    expect(held.alone).toEqual([1, 2, 3]);
  });
});
