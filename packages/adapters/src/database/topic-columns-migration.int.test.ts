import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { SqlActivityRepository } from '../persistence/sql-activity-repository';
import { insertWorkflowEnvironment, useDatabaseBeforeMigration } from '../testing/use-database-before-migration';
import { applyMigrations } from './migrate';

// The migration that keeps a fan-out recipient's topic as columns (topic_id, topic_key,
// subscription_id) instead of copies in "to", topics, topic_keys and subscription_ids: notifications
// stored before it show, and filter, in the activity log as they did.
const MIGRATION = '20261125115306_notification_topic_columns';
const database = useDatabaseBeforeMigration(MIGRATION);

it("keeps each fan-out notification's topic and subscription, and a trigger's recipient without one", async () => {
  const { pool } = database;
  const ids = { ...(await insertWorkflowEnvironment(pool)), event: randomUUID(), subscription: randomUUID() };
  const [{ id: topicId }] = (await pool.query<{ id: string }>(`INSERT INTO topics (environment_id, key) VALUES ($1, 'vip') RETURNING id`, [ids.env])).rows;
  const subscriber = async (externalId: string) =>
    (await pool.query<{ id: string }>(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, $2) RETURNING id`, [ids.env, externalId])).rows[0].id;
  const [cy, bob] = [await subscriber('cy'), await subscriber('bob')];
  await pool.query(`INSERT INTO events (id, environment_id, workflow_id, transaction_id, "to", topic_keys) VALUES ($1, $2, $3, 'tx', '{}', '{vip}')`, [ids.event, ids.env, ids.workflow]);
  const notification = async (subscriberId: string, to: unknown, topics: unknown[], topicKeys: string[], subscriptionIds: string[]) =>
    (
      await pool.query<{ id: string }>(
        `INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id, "to", topics, topic_keys, subscription_ids)
         VALUES ($1, $2, $3, $4, 'tx', $5, $6, $7, $8) RETURNING id`,
        [ids.env, ids.event, ids.workflow, subscriberId, JSON.stringify(to), JSON.stringify(topics), topicKeys, subscriptionIds],
      )
    ).rows[0].id;
  const reached = await notification(cy, { type: 'Topic', topicKey: 'vip' }, [{ _topicId: topicId, topicKey: 'vip' }], ['vip'], [ids.subscription]);
  const named = await notification(bob, { subscriberId: 'bob' }, [], [], []);

  expect(await applyMigrations(pool)).toContain(MIGRATION);
  const activity = new SqlActivityRepository(pool);
  expect(await activity.findById(ids.env, reached)).toMatchObject({ to: { type: 'Topic', topicKey: 'vip' }, topics: [{ _topicId: topicId, topicKey: 'vip' }] });
  expect(await activity.findById(ids.env, named)).toMatchObject({ to: { subscriberId: 'bob' }, topics: [] });
  const listed = async (filter: object) => (await activity.list(ids.env, filter, { page: 0, limit: 10 })).notifications.map((n) => n.id);
  expect(await listed({ topicKey: 'vip' })).toEqual([reached]);
  // The subscription was deleted since: found by the id the notification keeps.
  expect(await listed({ subscriptionId: ids.subscription })).toEqual([reached]);
  expect(await listed({})).toHaveLength(2);
});
