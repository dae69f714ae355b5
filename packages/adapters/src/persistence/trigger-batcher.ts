import { wholeRange, type AcceptOutcome, type DeliveryStep, type DeliveryWorkflow, type InlineRecipient, type JobOutcome, type RunInline, type SubscriberInput, type TriggerAcceptance } from '@herald/domain';
import { LRUCache } from 'lru-cache';
import type { Pool, PoolClient } from 'pg';
import { fanoutWork, stepsWork, type PgBossDeliveryQueue } from '../queue/pg-boss-delivery-queue';
import {
  NEW_SUBSCRIBER_COLUMNS,
  newSubscriberValues,
  SUBSCRIBER_CHANGES,
  subscriberChanges,
  subscriberUpdateSet,
  subscriberUpdateSetFrom,
  UPDATED_SUBSCRIBER_JSON,
  upsertSubscribers,
} from './prisma-subscriber-repository';
import { INLINE_STEP_COLUMN_TYPES, columnNames, inlineColumnNames, inlineStepColumnNames, inlineRunColumns, inlineStepColumns, insertMessages, messageContentArrays, messageContentNames, messageContentUnnest, messageWorkflow, notificationShape, preferenceLevels, stepPreferences, stepsAfter, toSubscriber, unnestArrays } from './delivery-rows';
import { arrayParam, columnParam, jsonParam, prepared, textArrayLiteral, type ArrayElementType } from './sql-params';
import { inTransaction } from './transaction';
import { newRowId } from './row-ids';

/** Triggers accepted by one statement at most. */
const MAX_BATCH = 200;
/** Transactions in flight at once; further triggers wait and are accepted together by the next one. */
const MAX_IN_FLIGHT = 4;
/**
 * Triggers that must be waiting before a batch starts while another is in flight. A trigger that
 * finds none in flight goes straight through; under load, waiting a few milliseconds for the batch
 * in flight makes batches of about this size instead of one-trigger batches, and most of a batch's
 * cost is per statement and round trip, not per trigger. Measured with `pnpm bench trigger` (32
 * connections, 2 cores), against starting a batch as soon as a slot was free: batches of about 14
 * triggers instead of 4.5 on average (mostly one), PostgreSQL CPU per trigger 0.37-0.43 ms instead
 * of 0.56-0.78 ms, and 1,800-2,100 triggers/s instead of 1,160-1,630 with a lower p99.
 */
const MIN_BATCH_ALONGSIDE = 16;
/** The longest triggers wait for a batch in flight before they go beside it, however few. */
const MAX_WAIT_MS = 25;
/**
 * Recipients remembered as the inline step read them (`RecipientRead`), at most; the least recently
 * read is forgotten first. A row is typically well under a kilobyte of JSON. The remembered rows'
 * JSON (with the object a read was made with, if any) is bounded in all too (REMEMBERED_CHARS), and
 * a recipient whose read alone is larger (REMEMBERED_CHARS_EACH) is not remembered.
 */
const REMEMBERED_RECIPIENTS = 10_000;
const REMEMBERED_CHARS = 8_000_000;
const REMEMBERED_CHARS_EACH = 16_000;
/** How long a remembered read is used before the recipient is read again. */
const REMEMBER_MS = 60_000;

// Accepts a batch of triggers in one statement. Per trigger: the event (unique per transactionId; a
// reused one, or one repeated in the batch, is not inserted), any subscriber named by id that does
// not exist yet, one notification per recipient and one job per active step. A recipient whose
// first step ran inline (`ran`: by internal subscriber id, with the ids to use) gets its notification
// with that step's record, the step's message, and jobs for the steps after it only (the next queued,
// or all canceled when the step halted). Plus each workflow's
// lastTriggeredAt, at most once a second so concurrent triggers rarely wait on that row's lock.
// Returns per accepted trigger how many notifications it has, those with a job queued, and those run inline.
//
// The input comes as arrays, one per column (`acceptParams`): per trigger ($1-$14, `idx` by
// position), the subscriber ids the triggers name ($16-$17), the recipients their step ran on
// ($18-$25) and those runs' messages (from $26); what a workflow definition gives each of its
// triggers comes once, as a small JSON array ($15, by `def`). The rows were JSON documents, one per
// trigger and one per message: replayed alone on one connection, PostgreSQL spent 36 us per trigger
// reading those two parameters as jsonb and 37 us more taking the rows out of them, of the 120-150 us
// a trigger cost the statement. As arrays, batches of 14 in-app triggers (replayed the same way,
// interleaved with the JSON form, four times) took 2.18-2.48 ms of PostgreSQL's CPU each instead of
// 2.39-2.72 ms: 14-26 us less per trigger.
const TRIGGER_COLUMNS = [
  ['id', 'uuid'],
  ['environment_id', 'uuid'],
  ['workflow_id', 'uuid'],
  ['transaction_id', 'text'],
  ['payload', 'jsonb'],
  ['overrides', 'jsonb'],
  ['"to"', 'jsonb'],
  ['actor', 'jsonb'],
  ['tenant', 'jsonb'],
  // A text[] literal (`textArrayLiteral`), absent when empty (so are topic_keys): an array cannot be an element of one.
  ['context_keys', 'text'],
  // Absent without topics: the event is then fanned out at once.
  ['fanout_cursor', 'jsonb'],
  ['topic_keys', 'text'],
  ['trace_context', 'text'],
  ['def', 'int'],
] as const;
const RAN_COLUMNS = [
  ['idx', 'int'],
  ['subscriber_id', 'uuid'],
  ['notification_id', 'uuid'],
  ['inline_job_id', 'uuid'],
  ['inline_status', 'text'],
  ['inline_provider_id', 'text'],
  ['inline_details', 'jsonb'],
  ['halted', 'boolean'],
  // What the run saw (`RunCheck`): the stored row's version (NULL: not compared) and the preferences.
  ['seen_version', 'text'],
  ['seen_preferences', 'jsonb'],
] as const;
const DEFINITIONS = TRIGGER_COLUMNS.length + 1;
const NAMED = DEFINITIONS + 1;
const RAN = NAMED + 2;
const CREATED_AS = RAN + RAN_COLUMNS.length;
const APPLIED = CREATED_AS + 1;
const MESSAGES = APPLIED + 1;

