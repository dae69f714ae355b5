import {
  type AcceptOutcome,
  type DeliveryStep,
  type DeliveryWorkflow,
  type EventRepository,
  type FanoutCandidate,
  type FanoutEvent,
  type TriggerAcceptance,
} from '@herald/domain';
import type { Pool, PoolClient } from 'pg';
import { fanoutWork, stepsWork, type PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { UPSERT_MANY_SUBSCRIBERS } from './prisma-subscriber-repository';
import { inTransaction } from './transaction';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Jobs for every active step of each new notification: the first is queued, the rest wait their turn.
const INSERT_JOBS = `
  INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
  SELECT n.environment_id, n.id, n.subscriber_id, st.id, st.step_id, st.type, st.position,
         CASE WHEN st.ord = 0 THEN 'queued' ELSE 'pending' END
  FROM notif n CROSS JOIN jsonb_to_recordset($STEPS::jsonb) AS st(id uuid, step_id text, type text, position int, ord int)`;

// One statement: the event (unique per transactionId), any subscriber named by id that does not exist
// yet, a notification per direct recipient, their jobs, and the workflow's lastTriggeredAt (at most
// once a second, so concurrent triggers rarely wait on that row's lock).
const ACCEPT = `
WITH ev AS (
  INSERT INTO events (environment_id, workflow_id, transaction_id, payload, overrides, "to", actor, tenant, context_keys, status, fanout_cursor, fanned_out_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $10 = 'fanned_out' THEN now() END)
  ON CONFLICT (environment_id, transaction_id) DO NOTHING
  RETURNING id
), created AS (
  INSERT INTO subscribers (environment_id, subscriber_id)
  SELECT $1, id FROM unnest($16::text[]) AS id WHERE EXISTS (SELECT 1 FROM ev)
  ON CONFLICT (environment_id, subscriber_id) DO NOTHING
  RETURNING id, subscriber_id
), recipients AS (
  SELECT id, subscriber_id FROM subscribers WHERE environment_id = $1 AND subscriber_id = ANY($16::text[])
  UNION ALL SELECT id, subscriber_id FROM created
), notif AS (
  INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id, channels, payload, "to", tags, severity, critical, context_keys)
  SELECT $1, ev.id, $2, r.id, $3, $12::text[], $4, jsonb_build_object('subscriberId', r.subscriber_id), $13::text[], $14, $15, $9
  FROM ev CROSS JOIN recipients r
  RETURNING id, environment_id, subscriber_id
), jobs AS (${INSERT_JOBS.replace('$STEPS', '$17')}
), touched AS (
  UPDATE workflows SET last_triggered_at = now()
  WHERE id = $2 AND EXISTS (SELECT 1 FROM ev) AND (last_triggered_at IS NULL OR last_triggered_at < now() - interval '1 second')
)
SELECT (SELECT id FROM ev) AS event_id, COALESCE((SELECT array_agg(id) FROM notif), '{}') AS notification_ids`;

const FANOUT_INSERT = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(subscriber_id uuid, topic_id uuid, topic_key text, subscription_id uuid)
), notif AS (
  INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id, channels, payload, "to", tags, severity, critical, context_keys, topics, topic_keys, subscription_ids)
  SELECT e.environment_id, e.id, e.workflow_id, i.subscriber_id, e.transaction_id, $3::text[], e.payload,
         jsonb_build_object('type', 'Topic', 'topicKey', i.topic_key), $4::text[], $5, $6, e.context_keys,
         jsonb_build_array(jsonb_build_object('_topicId', i.topic_id, 'topicKey', i.topic_key)), ARRAY[i.topic_key], ARRAY[i.subscription_id::text]
  FROM input i JOIN events e ON e.id = $2
  ON CONFLICT (event_id, subscriber_id) DO NOTHING
  RETURNING id, environment_id, subscriber_id
), jobs AS (${INSERT_JOBS.replace('$STEPS', '$7')})
SELECT COALESCE(array_agg(id), '{}') AS notification_ids FROM notif`;

const FANOUT_CANDIDATES = `
SELECT DISTINCT ON (ts.subscriber_id)
  ts.subscriber_id, ts.id AS subscription_id, ts.preferences, t.id AS topic_id, t.key AS topic_key,
  s.subscriber_id AS external_id, s.first_name, s.last_name, s.email, s.phone, s.avatar, s.locale, s.timezone, s.data
