import { INBOX_STORED_DETAIL, type DeliveryStep, type DeliveryWorkflow, type JobOutcome, type MessageDraft, type RunnableJob, type Subscriber, type SubscriberPreferenceRecord } from '@herald/domain';
import type { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { columnParam } from './sql-params';

export interface StepRow {
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

/** A workflow_steps row (as JSON from SQL) as the engine runs it. */
export function toDeliveryStep(s: StepRow): DeliveryStep {
  return {
    id: s.id,
    stepId: s.step_id,
    name: s.name,
    type: s.type,
    active: s.active,
    position: s.position,
    controlValues: s.control_values ?? {},
    skip: s.skip ?? null,
    filters: s.filters ?? [],
  };
}

/** The columns every notification of a workflow shares, and the job template of its active steps. */
export function notificationShape(workflow: DeliveryWorkflow) {
  const active = workflow.steps.filter((s) => s.active);
  return {
    channels: [...new Set(active.map((s) => s.type))],
    steps: active.map((s, ord) => ({ id: s.id, step_id: s.stepId, type: s.type, position: s.position, ord })),
  };
}

/**
 * The job template of the steps still to run after one run inline (`inlineStepId`; none: all of
 * them), numbered from the next.
 */
export function stepsAfter(shape: ReturnType<typeof notificationShape>, inlineStepId: string | undefined) {
  return shape.steps.filter((s) => s.id !== inlineStepId).map((s, ord) => ({ ...s, ord }));
}

type Columns = ReadonlyArray<readonly [name: string, type: string, ...rest: unknown[]]>;
/** Columns as a record definition's list (`AS x(name type, ...)`). */
const columnTypes = (columns: Columns) => columns.map(([name, type]) => `${name} ${type}`).join(', ');
/** Columns as the arguments of a multi-array `unnest`, one array parameter each from `$first` on. */
export const unnestArrays = (columns: Columns, first: number) => columns.map(([, type], i) => `$${first + i}::${type}[]`).join(', ');
/** Columns' names, as a record's (`AS r(...)`); with `alias`, as that relation's. */
export const columnNames = (columns: Columns, alias?: string) => columns.map(([name]) => (alias ? `${alias}.${name}` : name)).join(', ');

// A message's columns of its trigger (environment, transaction, workflow snapshot, context): the same
// for every message of one event, and its own columns.
const MESSAGE_TRIGGER_COLUMNS = 'environment_id uuid, transaction_id text, tags text[], workflow jsonb, severity text, context_keys text[]';
// Which notification, job and subscriber a message is of, and what it holds.
const KEYS = [
  ['notification_id', 'uuid'],
  ['job_id', 'uuid'],
  ['subscriber_id', 'uuid'],
] as const;
const CONTENT = [
  ['channel', 'text', (m: MessageDraft) => m.channel],
  ['provider_id', 'text', (m: MessageDraft) => m.providerId],
  ['integration_id', 'uuid', (m: MessageDraft) => m.integrationId],
  ['destination', 'jsonb', (m: MessageDraft) => m.destination],
  ['subject', 'text', (m: MessageDraft) => m.subject],
  ['body', 'text', (m: MessageDraft) => m.body],
  ['avatar', 'text', (m: MessageDraft) => m.avatar],
  ['primary_action', 'jsonb', (m: MessageDraft) => m.primaryAction],
  ['secondary_action', 'jsonb', (m: MessageDraft) => m.secondaryAction],
  ['redirect', 'jsonb', (m: MessageDraft) => m.redirect],
  ['data', 'jsonb', (m: MessageDraft) => m.data],
  ['status', 'text', (m: MessageDraft) => m.status],
  ['provider_message_id', 'text', (m: MessageDraft) => m.providerMessageId],
] as const;
const OWN_COLUMNS = columnTypes([...KEYS, ...CONTENT]);
/** How many content columns a message has (`messageContentArrays`: one array parameter each). */
export const MESSAGE_CONTENT_COUNT = CONTENT.length;
/** The content columns of a message (`messageContentArrays`), as a record's (`AS r(..., <these>)`); with `alias`, as that relation's. */
export const messageContentNames = (alias?: string) => columnNames(CONTENT, alias);
/** The content columns' arrays (`messageContentArrays`) as arguments of a multi-array `unnest`, from `$first` on. */
export const messageContentUnnest = (first: number) => unnestArrays(CONTENT, first);

/** Where `insertMessages` reads its rows: a JSON array, or messages as column arrays. */
export type MessageSource =
  /** `param`: a JSON array of `messageRows`. */
  | { json: string }
  /**
   * Messages of one trigger, as the relation `messages` (a subquery of the statement) gives them with
   * the columns of `KEYS` and `CONTENT` (the steps run inline read them from their runs' rows, which
   * already hold the three ids: `messageContentArrays`), and the trigger's columns once, as a JSON
   * object of `messageTriggerColumns` in `trigger`.
   */
  | { messages: string; trigger: string }
  /**
   * Messages of several triggers, from the relation `messages` as above, and each one's trigger
   * columns (those of `messageTriggerColumns`) from the relation `triggers`, by its `notification_id`. A
   * message without a row there is not inserted.
   */
  | { messages: string; triggers: string };

/**
 * Inserts the messages of `source` whose `where` holds (over `r`): an in-app message is in the
 * inbox from this insert on, an outbound one records its send. A message whose job already has one is
 * skipped (`ON CONFLICT`), unless `newJobs`: the jobs are the inline steps of notifications this
 * same statement writes, their ids chosen for it, so none can have a message yet. The conflict check
 * is then left out: it probed the job-id index once more per message and logged one more WAL record
 * (the insert's confirmation) for each.
 */
export function insertMessages(source: MessageSource, where: string, newJobs = false): string {
  const t = 'json' in source ? 'r' : 't';
  const from =
    'json' in source
      ? `jsonb_to_recordset(${source.json}::jsonb) AS r(${OWN_COLUMNS}, ${MESSAGE_TRIGGER_COLUMNS})`
      : 'trigger' in source
        ? `(${source.messages}) r
    CROSS JOIN jsonb_to_record(${source.trigger}::jsonb) AS t(${MESSAGE_TRIGGER_COLUMNS})`
        : `(${source.messages}) r
    JOIN (${source.triggers}) t ON t.notification_id = r.notification_id`;
  return `INSERT INTO messages (environment_id, notification_id, job_id, subscriber_id, transaction_id, channel, provider_id, integration_id, destination,
    subject, body, avatar, primary_action, secondary_action, redirect, data, tags, workflow, severity, context_keys, status, provider_message_id, delivered_at)
  SELECT ${t}.environment_id, r.notification_id, r.job_id, r.subscriber_id, ${t}.transaction_id, r.channel, r.provider_id, r.integration_id, r.destination,
    r.subject, r.body, r.avatar, r.primary_action, r.secondary_action, r.redirect, r.data, ${t}.tags, ${t}.workflow, ${t}.severity, ${t}.context_keys, r.status,
    r.provider_message_id, CASE WHEN r.status = 'sent' THEN ARRAY[now()] ELSE '{}' END
  FROM ${from}
  WHERE ${where}${newJobs ? '' : '\n  ON CONFLICT (job_id) DO NOTHING'}`;
}

/**
 * The rows `insertMessages` writes for the messages these step runs produced. Absent values are left
 * out of the JSON (a missing key reads as NULL, as a JSON null does): most of an in-app message's are.
 */
export function messageRows(outcomes: readonly JobOutcome[]) {
  return outcomes.flatMap((o) => (o.message ? [Object.assign(ownColumns(o, o.message), messageTriggerColumns(o.job))] : []));
}

/**
 * The content columns (`CONTENT`) of these messages, one array each (NULL for a column none of them
 * has: `columnParam`); an absent message is a row of NULLs. Steps run inline give one per run, in the
 * order of their runs' rows (a fan-out chunk's recipients, a trigger batch's runs), so that each
 * message takes its notification, job and subscriber ids from that row instead of three more arrays
 * of them. An array parameter is parsed by PostgreSQL at about two thirds of the cost of the same
 * rows as JSON (a fan-out chunk's input, measured alone: see the fan-out statement in
 * sql-event-repository.ts).
 */
export function messageContentArrays(messages: ReadonlyArray<MessageDraft | undefined>): Array<Buffer | null> {
  return CONTENT.map(([, type, value]) => columnParam(messages.map((m) => (m ? value(m) : undefined)), type));
}

function ownColumns({ job }: JobOutcome, m: MessageDraft) {
  const row: Record<string, unknown> = { notification_id: job.notificationId, job_id: job.jobId, subscriber_id: job.subscriber.id };
  for (const [name, , value] of CONTENT) row[name] = value(m) ?? undefined;
  return row;
}

/** A message's columns of its trigger: of a job's, or of a fan-out's event (the same for every job of it). */
export function messageTriggerColumns(trigger: Pick<RunnableJob, 'environmentId' | 'transactionId' | 'workflow' | 'contextKeys'>) {
  const { workflow } = trigger;
  return {
    environment_id: trigger.environmentId,
    transaction_id: trigger.transactionId,
    tags: workflow.tags,
    workflow: messageWorkflow(workflow),
    severity: workflow.severity,
    context_keys: trigger.contextKeys,
  };
}

/** The workflow as a message keeps it (its `workflow` column). */
export function messageWorkflow(workflow: RunnableJob['workflow']) {
  return {
    id: workflow.id,
    identifier: workflow.identifier,
    name: workflow.name,
    critical: workflow.critical,
    tags: workflow.tags,
    data: workflow.data ?? undefined,
    severity: workflow.severity,
  };
}

/** A subscribers row (as JSON from SQL, snake_case) as the engine sees it, its channel credentials opened when read. */
export function subscriberFromJson(s: Record<string, any>, channels: ChannelCredentialCipher): Subscriber {
  const subscriber: Omit<Subscriber, 'channels'> = {
    id: s.id,
    environmentId: s.environment_id,
    subscriberId: s.subscriber_id,
    firstName: s.first_name,
    lastName: s.last_name,
    email: s.email,
    phone: s.phone,
    avatar: s.avatar,
    locale: s.locale,
    timezone: s.timezone,
    data: s.data,
    isOnline: s.is_online,
    lastOnlineAt: s.last_online_at ? new Date(s.last_online_at) : null,
    version: s.version,
    deleted: s.deleted,
    createdAt: new Date(s.created_at),
    updatedAt: new Date(s.updated_at),
  };
  return channels.attach(subscriber, s.channels, s.subscriber_id);
}

type PreferenceRow = { workflow_id: string | null; enabled: boolean | null; channels: SubscriberPreferenceRecord['channels'] };

/**
 * SQL: the preference rows a step needs of subscriber (internal id) `subscriber` for workflow
 * `workflow` (its global row and the workflow's), as a JSON array in the rows' order (NULL: none), for
 * `preferenceLevels`. Ordered, two reads of unchanged rows give equal values, which `=` can compare.
 */
export const stepPreferences = (subscriber: string, workflow: string) =>
  `(SELECT jsonb_agg(jsonb_build_object('workflow_id', p.workflow_id, 'enabled', p.enabled, 'channels', p.channels) ORDER BY p.id)
   FROM subscriber_preferences p WHERE p.subscriber_id = ${subscriber} AND (p.workflow_id IS NULL OR p.workflow_id = ${workflow}))`;

/** A subscriber's global and per-workflow preference rows (aggregated as JSON by SQL) as two levels. */
export function preferenceLevels(rows: PreferenceRow[] | null): RunnableJob['preferences'] {
  const global = rows?.find((r) => r.workflow_id === null);
  const perWorkflow = rows?.find((r) => r.workflow_id !== null);
  const level = (r: PreferenceRow | undefined) => (r ? { enabled: r.enabled, channels: r.channels ?? {} } : null);
  return { global: level(global), perWorkflow: level(perWorkflow) };
}

// A step run inline, as its notification keeps it: the notifications.inline_* columns. The step's
// own (the same for every recipient of a fan-out chunk) and the run's.
const INLINE_STEP = [
  ['inline_workflow_step_id', 'uuid'],
  ['inline_step_id', 'text'],
  ['inline_step_type', 'text'],
  ['inline_position', 'int'],
] as const;
const INLINE = [['inline_job_id', 'uuid'], ...INLINE_STEP, ['inline_status', 'text'], ['inline_provider_id', 'text'], ['inline_details', 'jsonb']] as const;
/** The inline_* column names; with `alias`, as that relation's. */
export const inlineColumnNames = (alias?: string) => columnNames(INLINE, alias);
/** The step's inline_* column names (`inlineStepColumns`), as `alias`'s. */
export const inlineStepColumnNames = (alias: string) => columnNames(INLINE_STEP, alias);
/** The step's inline_* columns (`inlineStepColumns`) with their types. */
export const INLINE_STEP_COLUMN_TYPES = columnTypes(INLINE_STEP);

/** The inline_* columns of the step run inline. */
export function inlineStepColumns(step: DeliveryStep) {
  return { inline_workflow_step_id: step.id, inline_step_id: step.stepId, inline_step_type: step.type, inline_position: step.position };
}

/**
 * The inline_* columns of the run itself. Its details are left out when they are the one detail of
 * a message stored in the subscriber's inbox, which the activity log derives: what a fan-out writes
 * for nearly every recipient. Absent values are left out (they read as NULL).
 */
export function inlineRunColumns(o: JobOutcome) {
  return {
    inline_job_id: o.job.jobId,
    inline_status: o.status,
    inline_provider_id: o.providerId ?? undefined,
    inline_details: storedInInbox(o)
      ? undefined
      : o.details.map((d) => ({ status: d.status, source: d.source, detail: d.detail, providerId: d.providerId ?? undefined, raw: d.raw ?? undefined })),
  };
}

/** Whether the step's one detail is the one `InAppStepHandler` gives a message it stored, as the activity log derives it. */
function storedInInbox(o: JobOutcome): boolean {
  if (o.details.length !== 1) return false;
  const [d] = o.details;
  return (
    d.status === 'Success' &&
    d.source === 'Internal' &&
    d.detail === INBOX_STORED_DETAIL + o.job.subscriber.subscriberId &&
    (d.providerId ?? null) === (o.providerId ?? null) &&
    !d.raw
  );
}