/**
 * The accept statement (its parameters: `acceptParams`). Objects that left their subscribers as
 * stored (`given`, `applied`) are applied in it with the channels merge only when one of them
 * sets channels (`channels`): two prepared statements, as the merge costs every run that holds it.
 */
const acceptBatch = ({ channels }: { channels: boolean }) => `
WITH defs AS (
  SELECT * FROM jsonb_to_recordset($${DEFINITIONS}::jsonb) AS d(def int, channels text[], tags text[], severity text, critical boolean,
    message_workflow jsonb, ${INLINE_STEP_COLUMN_TYPES}, steps_after_inline boolean, steps jsonb)
), input AS (
  -- Each trigger with its definition's columns, joined here once for every statement below.
  SELECT r.id, r.environment_id, r.workflow_id, r.transaction_id, r.payload, r.overrides, r."to", r.actor, r.tenant,
    COALESCE(r.context_keys::text[], '{}') AS context_keys, r.fanout_cursor, COALESCE(r.topic_keys::text[], '{}') AS topic_keys, r.trace_context,
    (r.ord - 1)::int AS idx, d.def, d.channels, d.tags, d.severity, d.critical, d.message_workflow, ${inlineStepColumnNames('d')}, d.steps_after_inline
  FROM unnest(${unnestArrays(TRIGGER_COLUMNS, 1)}) WITH ORDINALITY AS r(${columnNames(TRIGGER_COLUMNS)}, ord) JOIN defs d ON d.def = r.def
), ev AS (
  INSERT INTO events (id, environment_id, workflow_id, transaction_id, payload, overrides, "to", actor, tenant, context_keys, status, fanout_cursor, fanned_out_at,
    trace_context, channels, topic_keys)
  SELECT id, environment_id, workflow_id, transaction_id, payload, overrides, "to", actor, tenant, context_keys,
         CASE WHEN fanout_cursor IS NULL THEN 'fanned_out' ELSE 'fanning_out' END, fanout_cursor,
         CASE WHEN fanout_cursor IS NULL THEN now() END, trace_context, channels, topic_keys
  FROM input ORDER BY idx
  ON CONFLICT (environment_id, transaction_id) DO NOTHING
  RETURNING id
), acc AS (
  -- The triggers whose event was inserted: by the id chosen for it, a single key. Matched on the
  -- transaction (two columns) with DISTINCT ON, this was estimated at one row, so the planner nested
  -- every later join on it: a batch's recipients were read once per trigger, quadratic in its size.
  SELECT i.*, i.id AS event_id FROM input i WHERE i.id IN (SELECT id FROM ev)
), wanted AS (
  SELECT acc.event_id, acc.environment_id, w.sid FROM unnest($${NAMED}::int[], $${NAMED + 1}::text[]) AS w(idx, sid) JOIN acc ON acc.idx = w.idx
), given AS (
  -- Objects that needed no upsert (they left their subscriber as stored when read: settled; one per
  -- subscriber), of the accepted triggers giving them.
  SELECT o.environment_id, o.e FROM jsonb_to_recordset($${CREATED_AS}::jsonb) AS o(environment_id uuid, e jsonb, idxs int[])
  WHERE EXISTS (SELECT 1 FROM acc WHERE acc.idx = ANY(o.idxs))
), created AS (
  -- Missing subscribers are created. A settled one deleted since (an accepted trigger names it, or
  -- gives its object) is created as its object makes it. One committed by another transaction
  -- meanwhile is invisible to this statement's snapshot (and to \`applied\`): the DO UPDATE returns it
  -- instead of silently skipping it, and applies the object given for it, as if that trigger came
  -- after the other transaction (which it did); with no object it changes nothing.
  INSERT INTO subscribers AS s (environment_id, subscriber_id, ${NEW_SUBSCRIBER_COLUMNS})
  SELECT DISTINCT ON (c.environment_id, c.sid) c.environment_id, c.sid, ${newSubscriberValues('c.e')} FROM (
    SELECT w.environment_id, w.sid, o.e FROM wanted w LEFT JOIN given o ON o.environment_id = w.environment_id AND o.e->>'subscriberId' = w.sid
    UNION ALL
    SELECT o.environment_id, o.e->>'subscriberId', o.e FROM given o
  ) c
  WHERE NOT EXISTS (SELECT 1 FROM subscribers s WHERE s.environment_id = c.environment_id AND s.subscriber_id = c.sid)
  ORDER BY c.environment_id, c.sid, c.e IS NULL
  ON CONFLICT (environment_id, subscriber_id) DO UPDATE
  SET ${subscriberUpdateSetFrom(`(SELECT o.e FROM given o WHERE o.environment_id = s.environment_id AND o.e->>'subscriberId' = s.subscriber_id LIMIT 1)`, { channels })}
  RETURNING id, environment_id, subscriber_id
), applied AS (
  -- A subscriber object that left its recipient as stored when read (just now or remembered), so
  -- that no upsert follows (\`SettlingObject\`): applied here if the row has changed since (the run
  -- on it is then refused) and a trigger giving the object is accepted.
  UPDATE subscribers s SET ${subscriberUpdateSet({ channels })}
  FROM jsonb_to_recordset($${APPLIED}::jsonb) AS i(environment_id uuid, e jsonb, seen_version text, idxs int[])
  WHERE s.environment_id = i.environment_id AND s.subscriber_id = i.e->>'subscriberId' AND ${rowVersion('s')} <> i.seen_version
    AND ${subscriberChanges({ channels })} AND EXISTS (SELECT 1 FROM acc WHERE acc.idx = ANY(i.idxs))
), recipients AS (
  SELECT w.event_id, s.id, s.subscriber_id FROM wanted w
  JOIN subscribers s ON s.environment_id = w.environment_id AND s.subscriber_id = w.sid
  UNION ALL
  SELECT w.event_id, c.id, c.subscriber_id FROM wanted w
  JOIN created c ON c.environment_id = w.environment_id AND c.subscriber_id = w.sid
), ran AS (
  -- Each run with its message's content, if it made one (a NULL channel: none). A run counts only if
  -- the recipient's preferences, and its stored row when compared (\`RunCheck\`), are still as it saw
  -- them; otherwise its notification is written as not run, its step queued.
  SELECT acc.event_id, x.subscriber_id, x.notification_id, x.inline_job_id, ${inlineStepColumnNames('acc')}, x.inline_status, x.inline_provider_id,
         x.inline_details, x.halted, ${messageContentNames('x')}
  FROM unnest(${unnestArrays(RAN_COLUMNS, RAN)}, ${messageContentUnnest(MESSAGES)}) AS x(${columnNames(RAN_COLUMNS)}, ${messageContentNames()})
  JOIN acc ON acc.idx = x.idx
  WHERE ${stepPreferences('x.subscriber_id', 'acc.workflow_id')} IS NOT DISTINCT FROM x.seen_preferences
    AND (x.seen_version IS NULL
      OR EXISTS (SELECT 1 FROM subscribers s WHERE s.id = x.subscriber_id AND s.environment_id = acc.environment_id AND ${rowVersion('s')} = x.seen_version))
), notif AS (
  INSERT INTO notifications (id, environment_id, event_id, workflow_id, subscriber_id, transaction_id, channels, "to", tags, severity, critical, context_keys,
    ${inlineColumnNames()})
  SELECT COALESCE(ran.notification_id, uuidv7()), acc.environment_id, acc.event_id, acc.workflow_id, r.id, acc.transaction_id, acc.channels,
         jsonb_build_object('subscriberId', r.subscriber_id), acc.tags, acc.severity, acc.critical, acc.context_keys,
         ${inlineColumnNames('ran')}
  FROM recipients r JOIN acc ON acc.event_id = r.event_id
  LEFT JOIN ran ON ran.event_id = r.event_id AND ran.subscriber_id = r.id
  RETURNING id, environment_id, subscriber_id, event_id, inline_job_id IS NOT NULL AS ran
), written AS (
  SELECT n.*, COALESCE(ran.halted, false) AS halted FROM notif n LEFT JOIN ran ON ran.notification_id = n.id
), jobs AS (
  -- A definition's job template lists its steps twice: all its active ones (not after_inline), for
  -- a notification whose step did not run inline, and those after the step run inline, for one whose step did.
  INSERT INTO jobs (environment_id, notification_id, subscriber_id, workflow_step_id, step_id, type, position, status)
  SELECT n.environment_id, n.id, n.subscriber_id, st.id, st.step_id, st.type, st.position,
         CASE WHEN n.halted THEN 'canceled' WHEN st.ord = 0 THEN 'queued' ELSE 'pending' END
  FROM written n JOIN acc ON acc.event_id = n.event_id
  JOIN (SELECT d.def, st.* FROM defs d CROSS JOIN LATERAL jsonb_to_recordset(d.steps) AS st(after_inline boolean, id uuid, step_id text, type text, position int, ord int)) st
    ON st.def = acc.def AND st.after_inline = n.ran
), messages AS (
  ${insertMessages(
    {
      messages: `SELECT notification_id, inline_job_id AS job_id, subscriber_id, ${messageContentNames()} FROM ran WHERE channel IS NOT NULL`,
      triggers: `SELECT n.id AS notification_id, acc.environment_id, acc.transaction_id, acc.tags, acc.message_workflow AS workflow, acc.severity, acc.context_keys
    FROM written n JOIN acc ON acc.event_id = n.event_id WHERE n.ran`,
    },
    'true',
    true,
  )}
), touched AS (
  UPDATE workflows SET last_triggered_at = now()
  WHERE id IN (SELECT workflow_id FROM acc) AND (last_triggered_at IS NULL OR last_triggered_at < now() - interval '1 second')
)
SELECT acc.idx, acc.event_id, count(n.id)::int AS notifications,
       COALESCE(array_agg(n.id) FILTER (WHERE NOT n.ran OR (NOT n.halted AND acc.steps_after_inline)), '{}') AS queued_ids,
       COALESCE(array_agg(n.id) FILTER (WHERE n.ran), '{}') AS inline_ids
FROM acc LEFT JOIN written n ON n.event_id = acc.event_id
GROUP BY acc.idx, acc.event_id`;

