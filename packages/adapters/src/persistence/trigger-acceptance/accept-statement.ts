import { columnNames, INLINE_STEP_COLUMN_TYPES, inlineColumnNames, inlineStepColumnNames, insertMessages, messageContentNames, messageContentUnnest, stepPreferences, unnestArrays } from '../delivery-rows';
import { prepared } from '../sql-params';
import { inlineRunEvents } from '../webhook-inline-events';
import { NEW_SUBSCRIBER_COLUMNS, newSubscriberValues, subscriberChanges, subscriberUpdateSet, subscriberUpdateSetFrom } from '../subscriber-sql';
import { ACCEPT_PARAMS, RUN_ARRAY_COLUMNS, TRIGGER_ARRAY_COLUMNS } from './accept-params';
import { rowVersion } from './run-checks';

// Accepts a batch of triggers in one statement. Per trigger: the event (unique per transactionId; a
// reused one, or one repeated in the batch, is not inserted), any subscriber named by id that does
// not exist yet, one notification per recipient and one job per active step. A recipient whose
// first step ran inline (`ran`: by internal subscriber id, with the ids to use) gets its notification
// with that step's record, the step's message, and jobs for the steps after it only (the next queued,
// or all canceled when the step halted), and while an endpoint takes them the outbound events of the
// run (workflow_step.failed; notification.completed when nothing is left to run). Plus each
// workflow's lastTriggeredAt, at most once a second so concurrent triggers rarely wait on that row's lock. Returns per accepted trigger how many
// notifications it has, those with a job queued, and those run inline (`AcceptedRow`).
//
// Its parameters (`ACCEPT_PARAMS`, filled by `acceptParams`): per trigger one array per column
// (`triggers`, `idx` by position), the subscriber ids the triggers name (`namedTriggers`,
// `namedSubscriberIds`), the recipients their step ran on (`runs`) and those runs' messages
// (`messages`); what a workflow definition gives each of its triggers comes once (`definitions`, by `def`).
// In its SQL comments, `settled` is what the code calls left as stored (`InlineRun.leftAsStored`).

/**
 * The accept statement. Objects that left their subscribers as stored (`ObjectIfMissing`,
 * `ObjectIfChanged`) are applied in it with the channels merge only when one of them sets channels
 * (`channels`): two prepared statements, as the merge costs every run that holds it.
 */
const acceptStatementText = ({ channels }: { channels: boolean }) => `
WITH defs AS (
  SELECT * FROM jsonb_to_recordset(${ACCEPT_PARAMS.ref('definitions')}::jsonb) AS d(def int, channels text[], tags text[], severity text, critical boolean,
    message_workflow jsonb, ${INLINE_STEP_COLUMN_TYPES}, steps_after_inline boolean, steps jsonb)
), input AS (
  -- Each trigger with its definition's columns, joined here once for every statement below.
  SELECT r.id, r.environment_id, r.workflow_id, r.transaction_id, r.payload, r.overrides, r."to", r.actor, r.tenant,
    COALESCE(r.context_keys::text[], '{}') AS context_keys, r.fanout_cursor, COALESCE(r.topic_keys::text[], '{}') AS topic_keys, r.trace_context,
    (r.ord - 1)::int AS idx, d.def, d.channels, d.tags, d.severity, d.critical, d.message_workflow, ${inlineStepColumnNames('d')}, d.steps_after_inline
  FROM unnest(${unnestArrays(TRIGGER_ARRAY_COLUMNS, ACCEPT_PARAMS.first('triggers'))}) WITH ORDINALITY AS r(${columnNames(TRIGGER_ARRAY_COLUMNS)}, ord) JOIN defs d ON d.def = r.def
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
  SELECT acc.event_id, acc.environment_id, w.sid FROM unnest(${ACCEPT_PARAMS.ref('namedTriggers')}::int[], ${ACCEPT_PARAMS.ref('namedSubscriberIds')}::text[]) AS w(idx, sid) JOIN acc ON acc.idx = w.idx
), given AS (
  -- Objects that needed no upsert (they left their subscriber as stored when read: settled; one per
  -- subscriber), of the accepted triggers giving them.
  SELECT o.environment_id, o.e FROM jsonb_to_recordset(${ACCEPT_PARAMS.ref('objectsIfMissing')}::jsonb) AS o(environment_id uuid, e jsonb, idxs int[])
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
  -- that no upsert follows (\`ObjectIfChanged\`): applied here if the row has changed since (the run
  -- on it is then refused) and a trigger giving the object is accepted.
  UPDATE subscribers s SET ${subscriberUpdateSet({ channels })}
  FROM jsonb_to_recordset(${ACCEPT_PARAMS.ref('objectsIfChanged')}::jsonb) AS i(environment_id uuid, e jsonb, seen_version text, idxs int[])
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
  FROM unnest(${unnestArrays(RUN_ARRAY_COLUMNS, ACCEPT_PARAMS.first('runs'))}, ${messageContentUnnest(ACCEPT_PARAMS.first('messages'))}) AS x(${columnNames(RUN_ARRAY_COLUMNS)}, ${messageContentNames()})
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
), webhooks AS (
  -- The outbound events of the runs: a failed step; a notification with nothing left to run, complete.
  ${inlineRunEvents(`SELECT n.id AS notification_id, n.environment_id, acc.transaction_id, r.subscriber_id, acc.message_workflow->>'identifier' AS workflow_id,
      ran.inline_job_id AS job_id, ran.inline_step_id AS step_id, ran.inline_step_type AS step_type, ran.inline_status AS status,
      ran.inline_provider_id AS provider_id, ran.inline_details AS details, n.halted OR NOT acc.steps_after_inline AS done
    FROM written n JOIN acc ON acc.event_id = n.event_id JOIN ran ON ran.notification_id = n.id
    JOIN recipients r ON r.event_id = n.event_id AND r.id = n.subscriber_id`)}
), touched AS (
  UPDATE workflows SET last_triggered_at = now()
  WHERE id IN (SELECT workflow_id FROM acc) AND (last_triggered_at IS NULL OR last_triggered_at < now() - interval '1 second')
)
SELECT acc.idx, acc.event_id, count(n.id)::int AS notifications,
       COALESCE(array_agg(n.id) FILTER (WHERE NOT n.ran OR (NOT n.halted AND acc.steps_after_inline)), '{}') AS queued_ids,
       COALESCE(array_agg(n.id) FILTER (WHERE n.ran), '{}') AS inline_ids
FROM acc LEFT JOIN written n ON n.event_id = acc.event_id
GROUP BY acc.idx, acc.event_id`;

const acceptStatement = prepared('herald-accept-triggers', acceptStatementText({ channels: false }));
const acceptWithChannelsStatement = prepared('herald-accept-triggers-channels', acceptStatementText({ channels: true }));

/** The accept statement for these parameters (`acceptParams`): with the channels merge if an object it may apply sets channels. */
export function acceptStatementFor(params: unknown[], objectsSetChannels: boolean) {
  return objectsSetChannels ? acceptWithChannelsStatement(params) : acceptStatement(params);
}

/** A row of the accept statement: an accepted trigger (`idx`: its position in the batch). */
export interface AcceptedRow {
  idx: number;
  event_id: string;
  notifications: number;
  queued_ids: string[];
  inline_ids: string[];
}
