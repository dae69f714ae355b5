import type { RunInline } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { poolRecordingBatches } from '../../testing/recording-pools';
import { greetJobs, helloJobs, useTriggerAcceptanceFixture } from '../../testing/trigger-acceptance-fixture';
import { TriggerAcceptor } from './trigger-acceptor';
import { testChannelCipher } from '../../testing/test-channel-cipher';

const fx = useTriggerAcceptanceFixture();
const { database, acceptance, trigger, runInline, rows, notification, jobsOf, recordingPool, inOneBatch, expectLeftToJobs, between } = fx;

describe('TriggerAcceptor: what an inline run saw, checked when written', () => {
  it('accepts a batch again one by one when a step saw an object whose trigger was a duplicate', async () => {
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'mary', 'Mary')`, [fx.env]);
    expect(await acceptor.accept(trigger(fx.greet, 'inline-6a', ['grace']), runInline(fx.greet))).toMatchObject({ accepted: true });
    const [duplicate, reader] = await inOneBatch(acceptor, 'inline-6', () => [
        acceptor.accept(trigger(fx.greet, 'inline-6a', ['mary'], [{ subscriberId: 'mary', firstName: 'Ghost' }]), runInline(fx.greet)),
        acceptor.accept(trigger(fx.greet, 'inline-6b', ['mary']), runInline(fx.greet)),
    ]);
    expect(duplicate).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(reader.accepted && reader.inline.map((o) => o.status)).toEqual(['completed']);
    // The duplicate changed nothing, and the other trigger rendered what is stored.
    expect(await rows(`SELECT first_name FROM subscribers WHERE subscriber_id = 'mary'`)).toEqual([{ first_name: 'Mary' }]);
    const mary = await notification('inline-6b', 'mary');
    expect(await rows('SELECT body FROM messages WHERE notification_id = $1', [mary.id])).toEqual([{ body: 'Hi Mary, order 7' }]);
    expect(await rows(`SELECT 1 FROM notifications WHERE transaction_id = 'inline-6a' AND subscriber_id = (SELECT id FROM subscribers WHERE subscriber_id = 'mary')`)).toEqual([]);
  });

  it('keeps a batch together when only a duplicate\'s own step saw its object', async () => {
    const statements: number[] = [];
    const acceptor = new TriggerAcceptor(poolRecordingBatches(database.db.pool, statements), fx.queue, testChannelCipher);
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'resent', 'Resent')`, [fx.env]);
    expect(await acceptor.accept(trigger(fx.greet, 'inline-8a', ['resent'], [{ subscriberId: 'resent', firstName: 'Once' }]), runInline(fx.greet))).toMatchObject({ accepted: true });
    statements.length = 0;
    const [again, other] = await inOneBatch(acceptor, 'inline-8', () => [
        acceptor.accept(trigger(fx.greet, 'inline-8a', ['resent'], [{ subscriberId: 'resent', firstName: 'Twice' }]), runInline(fx.greet)),
        acceptor.accept(trigger(fx.greet, 'inline-8b', ['grace']), runInline(fx.greet)),
    ]);
    expect(again).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(other.accepted && other.inline.map((o) => o.status)).toEqual(['completed']);
    // The two were accepted by one statement, not again one by one, and the duplicate changed nothing.
    expect(statements).toHaveLength(1);
    expect(await rows(`SELECT first_name FROM subscribers WHERE subscriber_id = 'resent'`)).toEqual([{ first_name: 'Once' }]);
  });

  it('runs the step again on a subscriber that changed while it ran, and leaves it to its job if it changes again', async () => {
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'busy', 'Busy'), ($1, 'busier', 'Busier')`, [fx.env]);
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    // Another request changes the subscriber after the step read it, before the trigger commits: on
    // the first `times` runs of the step.
    const racing = (subscriberId: string, times: number): RunInline => {
      let runs = 0;
      return async (recipients, accepted) => {
        if (runs++ < times) await database.db.pool.query(`UPDATE subscribers SET last_name = 'Elsewhere ' || $2, version = version + 1 WHERE subscriber_id = $1`, [subscriberId, runs]);
        return runInline(fx.greet)(recipients, accepted);
      };
    };
    const once = await acceptor.accept(trigger(fx.greet, 'inline-9a', ['busy'], [{ subscriberId: 'busy', firstName: 'Renamed' }]), racing('busy', 1));
    // Run again on what is stored now: the other request's change and the trigger's object.
    expect(once.accepted && once.inline.map((o) => [o.status, o.job.subscriber.firstName, o.job.subscriber.lastName])).toEqual([['completed', 'Renamed', 'Elsewhere 1']]);
    expect(await rows(`SELECT first_name, last_name FROM subscribers WHERE subscriber_id = 'busy'`)).toEqual([{ first_name: 'Renamed', last_name: 'Elsewhere 1' }]);

    const twice = await acceptor.accept(trigger(fx.greet, 'inline-9b', ['busier'], [{ subscriberId: 'busier', firstName: 'Renamed' }]), racing('busier', 2));
    expect(twice).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    const busier = await notification('inline-9b', 'busier');
    expect(busier.inline).toBeNull();
    expect((await jobsOf(busier.id)).map((j) => j.status)).toEqual(['queued', 'pending']);
    expect(await rows(`SELECT first_name, last_name FROM subscribers WHERE subscriber_id = 'busier'`)).toEqual([{ first_name: 'Renamed', last_name: 'Elsewhere 2' }]);
    expect((await rows<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE transaction_id LIKE 'inline-9%'`))[0].n).toBe(2);
  });

  it("keeps the step's run when only the subscriber's presence changed while it ran", async () => {
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'present', 'Present')`, [fx.env]);
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    let runs = 0;
    // An Inbox connects after the step read the subscriber, before the trigger commits (as setOnline writes it).
    const connecting: RunInline = async (recipients, accepted) => {
      if (runs++ === 0) await database.db.pool.query(`UPDATE subscribers SET is_online = true, last_online_at = now(), version = version + 1 WHERE subscriber_id = 'present'`);
      return runInline(fx.greet)(recipients, accepted);
    };
    const outcome = await acceptor.accept(trigger(fx.greet, 'inline-10', ['present'], [{ subscriberId: 'present', firstName: 'Renamed' }]), connecting);
    expect(runs).toBe(1);
    expect(outcome.accepted && outcome.inline.map((o) => [o.status, o.job.subscriber.firstName])).toEqual([['completed', 'Renamed']]);
    expect(await rows(`SELECT first_name, is_online FROM subscribers WHERE subscriber_id = 'present'`)).toEqual([{ first_name: 'Renamed', is_online: true }]);
  });

  it('leaves a recipient to its job when its row or its preferences change between the read and the write', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'racer', 'Racer'), ($1, 'racer2', 'Racer')`, [fx.env]);
    const pool = recordingPool();
    const acceptor = new TriggerAcceptor(pool, fx.queue, testChannelCipher);
    // Another request commits after the step read its recipient, before the trigger's write.
    const racing = await acceptor.accept(trigger(hello, 'race-1', ['racer']), between(hello, `UPDATE subscribers SET last_name = 'Late' WHERE subscriber_id = 'racer'`));
    expect(racing).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    await expectLeftToJobs('race-1', 'racer', helloJobs);
    // Not remembered as the read saw it: read again.
    const next = await acceptor.accept(trigger(hello, 'race-2', ['racer']), runInline(hello));
    expect(next.accepted && next.inline.map((o) => [o.status, o.job.subscriber.lastName])).toEqual([['completed', 'Late']]);
    expect(pool.reads).toBe(2);

    // Seen as its object leaves it, the row is compared after the upsert (presence aside); its preferences here.
    const preferred = await acceptor.accept(
      trigger(fx.greet, 'race-3', ['racer2'], [{ subscriberId: 'racer2', firstName: 'Object' }]),
      between(
        fx.greet,
        `INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, enabled, channels)
         SELECT environment_id, id, NULL, true, '{"in_app": false}' FROM subscribers WHERE subscriber_id = 'racer2'`,
      ),
    );
    expect(preferred).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    await expectLeftToJobs('race-3', 'racer2', greetJobs);
    expect(await rows(`SELECT first_name FROM subscribers WHERE subscriber_id = 'racer2'`)).toEqual([{ first_name: 'Object' }]);
  });

  it('keeps the batch together when a remembered run it refused was on a row changed since', async () => {
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'steadfast', 'Steadfast')`, [fx.env]);
    const pool = recordingPool();
    const acceptor = new TriggerAcceptor(pool, fx.queue, testChannelCipher);
    const object = { subscriberId: 'steadfast', firstName: 'Steadfast' };
    for (const t of ['steadfast-1', 'steadfast-2']) await acceptor.accept(trigger(fx.greet, t, ['steadfast'], [object]), runInline(fx.greet));
    // Changed where the object sets nothing: its run is refused, and nothing is applied.
    await database.db.pool.query(`UPDATE subscribers SET last_name = 'Since' WHERE subscriber_id = 'steadfast'`);
    const accepts = pool.accepts;
    const outcome = await acceptor.accept(trigger(fx.greet, 'steadfast-3', ['steadfast'], [object]), runInline(fx.greet));
    expect(outcome).toMatchObject({ accepted: true, inline: [] });
    expect(pool.accepts - accepts).toBe(1);
    expect((await jobsOf((await notification('steadfast-3', 'steadfast')).id)).map((j) => j.status)).toEqual(['queued', 'pending']);
  });
});