// The direct recipients of triggers that run a step inline, with their preferences for the trigger's
// workflow: as stored, or, for one the batch gives an object for ($2, at most one per subscriber), as
// upserting that object will leave it; and whether each of the batch's objects for it ($3, one by
// one) leaves it as stored (`unchanged`; NULL: none). A subscriber that does not exist yet is not returned.
// With the stored row's version (`rowVersion`), which the accept statement compares (`RunCheck`).
const INLINE_RECIPIENTS = `
SELECT r.idx, i.e IS NOT NULL AS folded, ${rowVersion('s')} AS row_version,
  (SELECT bool_and(NOT ${SUBSCRIBER_CHANGES}) FROM jsonb_to_recordset($3::jsonb) AS i(environment_id uuid, e jsonb)
   WHERE i.environment_id = s.environment_id AND i.e->>'subscriberId' = s.subscriber_id) AS unchanged,
  CASE WHEN i.e IS NULL THEN row_to_json(s.*) ELSE (${UPDATED_SUBSCRIBER_JSON})::json END AS subscriber,
  ${stepPreferences('s.id', 'r.workflow_id')} AS preferences
FROM jsonb_to_recordset($1::jsonb) AS r(idx int, environment_id uuid, workflow_id uuid, subscriber_ids text[])
CROSS JOIN LATERAL unnest(r.subscriber_ids) AS sid
JOIN subscribers s ON s.environment_id = r.environment_id AND s.subscriber_id = sid
LEFT JOIN jsonb_to_recordset($2::jsonb) AS i(environment_id uuid, e jsonb) ON i.environment_id = s.environment_id AND i.e->>'subscriberId' = s.subscriber_id`;

