import { FanOutEvent, FIRST_UUID, LAST_UUID, wholeRange, type EventRepository } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { useFanoutFixture } from '../testing/fanout-fixture';
import { SqlEventRepository, WORKFLOW_CACHE_MS } from './sql-event-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const SUBSCRIBERS = 2_500;
const f = useFanoutFixture(SUBSCRIBERS);

describe('workflow definitions for triggers', () => {
  it('are read once for the triggers asking at the same time, reused for a second, and read again while unknown', async () => {
    const { pool } = f.database.db;
    let reads = 0;
    // The real pool, counting the statements that read a workflow's definition.
    const counting = new Proxy(pool, {
      get(target, property) {
        if (property !== 'query') return Reflect.get(target, property, target);
        return (...args: Parameters<typeof pool.query>) => {
          const [config] = args as unknown[];
          if (String(typeof config === 'string' ? config : (config as { text: string }).text).includes('FROM workflows w LEFT JOIN workflow_steps')) reads++;
          return (target.query as (...a: unknown[]) => unknown)(...args);
        };
      },
    });
    const repo = new SqlEventRepository(counting, f.queue, testChannelCipher);

    const together = await Promise.all(Array.from({ length: 20 }, () => repo.findWorkflow(f.env, 'news')));
    expect(reads).toBe(1);
    expect(new Set(together).size).toBe(1);
    expect(together[0]).toMatchObject({ identifier: 'news', steps: [{ stepId: 'inbox', type: 'in_app' }] });
    expect(await repo.findWorkflow(f.env, 'news')).toBe(together[0]);
    expect(reads).toBe(1);

    // Unknown: the callers of the moment share the answer, and the next call reads again.
    expect(await Promise.all([repo.findWorkflow(f.env, 'later'), repo.findWorkflow(f.env, 'later')])).toEqual([null, null]);
    expect(reads).toBe(2);
    await pool.query("INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'later', 'Later')", [f.env]);
    expect(await repo.findWorkflow(f.env, 'later')).toMatchObject({ identifier: 'later', name: 'Later' });
    expect(reads).toBe(3);

    // An edit is seen once the definition read before it is a second old.
    await pool.query("UPDATE workflows SET name = 'Later, renamed' WHERE environment_id = $1 AND workflow_id = 'later'", [f.env]);
    expect(await repo.findWorkflow(f.env, 'later')).toMatchObject({ name: 'Later' });
    await new Promise((resolve) => setTimeout(resolve, WORKFLOW_CACHE_MS + 50));
    expect(await repo.findWorkflow(f.env, 'later')).toMatchObject({ name: 'Later, renamed' });
    expect(reads).toBe(4);
  });
});

