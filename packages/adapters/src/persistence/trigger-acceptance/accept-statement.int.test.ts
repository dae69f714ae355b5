import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTriggerAcceptanceFixture } from '../../testing/trigger-acceptance-fixture';
import { TriggerAcceptor } from './trigger-acceptor';
import { testChannelCipher } from '../../testing/test-channel-cipher';

const fx = useTriggerAcceptanceFixture();
const { database, acceptance, trigger, runInline, rows, inOneBatch, notification } = fx;

describe('TriggerAcceptor: the accept statement', () => {
  it('keeps with a topic trigger whether it also named subscribers directly: their notifications exist before its fan-out', async () => {
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const topics = [{ topicKey: 'news', exclude: [] }];
    await acceptor.accept({ ...acceptance('direct-and-topic'), recipients: { subscriberIds: ['ada'], upserts: [], topics } });
    await acceptor.accept({ ...acceptance('topic-only'), recipients: { subscriberIds: [], upserts: [], topics } });
    const stored = await database.db.pool.query<{ transaction_id: string; direct: boolean }>(
      `SELECT transaction_id, (fanout_cursor->>'direct')::boolean AS direct FROM events WHERE transaction_id IN ('direct-and-topic', 'topic-only') ORDER BY transaction_id`,
    );
    expect(stored.rows).toEqual([
      { transaction_id: 'direct-and-topic', direct: true },
      { transaction_id: 'topic-only', direct: false },
    ]);
  });

  it('accepts the first of two triggers repeating a transactionId in one batch, and writes its rows once', async () => {
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const [first, second] = await inOneBatch(acceptor, 'repeat', () => [
      acceptor.accept({ ...trigger(fx.greet, 'repeat-x', ['grace', 'repeat-new']), payload: { order: 1 } }, runInline(fx.greet)),
      acceptor.accept({ ...trigger(fx.greet, 'repeat-x', ['grace', 'repeat-new']), payload: { order: 2 } }, runInline(fx.greet)),
    ]);
    expect(first).toMatchObject({ accepted: true, notifications: 2 });
    expect(first.accepted && first.inline.map((o) => o.job.subscriber.subscriberId)).toEqual(['grace']);
    expect(second).toEqual({ accepted: false, reason: 'duplicate_transaction' });
    expect(await rows(`SELECT payload FROM events WHERE transaction_id = 'repeat-x'`)).toEqual([{ payload: { order: 1 } }]);
    // Grace's first step ran with the trigger (a job for the second); the new subscriber got both jobs. Once.
    expect(await rows(`SELECT body FROM messages WHERE transaction_id = 'repeat-x'`)).toEqual([{ body: 'Hi Grace, order 1' }]);
    expect(await rows(`SELECT count(*)::int AS n FROM notifications WHERE transaction_id = 'repeat-x'`)).toEqual([{ n: 2 }]);
    expect(await rows(`SELECT count(*)::int AS n FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = 'repeat-x'`)).toEqual([{ n: 3 }]);
    expect(await rows(`SELECT count(*)::int AS n FROM subscribers WHERE subscriber_id = 'repeat-new'`)).toEqual([{ n: 1 }]);
  });

  it('writes notification.completed, once, for the notifications whose inline step left nothing to run, and only while an endpoint takes it', async () => {
    const acceptor = new TriggerAcceptor(database.db.pool, fx.queue, testChannelCipher);
    const completions = (...transactionIds: string[]) =>
      rows<{ ordering_key: string; data: Record<string, unknown>; deliveries: number }>(
        `SELECT ev.ordering_key, ev.data, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = ev.id) AS deliveries FROM webhook_events ev
         WHERE ev.type = 'notification.completed' AND ev.data->>'transactionId' = ANY($1) ORDER BY ev.data->>'transactionId', ev.data->>'subscriberId'`,
        [transactionIds],
      );
    await acceptor.accept(trigger(fx.hello, 'unheard', ['grace']), runInline(fx.hello));
    expect(await completions('unheard')).toEqual([]);

    const [{ id }] = await rows<{ id: string }>(`INSERT INTO webhook_endpoints (environment_id, url, secrets, event_types) VALUES ($1, 'https://hooks.example/', 'x', '{notification.completed}') RETURNING id`, [fx.env]);
    try {
      await inOneBatch(acceptor, 'done', () => [
        acceptor.accept(trigger(fx.hello, 'done-hello', ['grace', 'quiet']), runInline(fx.hello)),
        acceptor.accept(trigger(fx.greet, 'done-greet', ['linus']), runInline(fx.greet)),
      ]);
      const hello = await notification('done-hello', 'grace');
      // Quiet's in-app step was skipped by its preferences: nothing left either. Greet has a step after.
      expect(await completions('done-hello', 'done-greet')).toEqual([
        { ordering_key: hello.id, deliveries: 1, data: { notificationId: hello.id, transactionId: 'done-hello', subscriberId: 'grace', workflowId: 'hello', status: 'completed' } },
        { ordering_key: (await notification('done-hello', 'quiet')).id, deliveries: 1, data: expect.objectContaining({ subscriberId: 'quiet', status: 'completed' }) },
      ]);
    } finally {
      await database.db.pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [id]);
      await database.db.pool.query('SELECT herald_webhook_capture_sync(true)');
    }
  });

  it('has PostgreSQL plan the accept statement once per connection: after its first runs, one generic plan is reused', async () => {
    // A prepared statement is planned for its parameters' values five times, then kept generic only if
    // that plan looks no dearer than those: otherwise every batch pays for planning the statement
    // (3-4 ms, more than running it). A change of its text can tip that choice without failing anything else.
    const hello = acceptance('x').workflow;
    const single = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      const acceptor = new TriggerAcceptor(single, fx.queue, testChannelCipher);
      for (let i = 0; i < 8; i++) await acceptor.accept(trigger(hello, `planned-${i}`, ['grace']), runInline(hello));
      // And its form with the channels merge, for recipients given the same object with their device each time.
      const phone = { providerId: 'fcm', _integrationId: '00000000-0000-4000-8000-000000000004', credentials: { deviceTokens: ['token-4'] } };
      await single.query(`INSERT INTO subscribers (environment_id, subscriber_id, channels) VALUES ($1, 'planned', $2)`, [fx.env, JSON.stringify(testChannelCipher.seal([phone]))]);
      for (let i = 0; i < 8; i++) await acceptor.accept(trigger(hello, `planned-channels-${i}`, ['planned'], [{ subscriberId: 'planned', channels: [phone] }]), runInline(hello));
      const { rows: plans } = await single.query(`SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'herald-accept-triggers%' ORDER BY name`);
      expect(plans).toEqual([
        { name: 'herald-accept-triggers', generic_plans: 3, custom_plans: 5 },
        { name: 'herald-accept-triggers-channels', generic_plans: 3, custom_plans: 5 },
      ]);
    } finally {
      await single.end();
    }
  });
});
