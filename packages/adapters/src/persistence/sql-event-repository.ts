import {
  type AcceptOutcome,
  type DeliveryWorkflow,
  type EventRepository,
  type FanoutCandidate,
  type FanoutEvent,
  type FanoutLane,
  type FanoutProgress,
  type JobOutcome,
  type RunInline,
  type TriggerAcceptance,
  FIRST_UUID,
  SharedReads,
  wholeRange,
} from '@herald/domain';
import type { Pool } from 'pg';
import { stepsWork, type PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import { INLINE_STEP_COLUMN_TYPES, inlineColumnNames, inlineRunColumns, inlineStepColumns, insertMessages, messageContentNames, messageContentArrays, messageContentUnnest, notificationShape, preferenceLevels, stepPreferences, stepsAfter, toDeliveryStep, messageTriggerColumns, type StepRow } from './delivery-rows';
import { TriggerAcceptor } from './trigger-acceptance/trigger-acceptor';
import type { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { inTransaction } from './transaction';
import { arrayParam, columnParam, isUuid, jsonParam, prepared } from './sql-params';
import { isUniqueViolation } from './prisma-errors';
import { newRowId } from './row-ids';
import { inlineRunEvents } from './webhook-inline-events';

export const WORKFLOW_CACHE_MS = 1_000;

type NotificationShape = ReturnType<typeof notificationShape>;

// A chunk of topic recipients: their notifications ($1-$10, one array per column; ids assigned when
// read; a step run inline is kept in the notification's inline_* columns: per recipient its job id,
// status, provider and details, the step itself once in $18), the jobs of their other steps ($16;
// with an inline step, the first of them queued, or all canceled when the inline step halted) and the
// inline step's messages (the recipient's message content in the same rows, arrays from $19; its ids
// are the recipient's own: notification, inline job, subscriber; the columns of their one trigger in
// $17). Only recipients without a notification for this event yet get any of it. While an endpoint
// takes them, the inline runs' outbound events too (a failed step; a notification left with nothing to run, complete).
// The rows come as arrays, not JSON: PostgreSQL parses a fan-out's input (notifications and messages)
// as arrays in about a third less CPU than as JSON documents, which saves a fifth of the statement's CPU.
// `skipExisting`: whether a recipient may have a notification for the event already (see commitFanoutChunk).
const fanoutInsert = (skipExisting: boolean) => `
WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::uuid[], $7::text[], $8::text[], $9::jsonb[], $10::boolean[],
      ${messageContentUnnest(19)})
    AS r(id, subscriber_id, topic_id, topic_key, subscription_id, inline_job_id, inline_status, inline_provider_id, inline_details, halted,
      ${messageContentNames()})
), notif AS (
  INSERT INTO notifications (id, environment_id, event_id, workflow_id, subscriber_id, transaction_id, channels, tags, severity, critical, context_keys,
    topic_id, topic_key, subscription_id, ${inlineColumnNames()})
  SELECT i.id, e.environment_id, e.id, e.workflow_id, i.subscriber_id, e.transaction_id, $12::text[], $13::text[], $14, $15, e.context_keys,
         i.topic_id, i.topic_key, i.subscription_id,
         i.inline_job_id, st.*, i.inline_status, i.inline_provider_id, i.inline_details
  FROM input i JOIN events e ON e.id = $11
  LEFT JOIN jsonb_to_record($18::jsonb) AS st(${INLINE_STEP_COLUMN_TYPES}) ON i.inline_job_id IS NOT NULL${skipExisting ? '\n  ON CONFLICT (event_id, subscriber_id) DO NOTHING' : ''}
  RETURNING id, environment_id, subscriber_id
), written AS (
  SELECT n.*, i.halted FROM notif n JOIN input i ON i.id = n.id
), jobs AS (
  INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
  SELECT n.environment_id, n.id, n.subscriber_id, st.id, st.step_id, st.type, st.position,
         CASE WHEN n.halted THEN 'canceled' WHEN st.ord = 0 THEN 'queued' ELSE 'pending' END
  FROM written n CROSS JOIN jsonb_to_recordset($16::jsonb) AS st(id uuid, step_id text, type text, position int, ord int)
), messages AS (
  ${insertMessages(
    { messages: `SELECT id AS notification_id, inline_job_id AS job_id, subscriber_id, ${messageContentNames()} FROM input WHERE channel IS NOT NULL`, trigger: '$17' },
    'r.notification_id IN (SELECT id FROM written)',
    true,
  )}
), webhooks AS (
  ${inlineRunEvents(`SELECT n.id AS notification_id, n.environment_id, e.transaction_id, s.subscriber_id, $17::jsonb->'workflow'->>'identifier' AS workflow_id,
      i.inline_job_id AS job_id, st.inline_step_id AS step_id, st.inline_step_type AS step_type, i.inline_status AS status,
      i.inline_provider_id AS provider_id, i.inline_details AS details, n.halted OR jsonb_array_length($16::jsonb) = 0 AS done
    FROM written n JOIN input i ON i.id = n.id JOIN events e ON e.id = $11 JOIN subscribers s ON s.id = n.subscriber_id
    CROSS JOIN jsonb_to_record($18::jsonb) AS st(inline_step_id text, inline_step_type text)
    WHERE i.inline_job_id IS NOT NULL`)}
)
SELECT (SELECT COALESCE(array_agg(i.id), '{}') FROM input i WHERE NOT EXISTS (SELECT 1 FROM written w WHERE w.id = i.id)) AS skipped_ids,
       COALESCE(array_agg(id) FILTER (WHERE NOT halted AND jsonb_array_length($16::jsonb) > 0), '{}') AS queued_ids
FROM written`;

// The next chunk of a fan-out: per topic, its next subscriptions after the cursor in subscriber-id
// order, read by the (topic_id, subscriber_id) index from the cursor on, so every chunk costs the
// same however far the fan-out has got. A subscriber in several topics is taken once (the earliest
// subscription); per topic, excluded subscribers and the actor are left out. Lanes split the
// subscriber-id space: this chunk reads ($3, $7].
// Each comes with the subscriber's preferences for the workflow ($8), which an inline step needs (the
// ids its notification and inline job will have are made in the service, `newRowId`: gen_random_uuid() here would
// cost about 5 ms of the database's time per thousand recipients), and of the subscriber only what a step
// reads (`StepSubscriber`).
const FANOUT_CANDIDATES = `
SELECT d.subscriber_id, d.subscription_id, d.preferences, d.topic_id, d.topic_key, d.external_id, d.first_name, d.last_name, d.email, d.phone,
  d.avatar, d.locale, d.timezone, d.data, d.s_channels,
  ${stepPreferences('d.subscriber_id', '$8::uuid')} AS subscriber_preferences
FROM (
SELECT DISTINCT ON (c.subscriber_id) c.*
FROM topics t
CROSS JOIN LATERAL (
  SELECT DISTINCT ON (ts.subscriber_id)
    ts.subscriber_id, ts.id AS subscription_id, ts.preferences, ts.created_at, t.id AS topic_id, t.key AS topic_key, s.*
  FROM topic_subscriptions ts
  -- By primary key for each subscription read (LIMIT keeps it a lookup): a plan that joins whole
  -- ranges of subscribers would read the rest of the lane on every chunk.
  CROSS JOIN LATERAL (
    SELECT s.subscriber_id AS external_id, s.first_name, s.last_name, s.email, s.phone, s.avatar, s.locale, s.timezone, s.data,
      s.channels AS s_channels
    FROM subscribers s WHERE s.id = ts.subscriber_id LIMIT 1
  ) s
  WHERE ts.topic_id = t.id AND ts.subscriber_id > $3::uuid AND ts.subscriber_id <= $7::uuid
    AND s.external_id IS DISTINCT FROM $4
    AND NOT EXISTS (
      SELECT 1 FROM jsonb_to_recordset($5::jsonb) AS x(topic_key text, subscriber_id text)
      WHERE x.topic_key = t.key AND x.subscriber_id = s.external_id)
  ORDER BY ts.subscriber_id, ts.created_at
  LIMIT $6
) c
WHERE t.environment_id = $1 AND t.key = ANY($2::text[])
ORDER BY c.subscriber_id, c.created_at
LIMIT $6
) d
ORDER BY d.subscriber_id`;

// Whether a lane's range ($3, $4] holds more than $5 subscriptions to the topics: at most $5 + 1
// read, from the (topic_id, subscriber_id) index.
const exceedsStatement = prepared(
  'herald-fanout-exceeds',
  `SELECT count(*) > $5 AS exceeds FROM (
     SELECT 1 FROM topics t
     CROSS JOIN LATERAL (
       SELECT 1 FROM topic_subscriptions ts WHERE ts.topic_id = t.id AND ts.subscriber_id > $3::uuid AND ts.subscriber_id <= $4::uuid LIMIT $5::int + 1
     ) x
     WHERE t.environment_id = $1 AND t.key = ANY($2::text[])
     LIMIT $5::int + 1
   ) y`,
);
const fanoutInsertStatement = prepared('herald-fanout-insert', fanoutInsert(false));
const fanoutInsertSkippingStatement = prepared('herald-fanout-insert-skipping', fanoutInsert(true));
const candidatesStatement = prepared('herald-fanout-candidates', FANOUT_CANDIDATES);

// Progress of a fan-out, stored with each chunk. The event is fanned out once every lane is done. Its
// channels gain those of the chunk's notifications (`channels`; the workflow may have changed since
// the trigger): the activity log's channel filter finds notifications through them.
const PROGRESS = (lanes: string, channels: string) => `
UPDATE events e SET fanout_cursor = jsonb_set(jsonb_set(e.fanout_cursor, '{lanes}', ${lanes}), '{at}', to_jsonb(now())),
  channels = CASE WHEN e.channels @> ${channels}::text[] THEN e.channels ELSE ARRAY(SELECT DISTINCT c FROM unnest(e.channels || ${channels}::text[]) AS c ORDER BY c) END,
  status = CASE WHEN jsonb_path_exists(${lanes}, '$[*] ? (@.done == false)') THEN e.status ELSE 'fanned_out' END,
  fanned_out_at = CASE WHEN jsonb_path_exists(${lanes}, '$[*] ? (@.done == false)') THEN e.fanned_out_at ELSE now() END`;
// Each is conditional on the stored lane being where this chunk started (`from`: same range and
// position, not done): a run that another run of the same fan-out has overtaken commits nothing.
const STARTED_FROM = (lane: string, from: string) =>
  `(${lane})->>'until' = (${from})->>'until' AND (${lane})->>'after' = (${from})->>'after' AND NOT ((${lane})->>'done')::boolean`;
// The only lane is replaced by several.
const splitLanesStatement = prepared(
  'herald-fanout-split',
  `${PROGRESS('$2::jsonb', '$4')}
   WHERE e.id = $1 AND e.status = 'fanning_out' AND jsonb_array_length(e.fanout_cursor->'lanes') = 1
     AND ${STARTED_FROM("e.fanout_cursor->'lanes'->0", '$3::jsonb')}`,
);
// One lane moves on.
const moveLaneStatement = prepared(
  'herald-fanout-move',
  `${PROGRESS("jsonb_set(e.fanout_cursor->'lanes', ARRAY[$2::int::text], $3::jsonb)", '$5')}
   WHERE e.id = $1 AND e.status = 'fanning_out' AND ${STARTED_FROM("e.fanout_cursor->'lanes'->$2::int", '$4::jsonb')}`,
);

/** Trigger acceptance and topic fan-out in set-based SQL: a statement per batch or chunk, not per recipient. */
export class SqlEventRepository implements EventRepository {
  private readonly triggers: TriggerAcceptor;

  constructor(
    private readonly pool: Pool,
    private readonly queue: PgBossDeliveryQueue,
    /** Seals the channel credentials of triggers' subscriber objects, opens those of recipients read. */
    private readonly channels: ChannelCredentialCipher,
    /** The worker process that runs the fan-outs it loads (WorkerRegistry.workerId). */
    private readonly workerId: string | null = null,
  ) {
    this.triggers = new TriggerAcceptor(pool, queue, channels);
  }

  // Triggers name the same few workflows thousands of times a second: a definition is reused for up
  // to a second, so an edit reaches triggers within that time. The triggers that arrive while it is
  // read share that one read: each reading it for itself, the 32 connections of `pnpm bench trigger`
  // read it about 15 times a second instead of once. Unknown identifiers and failed reads are not kept.
  private readonly workflows = new SharedReads<DeliveryWorkflow | null>(WORKFLOW_CACHE_MS, (workflow) => workflow !== null);

  findWorkflow(environmentId: string, identifier: string): Promise<DeliveryWorkflow | null> {
    return this.workflows.get(`${environmentId}/${identifier}`, () => this.loadWorkflow(environmentId, identifier));
  }

  private async loadWorkflow(environmentId: string, identifier: string): Promise<DeliveryWorkflow | null> {
    const byId = isUuid(identifier);
    const { rows } = await this.pool.query(
      `SELECT w.id, w.workflow_id, w.name, w.active, w.critical, w.severity, w.origin, w.tags, w.data, w.payload_schema, w.preferences,
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
      origin: row.origin,
      tags: row.tags,
      data: row.data,
      payloadSchema: row.payload_schema,
      preferences: row.preferences ?? {},
      steps: (row.steps as StepRow[]).map(toDeliveryStep),
    };
  }

  /** Concurrent triggers are group-committed: see TriggerAcceptor. */
  accept(acceptance: TriggerAcceptance, runInline?: RunInline): Promise<AcceptOutcome> {
    return this.triggers.accept(acceptance, runInline);
  }

  async loadFanout(eventId: string): Promise<FanoutEvent | null> {
    // Loading a fan-out to run it makes this process its owner: if it dies, the others resume it at once.
    const { rows } = await this.pool.query(
      `WITH owned AS (UPDATE events SET fanout_owner = $2::uuid WHERE id = $1 AND status = 'fanning_out' AND $2::uuid IS NOT NULL)
       SELECT e.id, e.environment_id, e.transaction_id, e.overrides, e.workflow_id, e.payload, e.context_keys, e.actor, e.fanout_cursor, e.status, e.trace_context
       FROM events e WHERE e.id = $1`,
      [eventId, this.workerId],
    );
    const row = rows[0];
    if (!row) return null;
    const workflow = await this.findWorkflow(row.environment_id, row.workflow_id);
    if (!workflow) {
      // The workflow was deleted while its topic fan-out waited: nothing left to expand.
      await this.pool.query("UPDATE events SET status = 'canceled' WHERE id = $1 AND status = 'fanning_out'", [eventId]);
      return null;
    }
    const cursor = (row.fanout_cursor ?? { topics: [] }) as { topics: FanoutEvent['topics']; lanes?: FanoutLane[]; after?: string | null; direct?: boolean };
    let lanes = cursor.lanes;
    if (!lanes) {
      // Stored before fan-outs had lanes (one cursor over the whole id space): stored again as one lane.
      lanes = [{ ...wholeRange()[0], after: cursor.after ?? FIRST_UUID }];
      await this.pool.query("UPDATE events SET fanout_cursor = jsonb_set(fanout_cursor - 'after', '{lanes}', $2::jsonb) WHERE id = $1 AND NOT fanout_cursor ? 'lanes'", [
        eventId,
        JSON.stringify(lanes),
      ]);
    }
    return {
      id: row.id,
      environmentId: row.environment_id,
      transactionId: row.transaction_id,
      overrides: row.overrides ?? {},
      workflow,
      payload: row.payload,
      contextKeys: row.context_keys,
      topics: cursor.topics,
      actorSubscriberId: row.actor?.subscriberId ?? null,
      directRecipients: cursor.direct ?? true,
      lanes,
      status: row.status,
      traceContext: row.trace_context,
    };
  }

  async fanoutCandidates(event: FanoutEvent, lane: FanoutLane, limit: number): Promise<FanoutCandidate[]> {
    const excluded = event.topics.flatMap((t) => t.exclude.map((subscriberId) => ({ topic_key: t.topicKey, subscriber_id: subscriberId })));
    const { rows } = await this.pool.query(
      candidatesStatement([
        event.environmentId,
        event.topics.map((t) => t.topicKey),
        lane.after,
        event.actorSubscriberId,
        JSON.stringify(excluded),
        limit,
        lane.until,
        event.workflow.id,
      ]),
    );
    return rows.map((r) => ({
      subscriberId: r.subscriber_id,
      notificationId: newRowId(),
      inlineJobId: newRowId(),
      subscriptionId: r.subscription_id,
      topicId: r.topic_id,
      topicKey: r.topic_key,
      preferences: Array.isArray(r.preferences) ? r.preferences : [],
      // Named one by one: spreading the wide row would cost 13 µs a recipient (a fan-out's largest self time).
      recipient: this.channels.attach({
        id: r.subscriber_id,
        subscriberId: r.external_id,
        firstName: r.first_name,
        lastName: r.last_name,
        email: r.email,
        phone: r.phone,
        avatar: r.avatar,
        locale: r.locale,
        timezone: r.timezone,
        data: r.data,
      }, r.s_channels, r.external_id),
      subscriberPreferences: preferenceLevels(r.subscriber_preferences),
    }));
  }

  async fanoutExceeds(event: FanoutEvent, lane: FanoutLane, count: number): Promise<boolean> {
    const { rows } = await this.pool.query<{ exceeds: boolean }>(
      exceedsStatement([event.environmentId, event.topics.map((t) => t.topicKey), lane.after, lane.until, count]),
    );
    return rows[0].exceeds;
  }

  /**
   * Writes a chunk, with the fan-out's progress, in one transaction. A recipient can have a
   * notification for the event already when the trigger also named them directly: then every
   * chunk is inserted skipping those (`ON CONFLICT DO NOTHING`). Otherwise only when another run of
   * the fan-out wrote this chunk first (and then moved the lane on, so this run's progress fails
   * anyway): the chunk is inserted without the check, and, should the unique (event, subscriber)
   * index refuse it, written again with it. The check on every row (`ON CONFLICT DO NOTHING`: a
   * probe of the index before each insert, and a WAL record to confirm each speculative insert) costs
   * a fan-out's chunk inserts about a fifth more buffer hits and a tenth more WAL records.
   */
  async commitFanoutChunk(event: FanoutEvent, accepted: FanoutCandidate[], progress: FanoutProgress, inline: JobOutcome[]): Promise<string[]> {
    const shape = notificationShape(event.workflow);
    const params = accepted.length ? this.chunkParams(event, shape, accepted, inline) : [];
    const write = (skipExisting: boolean) => this.writeChunk(event, shape, accepted, progress, params, skipExisting);
    if (event.directRecipients) return write(true);
    try {
      return await write(false);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return write(true);
    }
  }

  /** The fan-out insert's parameters (see `fanoutInsert`) for a chunk whose first step ran inline as `inline` gave. */
  private chunkParams(event: FanoutEvent, shape: NotificationShape, accepted: FanoutCandidate[], inline: JobOutcome[]): unknown[] {
    const ran = new Map(inline.map((o) => [o.job.notificationId, o]));
    // Every step run inline in a chunk is the same step (the workflow's first, `inlineRunner`).
    const step = inline[0]?.job.step;
    const records = accepted.map((c) => ran.get(c.notificationId));
    const columns = records.map((o) => o && inlineRunColumns(o));
    return [
      arrayParam(accepted.map((c) => c.notificationId), 'uuid'),
      arrayParam(accepted.map((c) => c.subscriberId), 'uuid'),
      arrayParam(accepted.map((c) => c.topicId), 'uuid'),
      arrayParam(accepted.map((c) => c.topicKey), 'text'),
      arrayParam(accepted.map((c) => c.subscriptionId), 'uuid'),
      columnParam(columns.map((c) => c?.inline_job_id), 'uuid'),
      columnParam(columns.map((c) => c?.inline_status), 'text'),
      columnParam(columns.map((c) => c?.inline_provider_id), 'text'),
      columnParam(columns.map((c) => c?.inline_details), 'jsonb'),
      arrayParam(records.map((o) => o?.halt ?? false), 'boolean'),
      event.id,
      shape.channels,
      event.workflow.tags,
      event.workflow.severity,
      event.workflow.critical,
      JSON.stringify(stepsAfter(shape, step?.id)),
      jsonParam(messageTriggerColumns(event)),
      JSON.stringify(step ? inlineStepColumns(step) : {}),
      ...messageContentArrays(records.map((o) => o?.message)),
    ];
  }

  private writeChunk(event: FanoutEvent, shape: NotificationShape, accepted: FanoutCandidate[], progress: FanoutProgress, params: unknown[], skipExisting: boolean): Promise<string[]> {
    return inTransaction(this.pool, async (client) => {
      let written: string[] = [];
      if (accepted.length) {
        const { rows } = await client.query<{ skipped_ids: string[]; queued_ids: string[] }>((skipExisting ? fanoutInsertSkippingStatement : fanoutInsertStatement)(params));
        // The ids of the few not written come back, not the thousand written: parsing those would be 4%
        // of the service's CPU in a fan-out.
        const skipped = new Set(rows[0].skipped_ids);
        written = accepted.map((c) => c.notificationId);
        if (skipped.size) written = written.filter((id) => !skipped.has(id));
        await this.queue.enqueueIn(client, stepsWork(rows[0].queued_ids));
      }
      // Last before the commit: lanes of one fan-out share the event row, and its lock is held from here.
      const moved =
        'split' in progress
          ? await client.query(splitLanesStatement([event.id, JSON.stringify(progress.split), JSON.stringify(progress.from), shape.channels]))
          : await client.query(moveLaneStatement([event.id, progress.index, JSON.stringify(progress.lane), JSON.stringify(progress.from), shape.channels]));
      if (!moved.rowCount) throw new Error(`fan-out of event ${event.id} was moved on by another run; retrying from its stored progress`);
      return written;
    });
  }
}