// Of the subscribers steps ran on as objects would leave them ($1: each as a step saw it), the ones
// stored otherwise now that the objects are applied (their version, update time and presence aside:
// no step reads them, `StepSubscriber`). An Inbox connecting or leaving sets the presence, and so
// moves the version on: compared, it sent such a trigger's batch to be accepted again one by one.
const CHANGED_SUBSCRIBERS = `
SELECT s.subscriber_id FROM jsonb_to_recordset($1::jsonb) AS r(environment_id uuid, subscriber jsonb)
JOIN subscribers s ON s.environment_id = r.environment_id AND s.id = (r.subscriber->>'id')::uuid
WHERE to_jsonb(s.*) - '{version,updated_at,is_online,last_online_at}'::text[]
  IS DISTINCT FROM r.subscriber - '{version,updated_at,is_online,last_online_at}'::text[]`;

/**
 * SQL: a version of subscriber row `s` that any write of it changes: the row version's transaction id
 * (`xmin`; every write makes a new row version), with its update time, in case a transaction id is
 * handed out again (a database restored, or failed over to a standby that lost commits).
 */
function rowVersion(s: string): string {
  return `${s}.xmin::text || '/' || extract(epoch FROM ${s}.updated_at)::text`;
}

const inlineRecipientsStatement = prepared('herald-inline-recipients', INLINE_RECIPIENTS);
const changedSubscribersStatement = prepared('herald-changed-subscribers', CHANGED_SUBSCRIBERS);
const acceptStatement = prepared('herald-accept-triggers', acceptBatch({ channels: false }));
const acceptWithChannelsStatement = prepared('herald-accept-triggers-channels', acceptBatch({ channels: true }));

interface Pending {
  acceptance: TriggerAcceptance;
  /** Chosen here, so a retry can tell this trigger's own earlier commit from someone else's event. */
  eventId: string;
  runInline?: RunInline;
  /**
   * The notification and inline job ids of each recipient run inline (by internal subscriber id),
   * chosen once: a retry reuses them, so it can tell which of its outcomes an earlier commit wrote.
   */
  inlineIds: Map<string, { notificationId: string; inlineJobId: string }>;
  resolve(outcome: AcceptOutcome): void;
  reject(error: unknown): void;
}

/**
 * The accept statement's parameters (see `acceptBatch`) for a batch whose steps run inline gave
 * `ran` (per trigger). Triggers given the same workflow object (the cached read) share a definition:
 * its columns, job template and inline step go once.
 */
function acceptParams(
  batch: Pick<Pending, 'acceptance' | 'eventId'>[],
  ran: Map<number, JobOutcome[]>,
  createdAs: SettledObject[] = [],
  checks: RunChecks = new Map(),
  applied: SettlingObject[] = [],
): unknown[] {
  const definitions = new Map<DeliveryWorkflow, { def: number; inlineStep?: DeliveryStep }>();
  const defs = batch.map(({ acceptance: a }, idx) => {
    let definition = definitions.get(a.workflow);
    if (!definition) definitions.set(a.workflow, (definition = { def: definitions.size }));
    // Every trigger of a definition runs the same step inline: its first active one (`inlineRunner`).
    definition.inlineStep ??= ran.get(idx)?.[0]?.job.step;
    return definition.def;
  });
  const column = (value: (a: TriggerAcceptance, eventId: string) => unknown, type: ArrayElementType) =>
    columnParam(batch.map((p) => value(p.acceptance, p.eventId)), type);
  const textArray = (list: readonly string[]) => (list.length ? textArrayLiteral(list) : null);
  const runs = [...ran].flatMap(([idx, outcomes]) => outcomes.map((o) => ({ idx, o, run: inlineRunColumns(o), seen: checks.get(runKey(idx, o.job.subscriber.id)) })));
  const named = batch.flatMap(({ acceptance: a }, idx) => a.recipients.subscriberIds.map((sid) => ({ idx, sid })));
  return [
    column((_, eventId) => eventId, 'uuid'),
    column((a) => a.environmentId, 'uuid'),
    column((a) => a.workflow.id, 'uuid'),
    column((a) => a.transactionId, 'text'),
    column((a) => a.payload, 'jsonb'),
    column((a) => a.overrides, 'jsonb'),
    column((a) => a.to, 'jsonb'),
    column((a) => a.actor, 'jsonb'),
    column((a) => a.tenant, 'jsonb'),
    column((a) => textArray(a.contextKeys), 'text'),
    column((a) => (a.recipients.topics.length ? { topics: a.recipients.topics, lanes: wholeRange(), direct: a.recipients.subscriberIds.length > 0 } : null), 'jsonb'),
    column((a) => textArray([...new Set(a.recipients.topics.map((t) => t.topicKey))]), 'text'),
    column((a) => a.traceContext, 'text'),
    arrayParam(defs, 'int'),
    jsonParam(
      [...definitions].map(([workflow, { def, inlineStep }]) => {
        const shape = notificationShape(workflow);
        const after = stepsAfter(shape, inlineStep?.id);
        return {
          def,
          channels: shape.channels,
          tags: workflow.tags,
          severity: workflow.severity,
          critical: workflow.critical,
          message_workflow: messageWorkflow(workflow),
          ...(inlineStep && inlineStepColumns(inlineStep)),
          steps_after_inline: after.length > 0,
          steps: [...shape.steps.map((st) => ({ ...st, after_inline: false })), ...after.map((st) => ({ ...st, after_inline: true }))],
        };
      }),
    ),
    arrayParam(named.map((n) => n.idx), 'int'),
    arrayParam(named.map((n) => n.sid), 'text'),
    arrayParam(runs.map((r) => r.idx), 'int'),
    arrayParam(runs.map((r) => r.o.job.subscriber.id), 'uuid'),
    arrayParam(runs.map((r) => r.o.job.notificationId), 'uuid'),
    arrayParam(runs.map((r) => r.run.inline_job_id), 'uuid'),
    arrayParam(runs.map((r) => r.run.inline_status), 'text'),
    columnParam(runs.map((r) => r.run.inline_provider_id), 'text'),
    columnParam(runs.map((r) => r.run.inline_details), 'jsonb'),
    arrayParam(runs.map((r) => r.o.halt ?? false), 'boolean'),
    columnParam(runs.map((r) => r.seen?.version), 'text'),
    columnParam(runs.map((r) => r.seen?.preferences), 'jsonb'),
    jsonParam(createdAs),
    jsonParam(applied),
    ...messageContentArrays(runs.map((r) => r.o.message)),
  ];
}

