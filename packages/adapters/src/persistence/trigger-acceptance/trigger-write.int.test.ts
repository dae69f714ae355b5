import type { RunInline } from '@herald/domain';
import type { Pool } from 'pg';
import { describe, expect, it } from 'vitest';
import { STEPS_QUEUE } from '../../queue/pg-boss-delivery-queue';
import { acceptedInBatch, isAccept } from '../../testing/recording-pools';
import { greetJobs, useTriggerAcceptanceFixture } from '../../testing/trigger-acceptance-fixture';
import { TriggerAcceptor } from './trigger-acceptor';
import { testChannelCipher } from '../../testing/test-channel-cipher';

const fx = useTriggerAcceptanceFixture();
const { database, acceptance, trigger, runInline, rows, notification, jobsOf, queuedIn, recordingPool, inOneBatch, expectLeftToJobs } = fx;

describe('TriggerAcceptor: the write, with the first in-app step run inline', () => {
  it('writes the step with the event for existing recipients: their message, no job row, the next step queued; a new subscriber gets every job', async () => {
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const outcome = await acceptor.accept(trigger(fx.greet, 'inline-1', ['grace', 'newcomer']), runInline(fx.greet));
    expect(outcome).toMatchObject({ accepted: true, notifications: 2 });
    expect(outcome.accepted && outcome.inline.map((o) => [o.job.subscriber.subscriberId, o.status])).toEqual([['grace', 'completed']]);

    const grace = await notification('inline-1', 'grace');
    // Its one detail (the message stored in the inbox) is not stored: the activity log derives it.
    expect(grace.inline).toMatchObject({ stepId: 'inbox', type: 'in_app', position: 0, status: 'completed', providerId: 'herald', details: null });
    expect(await jobsOf(grace.id)).toEqual([{ step_id: 'after', status: 'queued' }]);
    expect(await queuedIn(grace.id)).toBe(1);
    const [message] = await rows<{ body: string; job_id: string; channel: string }>('SELECT body, job_id, channel FROM messages WHERE notification_id = $1', [grace.id]);
    expect(message).toEqual({ body: 'Hi Grace, order 7', job_id: grace.inline!.id, channel: 'in_app' });

    await expectLeftToJobs('inline-1', 'newcomer', greetJobs);
  });

  it('leaves no fx.queue work when every recipient ran the only step inline, and a reused transactionId writes nothing', async () => {
    const hello = acceptance('x').workflow;
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const before = (await rows<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1', [STEPS_QUEUE]))[0].n;
    const outcomes = await Promise.all(['a', 'b', 'c'].map((t) => acceptor.accept(trigger(hello, `inline-only-${t}`, ['grace', 'linus']), runInline(hello))));
    expect(outcomes.map((o) => o.accepted && o.inline.length)).toEqual([2, 2, 2]);
    expect((await rows<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1', [STEPS_QUEUE]))[0].n).toBe(before);
    const written = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages m JOIN notifications n ON n.id = m.notification_id
       WHERE n.transaction_id LIKE 'inline-only-%' AND m.job_id = n.inline_job_id AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = n.id)`,
    );
    expect(written[0].n).toBe(6);

    expect(await acceptor.accept(trigger(hello, 'inline-only-a', ['grace']), runInline(hello))).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect((await rows<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE transaction_id = 'inline-only-a'`))[0].n).toBe(2);
  });

  it('records a step skipped by the preferences, and runs a step on a recipient as the trigger\'s object leaves it', async () => {
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const before = (await rows<{ version: number }>(`SELECT version FROM subscribers WHERE subscriber_id = 'linus'`))[0].version;
    const outcome = await acceptor.accept(
      trigger(fx.greet, 'inline-2', ['quiet', 'linus'], [{ subscriberId: 'linus', firstName: 'Torvalds', data: { team: 'kernel' } }]),
      runInline(fx.greet),
    );
    expect(outcome.accepted && outcome.inline.map((o) => [o.job.subscriber.subscriberId, o.status]).sort()).toEqual([
      ['linus', 'completed'],
      ['quiet', 'skipped'],
    ]);
    const quiet = await notification('inline-2', 'quiet');
    expect(quiet.inline).toMatchObject({ status: 'skipped', details: [{ detail: 'skipped: preference in_app disabled by subscriber (global)' }] });
    expect(await jobsOf(quiet.id)).toEqual([{ step_id: 'after', status: 'queued' }]);
    expect(await rows('SELECT 1 FROM messages WHERE notification_id = $1', [quiet.id])).toEqual([]);
    // The step saw the subscriber as the upsert committed with the trigger left it.
    const linus = await notification('inline-2', 'linus');
    expect(linus.inline).toMatchObject({ status: 'completed' });
    expect(await jobsOf(linus.id)).toEqual([{ step_id: 'after', status: 'queued' }]);
    expect(await rows('SELECT body FROM messages WHERE notification_id = $1', [linus.id])).toEqual([{ body: 'Hi Torvalds, order 7' }]);
    const seen = outcome.accepted ? outcome.inline.find((o) => o.job.subscriber.subscriberId === 'linus')!.job.subscriber : undefined;
    const [stored] = await rows<{ first_name: string; data: unknown; version: number }>(`SELECT first_name, data, version FROM subscribers WHERE subscriber_id = 'linus'`);
    expect(stored).toEqual({ first_name: 'Torvalds', data: { team: 'kernel' }, version: before + 1 });
    expect(seen).toMatchObject({ firstName: 'Torvalds', lastName: null, data: { team: 'kernel' }, version: before + 1 });
  });

  it('answers accepted for inline triggers whose statement committed though its reply was lost', async () => {
    const hello = acceptance('x').workflow;
    let lost = false;
    const pool = Object.create(database.db.pool) as Pool;
    pool.query = (async (config: { name?: string; values?: unknown[] }, ...rest: unknown[]) => {
      const result = await (database.db.pool.query as (...args: unknown[]) => Promise<unknown>)(config, ...rest);
      if (isAccept(config?.name) && acceptedInBatch(config.values!) > 1 && !lost) {
        lost = true;
        throw new Error('Connection terminated unexpectedly');
      }
      return result;
    }) as unknown as Pool['query'];
    pool.connect = (() => database.db.pool.connect()) as Pool['connect'];
    const acceptor = new TriggerAcceptor(pool, fx.queue, testChannelCipher);
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => acceptor.accept(trigger(hello, `inline-lost-${i}`, ['grace']), runInline(hello))));
    expect(lost).toBe(true);
    expect(outcomes.every((o) => o.accepted)).toBe(true);
    // The observers hear every message written, the ones the lost reply was about included.
    expect(outcomes.map((o) => o.accepted && o.inline.length)).toEqual(Array(12).fill(1));
    const counts = await rows<{ events: number; messages: number }>(
      `SELECT (SELECT count(*)::int FROM events WHERE transaction_id LIKE 'inline-lost-%') AS events,
              (SELECT count(*)::int FROM messages WHERE transaction_id LIKE 'inline-lost-%') AS messages`,
    );
    expect(counts[0]).toEqual({ events: 12, messages: 12 });
  });

  it('renders with what another trigger of the batch upserts, and falls back to jobs when the step engine throws', async () => {
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const failing: RunInline = async () => {
      throw new Error('engine blew up');
    };
    // Four triggers take every transaction slot, so the next three are accepted as one batch.
    const [renamer, reader, broken] = await inOneBatch(acceptor, 'inline-3', () => [
        acceptor.accept(trigger(fx.greet, 'inline-3a', ['linus'], [{ subscriberId: 'linus', firstName: 'Renamed' }]), runInline(fx.greet)),
        acceptor.accept(trigger(fx.greet, 'inline-3b', ['linus']), runInline(fx.greet)),
        acceptor.accept(trigger(fx.greet, 'inline-3c', ['grace']), failing),
    ]);
    expect([renamer, reader, broken].map((o) => o.accepted && o.inline.length)).toEqual([1, 1, 0]);
    // The trigger naming linus by id alone sees him as the other trigger's object leaves him too.
    for (const transactionId of ['inline-3a', 'inline-3b']) {
      const n = await notification(transactionId, 'linus');
      expect(await rows('SELECT body FROM messages WHERE notification_id = $1', [n.id])).toEqual([{ body: 'Hi Renamed, order 7' }]);
    }
    const n = await notification('inline-3c', 'grace');
    expect(n.inline).toBeNull();
    expect((await jobsOf(n.id)).map((j) => j.status)).toEqual(['queued', 'pending']);
    expect(await queuedIn(n.id)).toBe(1);
  });

  it('writes a trigger whose recipient object changes nothing in one statement, as one naming its recipient by id', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, email) VALUES ($1, 'steady', 'Steady', 'steady@example.com')`, [fx.env]);
    const recording = recordingPool();
    const { names } = recording;
    const acceptor = new TriggerAcceptor(recording, fx.queue, testChannelCipher);
    const [{ version: before }] = await rows<{ version: number }>(`SELECT version FROM subscribers WHERE subscriber_id = 'steady'`);

    const same = await acceptor.accept(trigger(hello, 'inline-11a', ['steady'], [{ subscriberId: 'steady', firstName: 'Steady', email: 'steady@example.com' }]), runInline(hello));
    expect(same.accepted && same.inline.map((o) => [o.status, o.job.subscriber.firstName])).toEqual([['completed', 'Steady']]);
    expect({ transactions: recording.transactions, names }).toEqual({ transactions: 0, names: ['herald-inline-recipients', 'herald-accept-triggers'] });
    expect(await rows(`SELECT version FROM subscribers WHERE subscriber_id = 'steady'`)).toEqual([{ version: before }]);

    // An object that changes the subscriber is still applied with the trigger, in its transaction.
    const renamed = await acceptor.accept(trigger(hello, 'inline-11b', ['steady'], [{ subscriberId: 'steady', firstName: 'Renamed' }]), runInline(hello));
    expect(renamed.accepted && renamed.inline.map((o) => [o.status, o.job.subscriber.firstName])).toEqual([['completed', 'Renamed']]);
    expect(recording.transactions).toBe(1);
    expect(await rows(`SELECT first_name, version FROM subscribers WHERE subscriber_id = 'steady'`)).toEqual([{ first_name: 'Renamed', version: before + 1 }]);
    expect((await rows<{ body: string }>(`SELECT body FROM messages WHERE transaction_id = 'inline-11b'`)).length).toBe(1);
  });

  it('runs inline for a recipient named by an object that sets nothing but its subscriberId', async () => {
    const hello = acceptance('x').workflow;
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const outcome = await acceptor.accept(trigger(hello, 'inline-4', ['grace'], [{ subscriberId: 'grace' }]), runInline(hello));
    expect(outcome.accepted && outcome.inline.map((o) => o.job.subscriber.subscriberId)).toEqual(['grace']);
    const grace = await notification('inline-4', 'grace');
    expect(grace.inline).toMatchObject({ status: 'completed' });
    expect(await jobsOf(grace.id)).toEqual([]);
  });
});