describe('topic fan-out in lanes', () => {
  it('splits a large topic into lanes that together reach every subscriber once, minus the excluded', async () => {
    const eventId = await f.fanningOutEvent('lanes-1', ['u7', 'u2000']);
    const result = await new FanOutEvent(f.events, { chunkSize: 400, laneCount: 3 }).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS - 2);
    const after = await f.outcome(eventId);
    expect(after).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS - 2, distinct: SUBSCRIBERS - 2 });
    expect(after.lanes).toHaveLength(3);
    expect(after.lanes.every((l) => l.done)).toBe(true);
  });

  it('keeps one notification per subscriber when two runs of one fan-out race; a run overtaken commits nothing and is retried', async () => {
    const eventId = await f.fanningOutEvent('lanes-2');
    const run = async () => {
      // A run whose stored progress moved under it fails; the queue retries it from the stored progress.
      for (let attempt = 0; attempt < 10; attempt++) {
        try {
          return await new FanOutEvent(f.events, { chunkSize: 300, laneCount: 3 }).execute(eventId);
        } catch (error) {
          expect((error as Error).message).toMatch(/moved on by another run/);
        }
      }
      throw new Error('fan-out never finished');
    };
    await Promise.all([run(), run(), run()]);
    expect(await f.outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });

  it('writes a chunk again, skipping them, when recipients of a topic-only trigger have a notification already', async () => {
    // No direct recipients: chunks are inserted without a conflict check. u3 and u4 have their
    // notifications as another run's committed chunk would have left them: the chunk holding them is
    // refused by the unique (event, subscriber) index, then written again skipping them.
    const eventId = await f.fanningOutEvent('lanes-topic-only', [], { lanes: wholeRange(), direct: false });
    expect((await f.events.loadFanout(eventId))!.directRecipients).toBe(false);
    await f.database.db.pool.query(
      `INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id)
       SELECT e.environment_id, e.id, e.workflow_id, s.id, e.transaction_id FROM events e, subscribers s WHERE e.id = $1 AND s.subscriber_id IN ('u3', 'u4')`,
      [eventId],
    );
    const result = await new FanOutEvent(f.events, { chunkSize: 1_000, laneCount: 3 }).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS - 2);
    expect(await f.outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });

  it('splits a topic larger than a chunk before its first chunk, so every lane starts at once', async () => {
    const eventId = await f.fanningOutEvent('lanes-early');
    const first = (await f.events.loadFanout(eventId))!;
    const [lane] = first.lanes;
    // The probe counts subscriptions in the lane's range: the whole topic, then ranges holding none.
    expect(await f.events.fanoutExceeds(first, lane, SUBSCRIBERS - 1)).toBe(true);
    expect(await f.events.fanoutExceeds(first, lane, SUBSCRIBERS)).toBe(false);
    expect(await f.events.fanoutExceeds(first, { ...lane, after: lane.until }, 0)).toBe(false);
    // Every candidate read and chunk written, in order, through the real repository.
    const calls: string[] = [];
    const recording: EventRepository = {
      findWorkflow: (environmentId, identifier) => f.events.findWorkflow(environmentId, identifier),
      accept: (acceptance, runInline) => f.events.accept(acceptance, runInline),
      loadFanout: (id) => f.events.loadFanout(id),
      fanoutExceeds: (event, l, count) => f.events.fanoutExceeds(event, l, count),
      fanoutCandidates(event, l, limit) {
        calls.push(`read ${l.until === LAST_UUID && l.after === FIRST_UUID ? 'whole' : 'lane'}`);
        return f.events.fanoutCandidates(event, l, limit);
      },
      commitFanoutChunk(event, accepted, progress, inline) {
        calls.push('split' in progress ? `split ${progress.split.length} with ${accepted.length}` : `chunk of ${accepted.length}`);
        return f.events.commitFanoutChunk(event, accepted, progress, inline);
      },
    };
    const result = await new FanOutEvent(recording, { chunkSize: 1_000, laneCount: 3 }).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS);
    // The split is committed alone, before anything is read; every read is of a lane.
    expect(calls[0]).toBe('split 3 with 0');
    expect(calls.slice(1).filter((c) => c.startsWith('read')).every((c) => c === 'read lane')).toBe(true);
    const after = await f.outcome(eventId);
    expect(after).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
    expect(after.lanes).toHaveLength(3);
  });

  it('still splits after a first chunk that fills, when the probe found no more than a chunk', async () => {
    // Exactly a chunk of subscriptions: not more than a chunk, so no split up front; the first chunk
    // then fills, and the rest of the range is split as before (its lanes find nobody left).
    const eventId = await f.fanningOutEvent('lanes-exact');
    const result = await new FanOutEvent(f.events, { chunkSize: SUBSCRIBERS, laneCount: 3 }).execute(eventId);
    expect(result.notifications).toBe(SUBSCRIBERS);
    const after = await f.outcome(eventId);
    expect(after).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
    expect(after.lanes).toHaveLength(3);
  });

  it('leaves a small topic as one lane', async () => {
    const eventId = await f.fanningOutEvent('lanes-3');
    await new FanOutEvent(f.events, { chunkSize: 5_000, laneCount: 3 }).execute(eventId);
    const after = await f.outcome(eventId);
    expect(after).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS });
    expect(after.lanes).toHaveLength(1);
  });

  it('refuses the chunk of a run that another run has overtaken, committing nothing', async () => {
    const eventId = await f.fanningOutEvent('lanes-4');
    const first = (await f.events.loadFanout(eventId))!;
    const overtaken = (await f.events.loadFanout(eventId))!;
    const [lane] = first.lanes;
    const chunk = await f.events.fanoutCandidates(first, lane, 10);
    const moved = { ...lane, after: chunk[9].subscriberId };
    expect(await f.events.commitFanoutChunk(first, chunk, { from: lane, index: 0, lane: moved }, [])).toHaveLength(10);
    // The other run read the same chunk from the same start: its progress would move the lane back.
    await expect(f.events.commitFanoutChunk(overtaken, chunk, { from: lane, index: 0, lane: moved }, [])).rejects.toThrow(/moved on by another run/);
    const stored = await f.database.db.pool.query('SELECT fanout_cursor FROM events WHERE id = $1', [eventId]);
    expect(stored.rows[0].fanout_cursor.lanes).toEqual([moved]);
    await new FanOutEvent(f.events, { chunkSize: 1_000, laneCount: 3 }).execute(eventId);
    expect(await f.outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });

  it('resumes a fan-out stored with the single cursor of earlier versions', async () => {
    const eventId = await f.fanningOutEvent('lanes-5', [], { after: null });
    await new FanOutEvent(f.events, { chunkSize: 1_000, laneCount: 3 }).execute(eventId);
    expect(await f.outcome(eventId)).toMatchObject({ status: 'fanned_out', notifications: SUBSCRIBERS, distinct: SUBSCRIBERS });
  });
});