/** A step run on a subscriber as the batch's objects would leave it: a change of plan if they are not applied as seen. */
class SubscriberChanged extends Error {}

/** A subscriber's key in the batch's sets of subscribers (unfoldable, settled): its environment and subscriberId. */
const subscriberKey = (environmentId: string, subscriberId: string) => `${environmentId}/${subscriberId}`;

/** A subscriber object of a trigger, with its environment (as the statements read them). */
type SubscriberObject = { environment_id: string; e: SubscriberInput };

/** A settled subscriber's object (folded: `folds`), with the triggers giving it (by index in the batch). */
type SettledObject = SubscriberObject & { idxs: number[] };

/**
 * A recipient as the inline step read it (`INLINE_RECIPIENTS`) for one workflow: its row (as JSON),
 * the row's version, and its preferences for the workflow. Remembered, so that later batches
 * triggering the workflow for it run the step without reading it again (`RunCheck`). Under
 * `pnpm bench trigger`'s load (one recipient), skipping the read saved a round trip of about 2 ms per batch.
 */
interface RecipientRead {
  subscriber: Record<string, unknown>;
  preferences: Parameters<typeof preferenceLevels>[0];
  version: string;
}

/**
 * A subscriber object that a batch takes as leaving its recipient as stored (the one object every
 * trigger of the batch gives for it, as a read with it found: just now, or remembered,
 * `RecipientRead`), with the row version that read saw and the triggers giving it (by index in the
 * batch): the accept statement applies it if the row has changed since (`applied`).
 */
type SettlingObject = { environment_id: string; e: SubscriberInput; seen_version: string; idxs: number[] };

/**
 * What a run saw, which the accept statement compares with what is stored (`ran`): it writes the run
 * only if the recipient's preferences are the same and, unless `version` is null, so is its row;
 * otherwise it queues the step. A read just now may be a few milliseconds old, a remembered one up
 * to REMEMBER_MS. The row is not compared for a recipient just read as objects that change it leave
 * it: the transaction compares it after the upsert (`CHANGED_SUBSCRIBERS`), ignoring its presence.
 * Any other write of the row refuses the run, presence included. `key`: where the read is
 * remembered, to be forgotten when the run is refused.
 */
type RunCheck = { version: string | null; preferences: RecipientRead['preferences']; key?: string };

/** Per trigger and recipient (`runKey`), the check of its run. */
type RunChecks = Map<string, RunCheck>;

const runKey = (idx: number, subscriberRowId: string) => `${idx}/${subscriberRowId}`;

/** Per trigger of a batch, the subscribers (as JSON rows) its step saw as objects would leave them, with the runs' notification ids. */
type SeenSubscribers = Map<number, { environment_id: string; subscriber: Record<string, unknown>; notificationId: string }[]>;

/**
 * One subscriber's objects, in order, folded into as few as leave it the same when applied one after
 * the other: a later object's fields replace an earlier one's, except that two objects with
 * `channels` stay apart (each merges its channel settings into the stored ones).
 */
function folded(objects: SubscriberInput[]): SubscriberInput[] {
  const out: SubscriberInput[] = [];
  for (const object of objects) {
    const last = out[out.length - 1];
    if (!last || (last.channels !== undefined && object.channels !== undefined)) out.push({ ...object });
    else for (const [field, value] of Object.entries(object)) if (value !== undefined) Object.assign(last, { [field]: value });
  }
  return out;
}

/** Objects for subscribers of one environment, by subscriberId, each subscriber's `folded`. */
function foldedPerSubscriber(objects: SubscriberInput[]): Map<string, SubscriberInput[]> {
  const bySubscriber = new Map<string, SubscriberInput[]>();
  for (const object of objects) bySubscriber.set(object.subscriberId, [...(bySubscriber.get(object.subscriberId) ?? []), object]);
  return new Map([...bySubscriber].map(([subscriberId, list]) => [subscriberId, folded(list)]));
}

/**
 * Subscriber objects as rounds of at most one object per subscriber (one upsert statement each):
 * applied round by round, the objects of triggers accepted together leave each subscriber as if the
 * triggers had come one after the other (one statement alone keeps only a subscriber's last object).
 */
function inTurn(objects: SubscriberInput[]): SubscriberInput[][] {
  const rounds: SubscriberInput[][] = [];
  for (const list of foldedPerSubscriber(objects).values()) list.forEach((object, round) => (rounds[round] ??= []).push(object));
  return rounds;
}

/** The subscriber objects of the batch's triggers that `counts` keeps, per environment, in batch order. */
function objectsPerEnvironment(batch: Pending[], counts: (idx: number) => boolean): Map<string, SubscriberInput[]> {
  const objects = new Map<string, SubscriberInput[]>();
  batch.forEach(({ acceptance: a }, idx) => {
    if (counts(idx) && a.upserts.length) objects.set(a.environmentId, [...(objects.get(a.environmentId) ?? []), ...a.upserts]);
  });
  return objects;
}

/** Whether an upsert changes what a step sees: `{ subscriberId }` alone (a common way to name a recipient) does not. */
function setsAttributes(input: SubscriberInput): boolean {
  return Object.entries(input).some(([key, value]) => key !== 'subscriberId' && value !== undefined);
}

