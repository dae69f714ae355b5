import {
  FIRST_UUID,
  INBOX_STORED_DETAIL,
  LAST_UUID,
  type ActivityExecutionDetail,
  type ActivityFilter,
  type ActivityJob,
  type ActivityNotification,
  type ActivityPage,
  type ActivityRepository,
  type TriggerProgress,
} from '@herald/domain';
import type { Pool } from 'pg';
import { isUuid, sameKeys, SqlParams, sqlLiteral } from './sql-params';

// The message a job produced (an in-app message's job may be an inline one: no jobs row). An in-app
// message goes to its subscriber's inbox and has no destination stored: it is shown as
// {subscriberId}: stored, it would be a JSON value per inbox message for PostgreSQL to parse on every
// insert, 6% of a fan-out chunk insert's CPU.
const MESSAGE_OF = (jobId: string) => `(
  SELECT json_build_object('id', m.id, 'channel', m.channel, 'providerId', m.provider_id, 'status', m.status,
    'destination', COALESCE(m.destination, CASE WHEN m.channel = 'in_app' THEN jsonb_build_object('subscriberId', s.subscriber_id) END),
    'subject', m.subject, 'body', m.body, 'createdAt', m.created_at)
  FROM messages m WHERE m.job_id = ${jobId})`;

const STEP_OF = (workflowStepId: string, stepId: string) =>
  `json_build_object('id', ${workflowStepId}, 'stepId', ${stepId}, 'name', COALESCE(ws.name, ${stepId}),
     'active', COALESCE(ws.active, true), 'filters', COALESCE(ws.filters, '[]'::jsonb))`;

/**
 * The page's notifications with everything the activity log shows, in one statement: the jobs in step
 * order, each with its execution details (oldest first) and the message it produced. A step the
 * fan-out ran inline is kept on its notification (`inline_*`) and shown like the others: its details
 * take the notification's time, and ids derived from the job's, stable from read to read. Its one
 * detail of a message stored in the inbox is not stored (`inline_details` is null) but derived here.
 * `page` is a CTE of the notification ids to load; `$1` is the environment.
 */
