import { wholeRange, type DeliveryStep, type DeliveryWorkflow, type TriggerAcceptance } from '@herald/domain';
import { inlineRunColumns, inlineStepColumns, MESSAGE_CONTENT_COUNT, messageContentArrays, messageWorkflow, notificationShape, stepsAfter } from '../delivery-rows';
import { ParamLayout } from '../param-layout';
import { arrayParam, columnParam, jsonParam, textArrayLiteral, type ArrayElementType } from '../sql-params';
import type { InlineRun } from './inline-run';
import type { PendingTrigger } from './pending-trigger';
import { runKey } from './run-checks';

// The accept statement's input comes as arrays, one per column, sent in PostgreSQL's binary format
// (`arrayParam`): PostgreSQL reads them faster than the same rows as JSON documents (about a fifth
// less of its CPU per trigger). Only what a workflow definition gives each of its triggers comes as
// a small JSON array (`definitions`), once per definition.

/** Per trigger, one array each, by position in the batch (`idx`). */
export const TRIGGER_ARRAY_COLUMNS = [
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
  // Which of `definitions` the trigger's workflow is.
  ['def', 'int'],
] as const;

/** Per recipient whose step ran inline, one array each, then its message's content (`messages`). */
export const RUN_ARRAY_COLUMNS = [
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

/** The accept statement's parameters, in order. */
export const ACCEPT_PARAMS = new ParamLayout({
  triggers: TRIGGER_ARRAY_COLUMNS.length,
  /** Per workflow definition of the batch: its columns, job template and inline step (JSON). */
  definitions: 1,
  /** The subscribers the triggers name by id: the trigger (`idx`) and the subscriberId, one array each. */
  namedTriggers: 1,
  namedSubscriberIds: 1,
  runs: RUN_ARRAY_COLUMNS.length,
  /** `ObjectIfMissing`s and `ObjectIfChanged`s (JSON). */
  objectsIfMissing: 1,
  objectsIfChanged: 1,
  messages: MESSAGE_CONTENT_COUNT,
});

type Columns = ReadonlyArray<readonly [name: string, type: ArrayElementType]>;

/** Arrays given by column name, in the columns' order. */
function inColumnOrder<C extends Columns>(columns: C, arrays: { [K in C[number][0]]: Buffer | null }): (Buffer | null)[] {
  return columns.map(([name]) => arrays[name as C[number][0]]);
}

/**
 * The accept statement's parameters for a batch whose inline run gave `run`. Triggers given the
 * same workflow object (the cached read) share a definition: its columns, job template and inline
 * step go once.
 */
export function acceptParams(batch: Pick<PendingTrigger, 'acceptance' | 'eventId'>[], run: Pick<InlineRun, 'outcomes' | 'checks' | 'ifMissing' | 'ifChanged'>): unknown[] {
  const { outcomes, checks } = run;
  const definitions = new Map<DeliveryWorkflow, { def: number; inlineStep?: DeliveryStep }>();
  const defs = batch.map(({ acceptance: a }, idx) => {
    let definition = definitions.get(a.workflow);
    if (!definition) definitions.set(a.workflow, (definition = { def: definitions.size }));
    // Every trigger of a definition runs the same step inline: its first active one (`inlineRunner`).
    definition.inlineStep ??= outcomes.get(idx)?.[0]?.job.step;
    return definition.def;
  });
  const column = (value: (a: TriggerAcceptance, eventId: string) => unknown, type: ArrayElementType) =>
    columnParam(batch.map((p) => value(p.acceptance, p.eventId)), type);
  const textArray = (list: readonly string[]) => (list.length ? textArrayLiteral(list) : null);
  const runs = [...outcomes].flatMap(([idx, list]) => list.map((o) => ({ idx, o, run: inlineRunColumns(o), seen: checks.get(runKey(idx, o.job.subscriber.id)) })));
  const named = batch.flatMap(({ acceptance: a }, idx) => a.recipients.subscriberIds.map((sid) => ({ idx, sid })));
  return ACCEPT_PARAMS.values({
    triggers: inColumnOrder(TRIGGER_ARRAY_COLUMNS, {
      id: column((_, eventId) => eventId, 'uuid'),
      environment_id: column((a) => a.environmentId, 'uuid'),
      workflow_id: column((a) => a.workflow.id, 'uuid'),
      transaction_id: column((a) => a.transactionId, 'text'),
      payload: column((a) => a.payload, 'jsonb'),
      overrides: column((a) => a.overrides, 'jsonb'),
      '"to"': column((a) => a.to, 'jsonb'),
      actor: column((a) => a.actor, 'jsonb'),
      tenant: column((a) => a.tenant, 'jsonb'),
      context_keys: column((a) => textArray(a.contextKeys), 'text'),
      fanout_cursor: column(
        (a) => (a.recipients.topics.length ? { topics: a.recipients.topics, lanes: wholeRange(), direct: a.recipients.subscriberIds.length > 0 } : null),
        'jsonb',
      ),
      topic_keys: column((a) => textArray([...new Set(a.recipients.topics.map((t) => t.topicKey))]), 'text'),
      trace_context: column((a) => a.traceContext, 'text'),
      def: arrayParam(defs, 'int'),
    }),
    definitions: jsonParam(
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
    namedTriggers: arrayParam(named.map((n) => n.idx), 'int'),
    namedSubscriberIds: arrayParam(named.map((n) => n.sid), 'text'),
    runs: inColumnOrder(RUN_ARRAY_COLUMNS, {
      idx: arrayParam(runs.map((r) => r.idx), 'int'),
      subscriber_id: arrayParam(runs.map((r) => r.o.job.subscriber.id), 'uuid'),
      notification_id: arrayParam(runs.map((r) => r.o.job.notificationId), 'uuid'),
      inline_job_id: arrayParam(runs.map((r) => r.run.inline_job_id), 'uuid'),
      inline_status: arrayParam(runs.map((r) => r.run.inline_status), 'text'),
      inline_provider_id: columnParam(runs.map((r) => r.run.inline_provider_id), 'text'),
      inline_details: columnParam(runs.map((r) => r.run.inline_details), 'jsonb'),
      halted: arrayParam(runs.map((r) => r.o.halt ?? false), 'boolean'),
      seen_version: columnParam(runs.map((r) => r.seen?.version), 'text'),
      seen_preferences: columnParam(runs.map((r) => r.seen?.preferences), 'jsonb'),
    }),
    objectsIfMissing: jsonParam(run.ifMissing),
    objectsIfChanged: jsonParam(run.ifChanged),
    messages: messageContentArrays(runs.map((r) => r.o.message)),
  });
}