/** Whether a trigger's write can leave queue work: anything not run inline, or run inline with steps after it. */
function queuesWork({ acceptance: a }: Pending, ran: JobOutcome[] = []): boolean {
  if (a.recipients.topics.length || ran.length < a.recipients.subscriberIds.length) return true;
  return notificationShape(a.workflow).steps.length > 1 && ran.some((o) => !o.halt);
}

/**
 * Group commit for triggers: concurrent triggers are accepted together, one transaction (one
 * statement, one queue insert, one WAL flush) for many, so throughput grows with load while a lone
 * trigger still goes straight through. Each caller gets its own outcome only after the commit.
 * A batch whose triggers run their only step inline leaves no queue work: its one statement commits
 * on its own, with no transaction around it (a run the statement refuses, `RunCheck`, is queued after it).
 */
export class TriggerBatcher {
  private readonly waiting: Pending[] = [];
  private inFlight = 0;
  /** Set while triggers wait for a batch in flight: when it fires, they go whatever their number. */
  private waitLimit: NodeJS.Timeout | undefined;
  /** By environment, workflow and subscriberId. */
  private readonly reads = new LRUCache<string, RecipientRead>({
    max: REMEMBERED_RECIPIENTS,
    ttl: REMEMBER_MS,
    maxSize: REMEMBERED_CHARS,
    maxEntrySize: REMEMBERED_CHARS_EACH,
    // A key names the object it was read with (`objectKey`): counted too.
    sizeCalculation: (read, key) => JSON.stringify(read).length + key.length,
  });

  constructor(
    private readonly pool: Pool,
    private readonly queue: PgBossDeliveryQueue,
    /** The longest a trigger waits for a batch in flight (one held up by a lock, say) before it goes beside it. */
    private readonly maxWaitMs = MAX_WAIT_MS,
  ) {}