const HYDRATE = `
SELECT n.id, n.environment_id, n.transaction_id, n.workflow_id, n.channels, e.payload, n.controls, n.tags, n.severity, n.critical,
       COALESCE(n."to", CASE WHEN n.topic_key IS NOT NULL THEN jsonb_build_object('type', 'Topic', 'topicKey', n.topic_key) END) AS "to",
       CASE WHEN n.topic_key IS NOT NULL THEN jsonb_build_array(jsonb_build_object('_topicId', n.topic_id, 'topicKey', n.topic_key)) ELSE '[]' END AS topics,
       n.context_keys, n.digested_notification_id, n.created_at, n.updated_at,
       json_build_object('id', s.id, 'subscriberId', s.subscriber_id, 'firstName', s.first_name, 'lastName', s.last_name,
         'email', s.email, 'phone', s.phone) AS subscriber,
       CASE WHEN w.id IS NOT NULL THEN json_build_object('id', w.id, 'identifier', w.workflow_id, 'name', w.name, 'origin', w.origin,
         'payloadSchema', w.payload_schema) END AS workflow,
       e.overrides,
       COALESCE((
         SELECT json_agg(x.job ORDER BY x.position) FROM (
           SELECT j.position, json_build_object(
             'id', j.id, 'type', j.type, 'status', j.status, 'providerId', j.provider_id, 'digest', j.digest,
             'scheduleExtensionsCount', j.schedule_extensions_count, 'updatedAt', j.updated_at,
             'step', ${STEP_OF('j.workflow_step_id', 'j.step_id')},
             'executionDetails', COALESCE((
               SELECT json_agg(json_build_object('id', d.id, 'createdAt', d.created_at, 'status', d.status, 'source', d.source,
                 'detail', d.detail, 'isRetry', d.is_retry, 'isTest', d.is_test, 'providerId', d.provider_id, 'raw', d.raw)
                 ORDER BY d.seq)
               FROM execution_details d WHERE d.job_id = j.id), '[]'::json),
             'message', ${MESSAGE_OF('j.id')}) AS job
           FROM jobs j LEFT JOIN workflow_steps ws ON ws.id = j.workflow_step_id
           WHERE j.notification_id = n.id
           UNION ALL
           SELECT n.inline_position, json_build_object(
             'id', n.inline_job_id, 'type', n.inline_step_type, 'status', n.inline_status, 'providerId', n.inline_provider_id, 'digest', NULL,
             'scheduleExtensionsCount', 0, 'updatedAt', n.created_at,
             'step', ${STEP_OF('n.inline_workflow_step_id', 'n.inline_step_id')},
             'executionDetails', CASE WHEN n.inline_details IS NULL THEN json_build_array(json_build_object(
                 'id', md5(n.inline_job_id || ':1')::uuid, 'createdAt', n.created_at, 'status', 'Success', 'source', 'Internal',
                 'detail', ${sqlLiteral(INBOX_STORED_DETAIL)} || s.subscriber_id, 'isRetry', false, 'isTest', false, 'providerId', n.inline_provider_id, 'raw', NULL))
               ELSE COALESCE((
                 SELECT json_agg(json_build_object('id', md5(n.inline_job_id || ':' || d.ord)::uuid, 'createdAt', n.created_at,
                   'status', d.value->>'status', 'source', d.value->>'source', 'detail', d.value->>'detail', 'isRetry', false, 'isTest', false,
                   'providerId', d.value->>'providerId', 'raw', d.value->>'raw') ORDER BY d.ord)
                 FROM jsonb_array_elements(n.inline_details) WITH ORDINALITY AS d(value, ord)), '[]'::json) END,
             'message', ${MESSAGE_OF('n.inline_job_id')})
           FROM (SELECT 1) one LEFT JOIN workflow_steps ws ON ws.id = n.inline_workflow_step_id
           WHERE n.inline_job_id IS NOT NULL
         ) x), '[]'::json) AS jobs
FROM page
JOIN notifications n ON n.id = page.id AND n.environment_id = $1
JOIN events e ON e.id = n.event_id
JOIN subscribers s ON s.id = n.subscriber_id
LEFT JOIN workflows w ON w.id = n.workflow_id
ORDER BY n.created_at DESC, n.id DESC`;

/**
 * A notification's trigger and its fan-out's progress, counted when asked, so the trigger and fan-out
 * write nothing for it: its notifications by the unique (event_id, subscriber_id) index, and while it
 * fans out, the topics' subscriptions in the lanes not done, from each lane's cursor on, by the
 * (topic_id, subscriber_id) index (the range a chunk reads). A cursor stored before lanes existed
 * holds one `after` over the whole id space.
 */
const TRIGGER_PROGRESS = `
SELECT e.transaction_id, e.status, e.topic_keys, e.created_at, e.fanned_out_at,
  (SELECT count(*) FROM notifications x WHERE x.event_id = e.id)::int AS recipients,
  CASE WHEN e.status = 'fanning_out' THEN (
    SELECT count(*) FROM topics t
    JOIN jsonb_to_recordset(COALESCE(e.fanout_cursor->'lanes', jsonb_build_array(jsonb_build_object(
      'after', COALESCE(e.fanout_cursor->>'after', '${FIRST_UUID}'), 'until', '${LAST_UUID}', 'done', false)))) AS l(after uuid, until uuid, done boolean) ON NOT l.done
    JOIN topic_subscriptions ts ON ts.topic_id = t.id AND ts.subscriber_id > l.after AND ts.subscriber_id <= l.until
    WHERE t.environment_id = e.environment_id AND t.key = ANY(e.topic_keys))::int ELSE 0 END AS remaining
FROM notifications n JOIN events e ON e.id = n.event_id
WHERE n.id = $2 AND n.environment_id = $1`;

interface JobJson extends Omit<ActivityJob, 'updatedAt' | 'executionDetails' | 'message' | 'payload' | 'overrides'> {
  updatedAt: string;
  executionDetails: Array<Omit<ActivityExecutionDetail, 'createdAt'> & { createdAt: string }>;
  message: (Omit<NonNullable<ActivityJob['message']>, 'createdAt'> & { createdAt: string }) | null;
}

