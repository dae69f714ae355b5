import type { DeliveryWorkflow, RunInline } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { helloJobs, useTriggerAcceptanceFixture } from '../../testing/trigger-acceptance-fixture';
import { TriggerAcceptor } from './trigger-acceptor';
import { testChannelCipher } from '../../testing/test-channel-cipher';

const fx = useTriggerAcceptanceFixture();
const { database, acceptance, trigger, runInline, rows, notification, jobsOf, recordingPool, inOneBatch, expectLeftToJobs, between } = fx;

describe('TriggerAcceptor: the subscriber objects of a batch', () => {
  /**
   * The workflow's inline step, run after another request deletes subscriber `subscriberId` and a third
   * creates it again (first name Other), committing only once the accept statement waits for it.
   */
  const recreatedMeanwhile = (workflow: DeliveryWorkflow, subscriberId: string) => {
    let committed: Promise<unknown> = Promise.resolve();
    const run: RunInline = async (recipients, source) => {
      const { pool } = database.db;
      await pool.query(`DELETE FROM subscribers WHERE subscriber_id = $1`, [subscriberId]);
      const other = await pool.connect();
      await other.query('BEGIN');
      await other.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, $2, 'Other')`, [fx.env, subscriberId]);
      committed = new Promise((resolve) => setTimeout(resolve, 300)).then(() => other.query('COMMIT')).finally(() => other.release());
      return runInline(workflow)(recipients, source);
    };
    return { run, committed: () => committed };
  };

  it('applies every object a batch gives for one subscriber, in order, and runs the step on the result', async () => {
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    await database.db.pool.query(
      `INSERT INTO subscribers (environment_id, subscriber_id, first_name, last_name, phone, data) VALUES ($1, 'twice', 'Twice', 'Stored', '+100', '{"a": 1}')`,
      [fx.env],
    );
    const outcomes = await inOneBatch(acceptor, 'inline-5', () => [
        acceptor.accept(trigger(fx.greet, 'inline-5x', ['twice'], [{ subscriberId: 'twice', email: 'twice@example.com', firstName: 'First', data: null }]), runInline(fx.greet)),
        acceptor.accept(trigger(fx.greet, 'inline-5y', ['twice'], [{ subscriberId: 'twice', firstName: 'Second', lastName: undefined, phone: null }]), runInline(fx.greet)),
        acceptor.accept(trigger(fx.greet, 'inline-5z', ['twice'], [{ subscriberId: 'twice' }]), runInline(fx.greet)),
    ]);
    // As if the triggers had come one after the other: the later one wins where both set a field, a
    // field left out stays, null clears.
    expect(await rows(`SELECT first_name, last_name, email, phone, data FROM subscribers WHERE subscriber_id = 'twice'`)).toEqual([
      { first_name: 'Second', last_name: 'Stored', email: 'twice@example.com', phone: null, data: null },
    ]);
    expect(outcomes.map((o) => o.accepted && o.inline.map((i) => i.status))).toEqual([['completed'], ['completed'], ['completed']]);
    for (const transactionId of ['inline-5x', 'inline-5y', 'inline-5z']) {
      const n = await notification(transactionId, 'twice');
      expect(await rows('SELECT body FROM messages WHERE notification_id = $1', [n.id])).toEqual([{ body: 'Hi Second, order 7' }]);
    }
  });

  it('merges the channels of every object a batch gives for one subscriber, leaving those recipients to their jobs', async () => {
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'pushed')`, [fx.env]);
    const phone = (token: string, lastName: string) => ({
      subscriberId: 'pushed',
      lastName,
      channels: [{ providerId: 'fcm', _integrationId: '00000000-0000-4000-8000-000000000001', credentials: { deviceTokens: [token] } }],
    });
    const outcomes = await inOneBatch(acceptor, 'inline-7', () => [
        acceptor.accept(trigger(fx.greet, 'inline-7x', ['pushed'], [phone('token-1', 'One')]), runInline(fx.greet)),
        acceptor.accept(trigger(fx.greet, 'inline-7y', ['pushed'], [phone('token-2', 'Two')]), runInline(fx.greet)),
    ]);
    expect(outcomes.map((o) => o.accepted && o.inline.length)).toEqual([0, 0]);
    const [stored] = await rows<{ last_name: string; channels: { credentials: { deviceTokens: string[] } }[] }>(
      `SELECT last_name, channels FROM subscribers WHERE subscriber_id = 'pushed'`,
    );
    expect(stored.last_name).toBe('Two');
    // Stored sealed, each token on its own, so the merge still collects them value by value.
    expect(stored.channels.map((c) => c.credentials.deviceTokens)).toEqual([['token-1', 'token-2'].map((t) => testChannelCipher.sealValue(t))]);
    for (const transactionId of ['inline-7x', 'inline-7y']) expect((await notification(transactionId, 'pushed')).inline).toBeNull();
  });

  it("applies an accepted trigger's object that a refused duplicate's object in the same batch would undo", async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'revert', 'Old')`, [fx.env]);
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    expect((await acceptor.accept(trigger(hello, 'revert-dup', ['revert'], [{ subscriberId: 'revert', firstName: 'Old' }]), runInline(hello))).accepted).toBe(true);
    // Together: the new trigger renames the subscriber; the repeated one (refused: its transactionId is
    // stored) would set the old name back. Folded, the two leave the subscriber as stored.
    const [renamed, repeated] = await inOneBatch(acceptor, 'revert', () => [
      acceptor.accept(trigger(hello, 'revert-new', ['revert'], [{ subscriberId: 'revert', firstName: 'New' }]), runInline(hello)),
      acceptor.accept(trigger(hello, 'revert-dup', ['revert'], [{ subscriberId: 'revert', firstName: 'Old' }]), runInline(hello)),
    ]);
    expect(renamed.accepted).toBe(true);
    expect(repeated).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(await rows(`SELECT first_name FROM subscribers WHERE subscriber_id = 'revert'`)).toEqual([{ first_name: 'New' }]);
  });

  it('creates a recipient deleted while its step ran as its object makes it, though the object changed nothing when read', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, email) VALUES ($1, 'gone', 'Gone', 'gone@example.com')`, [fx.env]);
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const deleting: RunInline = async (recipients, accepted) => {
      await database.db.pool.query(`DELETE FROM subscribers WHERE subscriber_id = 'gone'`);
      return runInline(hello)(recipients, accepted);
    };
    const outcome = await acceptor.accept(trigger(hello, 'gone-1', ['gone'], [{ subscriberId: 'gone', firstName: 'Gone', email: 'gone@example.com' }]), deleting);
    expect(outcome).toMatchObject({ accepted: true, notifications: 1 });
    expect(await rows(`SELECT first_name, email FROM subscribers WHERE subscriber_id = 'gone'`)).toEqual([{ first_name: 'Gone', email: 'gone@example.com' }]);
    // Created again after its step ran: its notification has every job instead.
    const gone = await notification('gone-1', 'gone');
    expect(gone.inline).toBeNull();
    expect((await jobsOf(gone.id)).map((j) => j.status)).toEqual(['queued']);
  });

  it('applies an object that left its recipient as stored when read, if another write changed the row before the statement', async () => {
    const hello = acceptance('x').workflow;
    const { pool: direct } = database.db;
    await direct.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, last_name) VALUES ($1, 'raced', 'Mix', 'Smith')`, [fx.env]);
    const acceptor = new TriggerAcceptor(direct, fx.queue, testChannelCipher);
    const writing = between(hello, `UPDATE subscribers SET first_name = 'Other', last_name = 'Jones' WHERE subscriber_id = 'raced'`);
    // Read just now, nothing remembered: the object leaves the row as stored, so no upsert follows.
    const outcome = await acceptor.accept(trigger(hello, 'raced-1', ['raced'], [{ subscriberId: 'raced', firstName: 'Mix' }]), writing);
    expect(outcome).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect(await rows(`SELECT first_name, last_name FROM subscribers WHERE subscriber_id = 'raced'`)).toEqual([{ first_name: 'Mix', last_name: 'Jones' }]);
    await expectLeftToJobs('raced-1', 'raced', helloJobs);
  });

  it("creates a remembered recipient deleted since with the object of an accepted trigger only", async () => {
    const hello = acceptance('x').workflow;
    const object = (subscriberId: string) => ({ subscriberId, firstName: 'Given', lastName: 'Object' });
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'vanished'), ($1, 'vanished2')`, [fx.env]);
    const acceptor = new TriggerAcceptor(recordingPool(), fx.queue, testChannelCipher);
    for (const id of ['vanished', 'vanished2']) for (const t of ['a', 'b']) await acceptor.accept(trigger(hello, `${id}-${t}`, [id], [object(id)]), runInline(hello));
    await database.db.pool.query(`DELETE FROM subscribers WHERE subscriber_id IN ('vanished', 'vanished2')`);
    const stored = (id: string) => rows(`SELECT first_name, last_name FROM subscribers WHERE subscriber_id = $1`, [id]);
    // A refused duplicate names it with its object; an accepted trigger gives the same object (as an actor does) and names another.
    const [duplicate, giver] = await inOneBatch(acceptor, 'vanished-batch', () => [
      acceptor.accept(trigger(hello, 'vanished-a', ['vanished'], [object('vanished')]), runInline(hello)),
      acceptor.accept({ ...trigger(hello, 'vanished-c', ['grace']), upserts: [object('vanished')] }, runInline(hello)),
    ]);
    expect([duplicate.accepted, giver.accepted]).toEqual([false, true]);
    expect(await stored('vanished')).toEqual([{ first_name: 'Given', last_name: 'Object' }]);
    // A refused duplicate gives the object; an accepted trigger names the recipient by id: created without it.
    const [duplicate2, named] = await inOneBatch(acceptor, 'vanished2-batch', () => [
      acceptor.accept(trigger(hello, 'vanished2-a', ['vanished2'], [object('vanished2')]), runInline(hello)),
      acceptor.accept(trigger(hello, 'vanished2-c', ['vanished2']), runInline(hello)),
    ]);
    expect([duplicate2.accepted, named.accepted]).toEqual([false, true]);
    expect(await stored('vanished2')).toEqual([{ first_name: null, last_name: null }]);
  });

  it("applies an accepted trigger's object to a recipient deleted and created again by others while the statement ran, and only that", async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(
      `INSERT INTO subscribers (environment_id, subscriber_id, first_name, email) VALUES ($1, 'reborn', 'Given', 'given@example.com'), ($1, 'reborn2', 'Named', NULL)`,
      [fx.env],
    );
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const stored = (id: string) => rows(`SELECT first_name, email, version FROM subscribers WHERE subscriber_id = $1`, [id]);
    // Given an object that leaves the row as stored when read (so no upsert follows). The trigger came
    // after the other request's create (version 0): its object applies on top of it.
    const object = { subscriberId: 'reborn', firstName: 'Given', email: 'given@example.com' };
    const racing = recreatedMeanwhile(hello, 'reborn');
    const outcome = await acceptor.accept(trigger(hello, 'reborn-1', ['reborn'], [object]), racing.run);
    await racing.committed();
    expect(outcome).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect(await stored('reborn')).toEqual([{ first_name: 'Given', email: 'given@example.com', version: 1 }]);
    await expectLeftToJobs('reborn-1', 'reborn', helloJobs);
    // Given an object setting channels: merged into the other request's row.
    const phone = { providerId: 'fcm', _integrationId: '00000000-0000-4000-8000-000000000003', credentials: { deviceTokens: ['token-3'] } };
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, channels) VALUES ($1, 'reborn3', 'Given', $2)`, [fx.env, JSON.stringify([phone])]);
    const withChannels = recreatedMeanwhile(hello, 'reborn3');
    const pushed = await acceptor.accept(trigger(hello, 'reborn3-1', ['reborn3'], [{ subscriberId: 'reborn3', firstName: 'Given', channels: [phone] }]), withChannels.run);
    await withChannels.committed();
    expect(pushed).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect(await rows(`SELECT first_name, channels, version FROM subscribers WHERE subscriber_id = 'reborn3'`)).toEqual([{ first_name: 'Given', channels: testChannelCipher.seal([phone]), version: 1 }]);
    // Named by id: the other request's row stays as it made it.
    const byId = recreatedMeanwhile(hello, 'reborn2');
    const named = await acceptor.accept(trigger(hello, 'reborn2-1', ['reborn2']), byId.run);
    await byId.committed();
    expect(named).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect(await stored('reborn2')).toEqual([{ first_name: 'Other', email: null, version: 0 }]);
    await expectLeftToJobs('reborn2-1', 'reborn2', helloJobs);
  });

  it('applies an object setting channels that left its recipient as stored to a row changed meanwhile, merging them, in one statement', async () => {
    const hello = acceptance('x').workflow;
    const { pool } = database.db;
    const phone = { providerId: 'fcm', _integrationId: '00000000-0000-4000-8000-000000000002', credentials: { deviceTokens: ['token-1'] } };
    await pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, channels) VALUES ($1, 'handset', 'Hand', $2)`, [fx.env, JSON.stringify(testChannelCipher.seal([phone]))]);
    const recording = recordingPool();
    const acceptor = new TriggerAcceptor(recording, fx.queue, testChannelCipher);
    // Another request drops the device and renames the subscriber after the step read it; the trigger's
    // object, which left the row as stored when read, comes after it: its device is there again.
    const writing = between(hello, `UPDATE subscribers SET channels = '[]', last_name = 'Since' WHERE subscriber_id = 'handset'`);
    const outcome = await acceptor.accept(trigger(hello, 'handset-1', ['handset'], [{ subscriberId: 'handset', firstName: 'Hand', channels: [phone] }]), writing);
    expect(outcome).toMatchObject({ accepted: true, notifications: 1, inline: [] });
    expect({ transactions: recording.transactions, names: recording.names }).toEqual({ transactions: 0, names: ['herald-inline-recipients', 'herald-accept-triggers-channels'] });
    expect(await rows(`SELECT first_name, last_name, channels FROM subscribers WHERE subscriber_id = 'handset'`)).toEqual([{ first_name: 'Hand', last_name: 'Since', channels: testChannelCipher.seal([phone]) }]);
    await expectLeftToJobs('handset-1', 'handset', helloJobs);
    // Given again and again, the object is remembered with the row it leaves as stored: no read, no upsert.
    recording.names.length = 0;
    for (const t of ['handset-2', 'handset-3', 'handset-4']) {
      const again = await acceptor.accept(trigger(hello, t, ['handset'], [{ subscriberId: 'handset', firstName: 'Hand', channels: [phone] }]), runInline(hello));
      expect(again.accepted && again.inline.map((o) => o.status)).toEqual(['completed']);
    }
    expect({ transactions: recording.transactions, reads: recording.reads }).toEqual({ transactions: 0, reads: 1 });
  });
});
