import type { DeliveryWorkflow } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { greetJobs, helloJobs, useTriggerAcceptanceFixture } from '../../testing/trigger-acceptance-fixture';
import { SqlEventRepository } from '../sql-event-repository';
import { TriggerAcceptor } from './trigger-acceptor';
import { testChannelCipher } from '../../testing/test-channel-cipher';

const fx = useTriggerAcceptanceFixture();
const { database, acceptance, trigger, runInline, rows, notification, bodyOf, recordingPool, inOneBatch, expectLeftToJobs, between } = fx;

describe('TriggerAcceptor: remembered recipients', () => {
  it('runs the step on a remembered recipient without reading it again, and leaves it to its jobs once any write changed the row', async () => {
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'kept', 'Kept')`, [fx.env]);
    const pool = recordingPool();
    const acceptor = new TriggerAcceptor(pool, fx.queue, testChannelCipher);
    const accept = async (transactionId: string) => {
      const outcome = await acceptor.accept(trigger(fx.greet, transactionId, ['kept']), runInline(fx.greet));
      return outcome.accepted ? outcome.inline.map((o) => [o.status, o.job.subscriber.firstName]) : outcome;
    };
    expect(await accept('remembered-1')).toEqual([['completed', 'Kept']]);
    expect(await accept('remembered-2')).toEqual([['completed', 'Kept']]);
    expect(pool.reads).toBe(1);
    expect(await bodyOf('remembered-2', 'kept')).toBe('Hi Kept, order 7');

    // A write that leaves the version as it was (none of Herald's do) still makes the row another.
    await database.db.pool.query(`UPDATE subscribers SET first_name = 'Changed' WHERE subscriber_id = 'kept'`);
    expect(await accept('remembered-3')).toEqual([]);
    await expectLeftToJobs('remembered-3', 'kept', greetJobs);
    expect(pool.reads).toBe(1);

    // Forgotten when its run was refused: read again, and run on the row as it is now.
    expect(await accept('remembered-4')).toEqual([['completed', 'Changed']]);
    expect(pool.reads).toBe(2);
    expect(await bodyOf('remembered-4', 'kept')).toBe('Hi Changed, order 7');
  });

  it("leaves a remembered recipient to its job once its preferences changed, and reads them again for the next trigger", async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'choosy', 'Choosy')`, [fx.env]);
    const pool = recordingPool();
    const acceptor = new TriggerAcceptor(pool, fx.queue, testChannelCipher);
    const accept = async (transactionId: string) => {
      const outcome = await acceptor.accept(trigger(hello, transactionId, ['choosy']), runInline(hello));
      return outcome.accepted ? outcome.inline.map((o) => o.status) : outcome;
    };
    expect(await accept('choosy-1')).toEqual(['completed']);
    await database.db.pool.query(
      `INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, enabled, channels)
       SELECT environment_id, id, NULL, true, '{"in_app": false}' FROM subscribers WHERE subscriber_id = 'choosy'`,
    );
    // Its step is queued, though the workflow has no other: the job applies the preferences as they are.
    expect(await accept('choosy-2')).toEqual([]);
    await expectLeftToJobs('choosy-2', 'choosy', helloJobs);
    expect(pool.reads).toBe(1);

    expect(await accept('choosy-3')).toEqual(['skipped']);
    expect(pool.reads).toBe(2);
    expect((await notification('choosy-3', 'choosy')).inline).toMatchObject({ details: [{ detail: 'skipped: preference in_app disabled by subscriber (global)' }] });
    // The workflow's own row changes what the step reads too.
    await database.db.pool.query(
      `INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, enabled, channels)
       SELECT s.environment_id, s.id, $1, true, '{"in_app": true}' FROM subscribers s WHERE s.subscriber_id = 'choosy'`,
      [hello.id],
    );
    expect(await accept('choosy-4')).toEqual([]);
    expect(await accept('choosy-5')).toEqual(['completed']);
    expect(pool.reads).toBe(3);
  });

  it('runs the step on a recipient remembered with the object its triggers give, and applies the object if the row changed since', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name) VALUES ($1, 'named', 'Named'), ($1, 'named2', 'Named')`, [fx.env]);
    const pool = recordingPool();
    const acceptor = new TriggerAcceptor(pool, fx.queue, testChannelCipher);
    const object = { subscriberId: 'named', firstName: 'Named', email: 'named@example.com' };
    const accept = async (workflow: DeliveryWorkflow, transactionId: string, subscriber = object) => {
      const outcome = await acceptor.accept(trigger(workflow, transactionId, [subscriber.subscriberId], [subscriber]), runInline(workflow));
      return outcome.accepted ? outcome.inline.map((o) => [o.status, o.job.subscriber.email]) : outcome;
    };
    const stored = (subscriberId = 'named') => rows<{ first_name: string; email: string }>('SELECT first_name, email FROM subscribers WHERE subscriber_id = $1', [subscriberId]);
    // The first applies the object (its email); the next is the first to find it as stored, and is remembered.
    expect(await accept(hello, 'named-1')).toEqual([['completed', 'named@example.com']]);
    expect(await accept(hello, 'named-2')).toEqual([['completed', 'named@example.com']]);
    expect(await accept(hello, 'named-3')).toEqual([['completed', 'named@example.com']]);
    expect(pool.reads).toBe(2);

    // Another request changes the row: the same object must still be applied, as if its trigger came after.
    await database.db.pool.query(`UPDATE subscribers SET first_name = 'Renamed', email = NULL WHERE subscriber_id = 'named'`);
    const version = (await rows<{ version: number }>(`SELECT version FROM subscribers WHERE subscriber_id = 'named'`))[0].version;
    expect(await accept(hello, 'named-4')).toEqual([]);
    expect(await stored()).toEqual([{ first_name: 'Named', email: 'named@example.com' }]);
    expect((await rows<{ version: number }>(`SELECT version FROM subscribers WHERE subscriber_id = 'named'`))[0].version).toBe(version + 1);
    await expectLeftToJobs('named-4', 'named', helloJobs);
    expect(pool.reads).toBe(2);
    expect(await accept(hello, 'named-5')).toEqual([['completed', 'named@example.com']]);
    expect(pool.reads).toBe(3);

    // A refused duplicate's object is not applied; in a transaction (a step after the inline one), an accepted one's is.
    await accept(fx.greet, 'named2-1', { ...object, subscriberId: 'named2' });
    expect(await accept(fx.greet, 'named2-2', { ...object, subscriberId: 'named2' })).toEqual([['completed', 'named@example.com']]);
    await database.db.pool.query(`UPDATE subscribers SET first_name = 'Renamed' WHERE subscriber_id = 'named2'`);
    expect(await accept(fx.greet, 'named2-1', { ...object, subscriberId: 'named2' })).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(await stored('named2')).toEqual([{ first_name: 'Renamed', email: 'named@example.com' }]);
    expect(await accept(fx.greet, 'named2-3', { ...object, subscriberId: 'named2' })).toEqual([]);
    expect(await stored('named2')).toEqual([{ first_name: 'Named', email: 'named@example.com' }]);
    await expectLeftToJobs('named2-3', 'named2', greetJobs);
  });

  it('reads a recipient given an object for every trigger of a batch when one of them has no remembered read, and renders what is stored', async () => {
    const hello = acceptance('x').workflow;
    const { pool: direct } = database.db;
    await direct.query(
      `WITH w AS (INSERT INTO workflows (environment_id, workflow_id, name) VALUES ($1, 'welcome', 'welcome') RETURNING id)
       INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values)
       SELECT id, 'inbox', 'inbox', 'in_app', 0, '{"body":"Hi {{subscriber.firstName}} {{subscriber.lastName}}"}'::jsonb FROM w`,
      [fx.env],
    );
    const welcome = (await new SqlEventRepository(direct, fx.queue, testChannelCipher).findWorkflow(fx.env, 'welcome'))!;
    await direct.query(`INSERT INTO subscribers (environment_id, subscriber_id, first_name, last_name) VALUES ($1, 'mixer', 'Mix', 'Smith')`, [fx.env]);
    const acceptor = new TriggerAcceptor(recordingPool(), fx.queue, testChannelCipher);
    const object = { subscriberId: 'mixer', firstName: 'Mix', email: 'mix@example.com' };
    for (const t of ['mix-1', 'mix-2']) await acceptor.accept(trigger(hello, t, ['mixer'], [object]), runInline(hello));
    await direct.query(`UPDATE subscribers SET first_name = 'Renamed' WHERE subscriber_id = 'mixer'`);
    // Remembered for one workflow, not the other; another request writes the row while the other's step runs.
    const racing = between(welcome, `UPDATE subscribers SET first_name = 'Other', last_name = 'Jones' WHERE subscriber_id = 'mixer'`);
    const [remembered, read] = await inOneBatch(acceptor, 'mix-batch', () => [
      acceptor.accept(trigger(hello, 'mix-3', ['mixer'], [object]), runInline(hello)),
      acceptor.accept(trigger(welcome, 'mix-4', ['mixer'], [object]), racing),
    ]);
    expect(remembered.accepted && read.accepted).toBe(true);
    // As if the other request came first: the object applied on its write, and the step saw that.
    expect(await rows(`SELECT first_name, last_name, email FROM subscribers WHERE subscriber_id = 'mixer'`)).toEqual([{ first_name: 'Mix', last_name: 'Jones', email: 'mix@example.com' }]);
    expect(await bodyOf('mix-4', 'mixer')).toBe('Hi Mix Jones');
  });

  it('does not remember a recipient whose row is large', async () => {
    const hello = acceptance('x').workflow;
    await database.db.pool.query(`INSERT INTO subscribers (environment_id, subscriber_id, data) VALUES ($1, 'large', $2)`, [fx.env, { notes: 'x'.repeat(20_000) }]);
    const pool = recordingPool();
    const acceptor = new TriggerAcceptor(pool, fx.queue, testChannelCipher);
    for (const t of ['large-1', 'large-2']) {
      const outcome = await acceptor.accept(trigger(hello, t, ['large']), runInline(hello));
      expect(outcome.accepted && outcome.inline.map((o) => o.status)).toEqual(['completed']);
    }
    expect(pool.reads).toBe(2);
  });
});