/** Existing subscriptions a subscriptionId filter names (by id or identifier). */
interface NamedSubscriptions {
  ids: string[];
  subscriberIds: string[];
}
const NONE_NAMED: NamedSubscriptions = { ids: [], subscriberIds: [] };

/**
 * The conditions of the activity filters; each is backed by an index of `notifications` or a small
 * lookup. Channels and topics are indexed per event, not per recipient: the events are found first,
 * then their notifications by the event key, and each notification's own columns are checked.
 * `subscriptions` are the existing subscriptions `f.subscriptionId` names (see `list`).
 */
function conditions(environmentId: string, f: ActivityFilter, params: SqlParams, subscriptions: NamedSubscriptions = NONE_NAMED): string[] {
  const { p } = params;
  const env = p(environmentId);
  const where = [`n.environment_id = ${env}`];
  const subscribersWhere = (condition: string) =>
    `n.subscriber_id IN (SELECT s.id FROM subscribers s WHERE s.environment_id = ${env} AND ${condition})`;
  const byEvents = (condition: string) => `n.event_id IN (SELECT e.id FROM events e WHERE e.environment_id = ${env} AND ${condition})`;
  if (f.channels) {
    const channels = p(f.channels);
    where.push(byEvents(`e.channels && ${channels}::text[]`), `n.channels && ${channels}::text[]`);
  }
  if (f.templates) {
    const ids = f.templates.filter(isUuid);
    where.push(
      `n.workflow_id IN (SELECT w.id FROM workflows w WHERE w.environment_id = ${env} AND (w.id = ANY(${p(ids)}::uuid[]) OR w.workflow_id = ANY(${p(f.templates)}::text[])))`,
    );
  }
  if (f.emails) where.push(subscribersWhere(`s.email = ANY(${p(f.emails)}::text[])`));
  if (f.subscriberIds) where.push(subscribersWhere(`s.subscriber_id = ANY(${p(f.subscriberIds)}::text[])`));
  if (f.severity) where.push(`n.severity = ANY(${p(f.severity)}::text[])`);
  if (f.statuses) {
    // Its jobs by the (notification_id, ...) unique index; a step run inline is on the notification.
    const statuses = p(f.statuses);
    where.push(`(n.inline_status = ANY(${statuses}::text[]) OR EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = n.id AND j.status = ANY(${statuses}::text[])))`);
  }
  // Through the event (unique per environment and transactionId) and the notifications' event key.
  const byTransaction = (id: string) => byEvents(`e.transaction_id = ${id}`);
  if (f.transactionId) where.push(byTransaction(p(f.transactionId)));
  if (f.topicKey) {
    // The partial GIN index covers events with topics; say so, so the planner can use it.
    const key = p(f.topicKey);
    where.push(byEvents(`cardinality(e.topic_keys) > 0 AND e.topic_keys @> ARRAY[${key}::text]`), `n.topic_key = ${key}`);
  }
  if (f.subscriptionId) {
    // A subscription is named by its id or by its identifier; the notification stores ids. Its
    // notifications are its subscriber's; one since deleted is looked for among all of them.
    if (subscriptions.subscriberIds.length) where.push(`n.subscriber_id = ANY(${p(subscriptions.subscriberIds)}::uuid[])`);
    where.push(`n.subscription_id = ANY(${p([f.subscriptionId, ...subscriptions.ids].filter(isUuid))}::uuid[])`);
  }
  // The partial GIN index covers rows with keys; say so, so the planner can use it.
  if (f.contextKeys) where.push(`${f.contextKeys.length ? 'cardinality(n.context_keys) > 0 AND ' : ''}${sameKeys('n.context_keys', p(f.contextKeys))}`);
  if (f.after) where.push(`n.created_at >= ${p(f.after)}::timestamptz`);
  if (f.before) where.push(`n.created_at <= ${p(f.before)}::timestamptz`);
  if (f.search) {
    const s = p(f.search);
    where.push(`(${byTransaction(s)} OR ${subscribersWhere(`(s.subscriber_id = ${s} OR s.email = ${s})`)})`);
  }
  return where;
}