  accept(acceptance: TriggerAcceptance, runInline?: RunInline): Promise<AcceptOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ acceptance, eventId: newRowId(), runInline, inlineIds: new Map(), resolve, reject });
      this.pump();
    });
  }

  private pump(waitedEnough = false): void {
    while (this.waiting.length && this.inFlight < MAX_IN_FLIGHT && (this.inFlight === 0 || waitedEnough || this.waiting.length >= MIN_BATCH_ALONGSIDE)) {
      clearTimeout(this.waitLimit);
      this.waitLimit = undefined;
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
    if (this.waiting.length && !this.waitLimit) {
      this.waitLimit = setTimeout(() => {
        this.waitLimit = undefined;
        this.pump(true);
      }, this.maxWaitMs);
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.write(batch);
      batch.forEach((p, i) => p.resolve(outcomes[i]));
    } catch {
      // One bad trigger must not fail the others: accept them one by one to isolate it. The batch
      // may have committed after all (its reply lost): a trigger whose own event exists is answered
      // as accepted, not as a duplicate. A lone trigger is tried again the same way, and once more
      // without its inline step if the subscriber it ran on changed meanwhile.
      for (const p of batch) {
        await this.write([p], true)
          .catch((error: unknown) => (error instanceof SubscriberChanged ? this.write([{ ...p, runInline: undefined }], true) : Promise.reject(error)))
          .then(([o]) => p.resolve(o), p.reject);
      }
    }
  }

  private async write(batch: Pending[], retry = false): Promise<AcceptOutcome[]> {
    const { ran, seen, settled, createdAs, checks, applied } = await this.runInline(batch);
    const params = acceptParams(batch, ran, createdAs, checks, applied);
    const statement = [...createdAs, ...applied].some(({ e }) => e.channels !== undefined) ? acceptWithChannelsStatement(params) : acceptStatement(params);
    // A subscriber object that leaves its subscriber as stored needs no upsert: such a trigger is
    // written by one statement, as one naming its recipient by id is (Novu skips that update too).
    const applies = ({ acceptance: a }: Pending) => a.upserts.some((u) => !settled.has(subscriberKey(a.environmentId, u.subscriberId)));
    if (!retry && batch.every((p, idx) => !applies(p) && !queuesWork(p, ran.get(idx)))) {
      const { rows } = await this.pool.query<AcceptedRow>(statement);
      this.forgetChanged(rows, ran, checks);
      // Only when a recipient changed (or was deleted and created again) since the step read it. Queued
      // after the commit: if this is lost, the stalled-work sweep queues the step.
      const queued = rows.flatMap((r) => r.queued_ids);
      if (queued.length) await this.queue.enqueue(stepsWork(queued));
      return this.outcomes(batch, rows, ran, new Map());
    }
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<AcceptedRow>(statement);
      this.forgetChanged(rows, ran, checks);
      const accepted = new Set(rows.map((r) => r.idx));
      const committedBefore = retry ? await this.ownEvents(client, batch.filter((_, idx) => !accepted.has(idx))) : new Map<string, OwnEvent>();
      // Subscriber objects of accepted triggers only: an ignored trigger changes nothing.
      for (const [environmentId, subscribers] of objectsPerEnvironment(batch, (idx) => accepted.has(idx))) {
        for (const round of inTurn(subscribers)) await upsertSubscribers(client, environmentId, round);
      }
      // The subscribers accepted triggers' steps ran on as objects would leave them must now be stored
      // so: not if another request changed one since it was read, or a trigger giving an object was a
      // duplicate (its object is not applied). Then accepted again one by one, each step on the stored row.
      // Only the runs the statement kept (`RunCheck`): a refused one is queued, and rendered nothing.
      const kept = new Set(rows.flatMap((r) => r.inline_ids));
      const seenByAccepted = [...seen].flatMap(([idx, subscribers]) =>
        accepted.has(idx) ? subscribers.filter((s) => kept.has(s.notificationId)).map(({ environment_id, subscriber }) => ({ environment_id, subscriber })) : [],
      );
      if (seenByAccepted.length) {
        const { rows: changed } = await client.query(changedSubscribersStatement([jsonParam(seenByAccepted)]));
        if (changed.length) throw new SubscriberChanged(`subscriber ${changed[0].subscriber_id} is not as a step saw it`);
      }
      await this.queue.enqueueIn(client, [
        ...stepsWork(rows.flatMap((r) => r.queued_ids)),
        ...fanoutWork(rows.filter((r) => batch[r.idx].acceptance.recipients.topics.length).map((r) => r.event_id)),
      ]);
      return this.outcomes(batch, rows, ran, committedBefore);
    });
  }

  /** Forgets the remembered reads that accepted triggers' runs were not written on: the subscriber or its preferences changed. */
  private forgetChanged(rows: AcceptedRow[], ran: Map<number, JobOutcome[]>, checks: RunChecks): void {
    for (const { idx, inline_ids } of rows) {
      for (const { job } of ran.get(idx) ?? []) {
        const key = checks.get(runKey(idx, job.subscriber.id))?.key;
        if (key && !inline_ids.includes(job.notificationId)) this.reads.delete(key);
      }
    }
  }

  private outcomes(batch: Pending[], rows: AcceptedRow[], ran: Map<number, JobOutcome[]>, committedBefore: Map<string, OwnEvent>): AcceptOutcome[] {
    const accepted = new Map(rows.map((r) => [r.idx, r]));
    const written = (idx: number, ids: string[]) => ran.get(idx)?.filter((o) => ids.includes(o.job.notificationId)) ?? [];
    return batch.map((p, idx): AcceptOutcome => {
      const r = accepted.get(idx);
      if (r) return { accepted: true, eventId: r.event_id, notifications: r.notifications, inline: written(idx, r.inline_ids) };
      const earlier = committedBefore.get(p.eventId);
      // Committed by an earlier attempt with the same ids: its inline outcomes are reported now.
      return earlier ? { accepted: true, eventId: p.eventId, notifications: earlier.notifications, inline: written(idx, earlier.inline_ids) } : { accepted: false, reason: 'duplicate_transaction' };
    });
  }

  /**
   * Reads the direct recipients of the triggers that run a step inline (the ones that exist: as stored,
   * or as the objects the batch gives for them will leave them; a subscriber whose objects do not fold
   * into one is left to its jobs) and runs the step for them. A trigger whose run fails keeps the
   * queued path for all its recipients. Returns the outcomes per trigger, per trigger the
   * subscribers its step saw as objects would leave them (as JSON rows), the subscribers read
   * (`environmentId/subscriberId`) that the batch's objects leave as stored (`settled`), and per run
   * what the accept statement must find unchanged (`RunCheck`). A recipient is read only when not
   * remembered (`RecipientRead`): as stored, when no object of the batch changes it, or with the one
   * object every trigger of the batch gives for it, when that object left it as stored (then
   * returned in `applied`).
   */
  private async runInline(
    batch: Pending[],
  ): Promise<{ ran: Map<number, JobOutcome[]>; seen: SeenSubscribers; settled: Set<string>; createdAs: SettledObject[]; checks: RunChecks; applied: SettlingObject[] }> {
    // A trigger repeating an earlier one's transactionId in the batch is not accepted: its objects do not count.
    const transactions = new Set<string>();
    const first = new Set(
      batch.flatMap(({ acceptance: a }, idx) => {
        const transaction = `${a.environmentId}/${a.transactionId}`;
        if (transactions.has(transaction)) return [];
        transactions.add(transaction);
        return [idx];
      }),
    );
    // The objects setting something (objects setting nothing but the subscriberId change no field),
    // of the triggers that count. Each on its own (`each`): whether a subscriber is `settled` (every
    // object leaves it as stored, so any of them does, whichever triggers are accepted) is asked of
    // each, not of their fold. Per subscriber, the triggers giving them (`givers`, by index in the
    // batch), and the object as JSON if every one of them gives the same (`objectOf`; null otherwise).
    const each: SubscriberObject[] = [];
    const givers = new Map<string, number[]>();
    const objectOf = new Map<string, { e: SubscriberInput; json: string } | null>();
    const setting = new Map<string, SubscriberInput[]>();
    batch.forEach(({ acceptance: a }, idx) => {
      if (!first.has(idx)) return;
      for (const e of a.upserts.filter(setsAttributes)) {
        const key = subscriberKey(a.environmentId, e.subscriberId);
        each.push({ environment_id: a.environmentId, e });
        setting.set(a.environmentId, [...(setting.get(a.environmentId) ?? []), e]);
        givers.set(key, [...(givers.get(key) ?? []), idx]);
        const json = JSON.stringify(e);
        const known = objectOf.get(key);
        if (known === undefined) objectOf.set(key, { e, json });
        else if (known?.json !== json) objectOf.set(key, null);
      }
    });
    // Per subscriber, the one object that stands for all the batch gives, in batch order.
    const folds: SubscriberObject[] = [];
    const unfoldable = new Set<string>();
    for (const [environment_id, objects] of setting) {
      for (const [subscriberId, [e, ...more]] of foldedPerSubscriber(objects)) {
        if (more.length) unfoldable.add(subscriberKey(environment_id, subscriberId));
        else folds.push({ environment_id, e });
      }
    }
    const wanted = batch.flatMap(({ acceptance: a, runInline }, idx) => {
      if (!runInline) return [];
      const ids = a.recipients.subscriberIds.filter((id) => !unfoldable.has(subscriberKey(a.environmentId, id)));
      return ids.length ? [{ idx, environment_id: a.environmentId, workflow_id: a.workflow.id, subscriber_ids: ids }] : [];
    });
    const seen: SeenSubscribers = new Map();
    const settled = new Set<string>();
    const checks: RunChecks = new Map();
    const applied = new Map<string, SettlingObject>();
    if (!wanted.length) return { ran: new Map(), seen, settled, createdAs: [], checks, applied: [] };
    // NUL separates the parts: no subscriberId holds one (see jsonParam).
    const readKey = (environmentId: string, workflowId: string, sid: string) => `${environmentId}\0${workflowId}\0${sid}`;
    /** Where a read of the recipient with the batch's one object for it is remembered. */
    const objectKey = (key: string, object: { json: string }) => `${key}\0${object.json}`;
    // A recipient given an object is taken from memory only if it is remembered for every trigger
    // running a step on it: otherwise all of them read it, so that its rows agree (one read).
    const remembered = new Map<string, RecipientRead>();
    const fromMemory = new Map<string, boolean>();
    for (const w of wanted) {
      for (const sid of w.subscriber_ids) {
        const subscriber = subscriberKey(w.environment_id, sid);
        const object = objectOf.get(subscriber);
        if (object === undefined) continue;
        const key = object && objectKey(readKey(w.environment_id, w.workflow_id, sid), object);
        const read = key ? this.reads.get(key) : undefined;
        if (read) remembered.set(key!, read);
        fromMemory.set(subscriber, (fromMemory.get(subscriber) ?? true) && !!read);
      }
    }
    type Row = { idx: number; folded: boolean; unchanged: boolean | null; key?: string } & RecipientRead;
    const rows: Row[] = [];
    const unread = wanted.flatMap((w) => {
      const ids = w.subscriber_ids.filter((sid) => {
        const key = readKey(w.environment_id, w.workflow_id, sid);
        const subscriber = subscriberKey(w.environment_id, sid);
        const object = objectOf.get(subscriber);
        if (object === undefined) {
          const read = this.reads.get(key);
          if (read) rows.push({ idx: w.idx, folded: false, unchanged: null, key, ...read });
          return !read;
        }
        // The batch's objects may leave it otherwise than remembered as stored: forgotten.
        this.reads.delete(key);
        const read = object && fromMemory.get(subscriber) ? remembered.get(objectKey(key, object)) : undefined;
        if (!object || !read) return true;
        rows.push({ idx: w.idx, folded: true, unchanged: true, key: objectKey(key, object), ...read });
        return false;
      });
      return ids.length ? [{ ...w, subscriber_ids: ids }] : [];
    });
    if (unread.length) {
      const { rows: read } = await this.pool.query<Omit<Row, 'version'> & { row_version: string }>(
        inlineRecipientsStatement([jsonParam(unread), jsonParam(folds), jsonParam(each)]),
      );
      for (const { row_version: version, ...r } of read) {
        const { acceptance: a } = batch[r.idx];
        const subscriberId = r.subscriber.subscriber_id as string;
        const stored = readKey(a.environmentId, a.workflow.id, subscriberId);
        // Remembered as stored (given no object), or as the batch's one object for it leaves it when that is as stored.
        const object = objectOf.get(subscriberKey(a.environmentId, subscriberId));
        const key = object === undefined ? stored : object && r.unchanged === true ? objectKey(stored, object) : undefined;
        if (key) this.reads.set(key, { subscriber: r.subscriber, preferences: r.preferences, version });
        rows.push({ ...r, version, key });
      }
    }
    const recipients = new Map<number, InlineRecipient[]>();
    for (const r of rows) {
      const { acceptance: a, inlineIds } = batch[r.idx];
      const subscriber = subscriberKey(a.environmentId, r.subscriber.subscriber_id as string);
      const object = objectOf.get(subscriber);
      // Settled (no upsert): stored, and given no object that sets anything, or one object (however
      // many triggers give it) that leaves it as it is. The statement compares its row with the one
      // the step saw and, if it changed meanwhile, applies the object (`applied`) and queues the step.
      const settles = r.unchanged === null || (r.unchanged === true && !!object);
      if (settles) settled.add(subscriber);
      if (r.folded && settles) applied.set(subscriber, { environment_id: a.environmentId, e: object!.e, seen_version: r.version, idxs: givers.get(subscriber)! });
      const recipient = toSubscriber(r.subscriber);
      checks.set(runKey(r.idx, recipient.id), { version: r.folded && !settles ? null : r.version, preferences: r.preferences, key: r.key });
      const ids = inlineIds.get(recipient.id) ?? { notificationId: newRowId(), inlineJobId: newRowId() };
      inlineIds.set(recipient.id, ids);
      if (r.folded) seen.set(r.idx, [...(seen.get(r.idx) ?? []), { environment_id: a.environmentId, subscriber: r.subscriber, notificationId: ids.notificationId }]);
      const list = recipients.get(r.idx) ?? [];
      list.push({ ...ids, recipient, subscriberPreferences: preferenceLevels(r.preferences) });
      recipients.set(r.idx, list);
    }
    const ran = await Promise.all(
      [...recipients].map(async ([idx, list]) => [idx, await batch[idx].runInline!(list, batch[idx].acceptance).catch((): JobOutcome[] => [])] as const),
    );
    const createdAs = folds.flatMap(({ environment_id, e }) => {
      const key = subscriberKey(environment_id, e.subscriberId);
      return settled.has(key) ? [{ environment_id, e, idxs: givers.get(key)! }] : [];
    });
    return { ran: new Map(ran), seen, settled, createdAs, checks, applied: [...applied.values()] };
  }

  /** Of these triggers, the ones whose own event is already stored, with their notification counts and those written with an inline step. */
  private async ownEvents(client: PoolClient, batch: Pending[]): Promise<Map<string, OwnEvent>> {
    if (!batch.length) return new Map();
    const { rows } = await client.query<OwnEvent & { id: string }>(
      `SELECT e.id, count(n.id)::int AS notifications, COALESCE(array_agg(n.id) FILTER (WHERE n.inline_job_id IS NOT NULL), '{}') AS inline_ids
       FROM events e LEFT JOIN notifications n ON n.event_id = e.id WHERE e.id = ANY($1::uuid[]) GROUP BY e.id`,
      [batch.map((p) => p.eventId)],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }
}

interface OwnEvent {
  notifications: number;
  inline_ids: string[];
}

interface AcceptedRow {
  idx: number;
  event_id: string;
  notifications: number;
  queued_ids: string[];
  inline_ids: string[];
}