FROM topics t
JOIN topic_subscriptions ts ON ts.topic_id = t.id
JOIN subscribers s ON s.id = ts.subscriber_id
WHERE t.environment_id = $1 AND t.key = ANY($2::text[])
  AND ($3::uuid IS NULL OR ts.subscriber_id > $3::uuid)
  AND s.subscriber_id IS DISTINCT FROM $4
  AND NOT EXISTS (
    SELECT 1 FROM jsonb_to_recordset($5::jsonb) AS x(topic_key text, subscriber_id text)
    WHERE x.topic_key = t.key AND x.subscriber_id = s.subscriber_id)
ORDER BY ts.subscriber_id, ts.created_at
LIMIT $6`;

interface StepRow {
  id: string;
  step_id: string;
  name: string;
  type: DeliveryStep['type'];
  active: boolean;
  position: number;
  control_values: Record<string, unknown>;
  skip: DeliveryStep['skip'];
  filters: DeliveryStep['filters'];
}

/** The columns every notification of a workflow shares, and the job template of its active steps. */
function notificationShape(workflow: DeliveryWorkflow) {
  const active = workflow.steps.filter((s) => s.active);
  return {
    channels: [...new Set(active.map((s) => s.type))],
    steps: JSON.stringify(active.map((s, ord) => ({ id: s.id, step_id: s.stepId, type: s.type, position: s.position, ord }))),
  };
}

/** Trigger acceptance and topic fan-out in set-based SQL: a statement per chunk, not per recipient. */
export class SqlEventRepository implements EventRepository {
  constructor(
    private readonly pool: Pool,
    private readonly queue: PgBossDeliveryQueue,
  ) {}

  async findWorkflow(environmentId: string, identifier: string): Promise<DeliveryWorkflow | null> {
    const byId = UUID.test(identifier);
    const { rows } = await this.pool.query(
      `SELECT w.id, w.workflow_id, w.name, w.active, w.critical, w.severity, w.tags, w.data, w.payload_schema, w.preferences,
              COALESCE(json_agg(json_build_object('id', s.id, 'step_id', s.step_id, 'name', s.name, 'type', s.type, 'active', s.active,
                'position', s.position, 'control_values', s.control_values, 'skip', s.skip, 'filters', s.filters) ORDER BY s.position)
                FILTER (WHERE s.id IS NOT NULL), '[]') AS steps
       FROM workflows w LEFT JOIN workflow_steps s ON s.workflow_id = w.id
       WHERE w.environment_id = $1 AND NOT w.deleted AND ${byId ? '(w.workflow_id = $2 OR w.id = $2::uuid)' : 'w.workflow_id = $2'}
       GROUP BY w.id`,
      [environmentId, identifier],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      identifier: row.workflow_id,
      name: row.name,
      active: row.active,
      critical: row.critical,
      severity: row.severity,
      tags: row.tags,
      data: row.data,
      payloadSchema: row.payload_schema,
      preferences: row.preferences ?? {},
      steps: (row.steps as StepRow[]).map((s) => ({
        id: s.id,
        stepId: s.step_id,
        name: s.name,
        type: s.type,
        active: s.active,
        position: s.position,
        controlValues: s.control_values ?? {},
        skip: s.skip ?? null,
        filters: s.filters ?? [],
      })),
    };
  }

  accept(a: TriggerAcceptance): Promise<AcceptOutcome> {
    const { workflow } = a;
    const shape = notificationShape(workflow);
    const hasTopics = a.recipients.topics.length > 0;
    return inTransaction(this.pool, async (client) => {
      if (a.upserts.length) await client.query(UPSERT_MANY_SUBSCRIBERS, [a.environmentId, JSON.stringify(a.upserts)]);
      const { rows } = await client.query<{ event_id: string | null; notification_ids: string[] }>(ACCEPT, [
        a.environmentId,
        workflow.id,
        a.transactionId,
        JSON.stringify(a.payload),
        JSON.stringify(a.overrides),
        JSON.stringify(a.to ?? null),
        a.actor ? JSON.stringify(a.actor) : null,
        a.tenant === null ? null : JSON.stringify(a.tenant),
        a.contextKeys,
        hasTopics ? 'fanning_out' : 'fanned_out',
        hasTopics ? JSON.stringify({ topics: a.recipients.topics, after: null }) : null,
        shape.channels,
        workflow.tags,
        workflow.severity,
        workflow.critical,
        a.recipients.subscriberIds,
        shape.steps,
      ]);
      const { event_id: eventId, notification_ids: notificationIds } = rows[0];
      if (!eventId) return { accepted: false, reason: 'duplicate_transaction' } as const;
      await this.queue.enqueueIn(client, [
        ...stepsWork(notificationIds),
        ...(hasTopics ? fanoutWork([eventId]) : []),
      ]);
      return { accepted: true, eventId, notifications: notificationIds.length } as const;
    });
  }

  async loadFanout(eventId: string): Promise<FanoutEvent | null> {
    const { rows } = await this.pool.query(
      `SELECT e.id, e.environment_id, e.workflow_id, e.payload, e.context_keys, e.actor, e.fanout_cursor, e.status
       FROM events e WHERE e.id = $1`,
      [eventId],
    );
    const row = rows[0];
    if (!row) return null;
    const workflow = await this.findWorkflow(row.environment_id, row.workflow_id);
    if (!workflow) return null;
    const cursor = (row.fanout_cursor ?? { topics: [], after: null }) as { topics: FanoutEvent['topics']; after: string | null };
    return {
      id: row.id,
      environmentId: row.environment_id,
      workflow,
      payload: row.payload,
      contextKeys: row.context_keys,
      topics: cursor.topics,
      actorSubscriberId: row.actor?.subscriberId ?? null,
      cursor: cursor.after,
      status: row.status,
    };
  }

  async fanoutCandidates(event: FanoutEvent, limit: number): Promise<FanoutCandidate[]> {
    const excluded = event.topics.flatMap((t) => t.exclude.map((subscriberId) => ({ topic_key: t.topicKey, subscriber_id: subscriberId })));
    const { rows } = await this.pool.query(FANOUT_CANDIDATES, [
      event.environmentId,
      event.topics.map((t) => t.topicKey),
      event.cursor,
      event.actorSubscriberId,
      JSON.stringify(excluded),
      limit,
    ]);
    return rows.map((r) => ({
      subscriberId: r.subscriber_id,
      subscriptionId: r.subscription_id,
      topicId: r.topic_id,
      topicKey: r.topic_key,
      preferences: Array.isArray(r.preferences) ? r.preferences : [],
      subscriber: {
        subscriberId: r.external_id,
        firstName: r.first_name,
        lastName: r.last_name,
        email: r.email,
        phone: r.phone,
        avatar: r.avatar,
        locale: r.locale,
        timezone: r.timezone,
        data: r.data ?? {},
      },
    }));
  }

  commitFanoutChunk(event: FanoutEvent, accepted: FanoutCandidate[], cursor: string | null, done: boolean): Promise<number> {
    const shape = notificationShape(event.workflow);
    return inTransaction(this.pool, async (client) => {
      let notificationIds: string[] = [];
      if (accepted.length) {
        const input = accepted.map((c) => ({ subscriber_id: c.subscriberId, topic_id: c.topicId, topic_key: c.topicKey, subscription_id: c.subscriptionId }));
        const { rows } = await client.query<{ notification_ids: string[] }>(FANOUT_INSERT, [
          JSON.stringify(input),
          event.id,
          shape.channels,
          event.workflow.tags,
          event.workflow.severity,
          event.workflow.critical,
          shape.steps,
        ]);
        notificationIds = rows[0].notification_ids;
      }
      await client.query(
        `UPDATE events SET fanout_cursor = jsonb_set(COALESCE(fanout_cursor, '{}'), '{after}', to_jsonb($2::text)),
                status = CASE WHEN $3 THEN 'fanned_out' ELSE status END,
                fanned_out_at = CASE WHEN $3 THEN now() ELSE fanned_out_at END
         WHERE id = $1`,
        [event.id, cursor, done],
      );
      await this.queue.enqueueIn(client, stepsWork(notificationIds));
      return notificationIds.length;
    });
  }
}