/** Top-level property names of a JSON schema: the payload variables a workflow declares. */
function payloadVariables(schema: unknown): string[] {
  const properties = schema && typeof schema === 'object' ? (schema as { properties?: unknown }).properties : undefined;
  return properties && typeof properties === 'object' ? Object.keys(properties) : [];
}

function toNotification(row: Record<string, any>): ActivityNotification {
  const workflow = row.workflow;
  const payload = row.payload ?? {};
  const overrides = row.overrides ?? {};
  return {
    id: row.id,
    environmentId: row.environment_id,
    transactionId: row.transaction_id,
    workflowId: row.workflow_id,
    subscriber: row.subscriber,
    workflow: workflow
      ? { id: workflow.id, identifier: workflow.identifier, name: workflow.name, origin: workflow.origin, payloadVariables: payloadVariables(workflow.payloadSchema) }
      : null,
    channels: row.channels,
    payload,
    controls: row.controls,
    to: row.to,
    tags: row.tags,
    topics: Array.isArray(row.topics) ? row.topics : [],
    severity: row.severity,
    critical: row.critical,
    contextKeys: row.context_keys,
    digestedNotificationId: row.digested_notification_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    jobs: (row.jobs as JobJson[]).map((j) => ({
      ...j,
      payload,
      overrides,
      updatedAt: new Date(j.updatedAt),
      executionDetails: j.executionDetails.map((d) => ({ ...d, createdAt: new Date(d.createdAt) })),
      message: j.message ? { ...j.message, createdAt: new Date(j.message.createdAt) } : null,
    })),
  };
}

/** The activity log read from the delivery tables with set-based SQL: one statement per page. */
export class SqlActivityRepository implements ActivityRepository {
  constructor(private readonly pool: Pool) {}

  async list(environmentId: string, filter: ActivityFilter, page: ActivityPage) {
    const params = new SqlParams();
    const where = conditions(environmentId, filter, params, filter.subscriptionId ? await this.subscriptionsNamed(environmentId, filter.subscriptionId) : NONE_NAMED);
    // limit + 1 rows: the extra one only says whether another page exists.
    const sql = `WITH page AS (
      SELECT n.id FROM notifications n WHERE ${where.join(' AND ')}
      ORDER BY n.created_at DESC, n.id DESC
      OFFSET ${params.p(page.page * page.limit)} LIMIT ${params.p(page.limit + 1)}
    ) ${HYDRATE}`;
    const { rows } = await this.pool.query(sql, params.values);
    return { notifications: rows.slice(0, page.limit).map(toNotification), hasMore: rows.length > page.limit };
  }

  /** The existing subscriptions with this id or identifier: their ids and their subscribers (internal ids). */
  private async subscriptionsNamed(environmentId: string, subscription: string): Promise<NamedSubscriptions> {
    const { rows } = await this.pool.query<{ id: string; subscriber_id: string }>(
      `SELECT id, subscriber_id FROM topic_subscriptions WHERE environment_id = $1 AND ${isUuid(subscription) ? '(identifier = $2 OR id = $2::uuid)' : 'identifier = $2'}`,
      [environmentId, subscription],
    );
    return { ids: rows.map((r) => r.id), subscriberIds: rows.map((r) => r.subscriber_id) };
  }

  async findById(environmentId: string, notificationId: string): Promise<ActivityNotification | null> {
    if (!isUuid(notificationId)) return null;
    const { rows } = await this.pool.query(`WITH page AS (SELECT $2::uuid AS id) ${HYDRATE}`, [environmentId, notificationId]);
    return rows[0] ? toNotification(rows[0]) : null;
  }

  async triggerProgress(environmentId: string, notificationId: string): Promise<TriggerProgress | null> {
    if (!isUuid(notificationId)) return null;
    const { rows } = await this.pool.query(TRIGGER_PROGRESS, [environmentId, notificationId]);
    const row = rows[0];
    if (!row) return null;
    return {
      transactionId: row.transaction_id,
      topicKeys: row.topic_keys,
      status: row.status,
      recipients: row.recipients,
      total: row.recipients + row.remaining,
      createdAt: row.created_at,
      fannedOutAt: row.fanned_out_at,
    };
  }
}
