import { describe, expect, it } from 'vitest';
import { poolLosingOneCommitReply, poolRecordingBatches } from '../../testing/recording-pools';
import { useTriggerAcceptanceFixture } from '../../testing/trigger-acceptance-fixture';
import { TriggerAcceptor } from './trigger-acceptor';
import { testChannelCipher } from '../../testing/test-channel-cipher';

const fx = useTriggerAcceptanceFixture();
const { database, acceptance, trigger, rows } = fx;

describe('TriggerAcceptor: group commit', () => {
  it('answers accepted, not duplicate, for triggers whose batch committed though the reply was lost', async () => {
    const acceptor = new TriggerAcceptor(poolLosingOneCommitReply(database.db.pool), fx.queue, testChannelCipher);
    // More triggers at once than transactions in flight, so later ones are accepted in batches.
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => acceptor.accept(acceptance(`lost-reply-${i}`))));
    expect(outcomes.every((o) => o.accepted)).toBe(true);
    const { rows } = await database.db.pool.query<{ n: number; notifications: number }>(
      "SELECT count(*)::int AS n, (SELECT count(*)::int FROM notifications WHERE transaction_id LIKE 'lost-reply-%') AS notifications FROM events WHERE transaction_id LIKE 'lost-reply-%'",
    );
    expect(rows[0]).toEqual({ n: 12, notifications: 12 });
    expect(outcomes.map((o) => (o.accepted ? o.notifications : -1))).toEqual(Array(12).fill(1));
    // A real duplicate is still refused.
    expect(await acceptor.accept(acceptance('lost-reply-0'))).toEqual({ accepted: false, reason: 'duplicate_transaction' });
  });

  it('sends a lone trigger at once, and starts a batch beside one in flight only once enough triggers wait', async () => {
    const sizes: number[] = [];
    const acceptor = new TriggerAcceptor(poolRecordingBatches(database.db.pool, sizes), fx.queue, testChannelCipher);
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => acceptor.accept(acceptance(`batching-${i}`))));
    expect(outcomes.every((o) => o.accepted)).toBe(true);
    // The first goes straight through; while it is in flight, the others wait until 16 can go
    // together (twice), and the last 7 go once nothing is in flight (or they waited their limit).
    // The statements may reach the database in another order than the batches were made.
    expect(sizes.sort((a, b) => a - b)).toEqual([1, 7, 16, 16]);
    const { rows } = await database.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE transaction_id LIKE 'batching-%'");
    expect(rows[0].n).toBe(40);
  });

  it('lets a few triggers go beside a batch held up in flight once they have waited their limit', async () => {
    const sizes: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const acceptor = new TriggerAcceptor(poolRecordingBatches(database.db.pool, sizes, held), fx.queue, testChannelCipher, 50);
    const first = acceptor.accept(acceptance('held-0'));
    const started = performance.now();
    const others = await Promise.all([acceptor.accept(acceptance('held-1')), acceptor.accept(acceptance('held-2'))]);
    // Accepted while the first is still held, after waiting about the limit, together.
    expect(others.every((o) => o.accepted)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(sizes).toEqual([2]);
    release();
    expect((await first).accepted).toBe(true);
    expect(sizes).toEqual([2, 1]);
  });
});
