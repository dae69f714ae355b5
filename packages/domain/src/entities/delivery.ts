import type { SubscriberInput } from './subscriber';
import type { ChannelType, Severity, WorkflowStepType } from './channel';
import type { WorkflowPreferenceDefaults } from './preferences';
import type { WorkflowOrigin } from './workflow';
import type { StepFilter } from './step-filter';
import type { JsonLogicRule } from '../rules/json-logic';

export type JsonObject = Record<string, unknown>;

/** The statuses the trigger operation answers with (spec operation 20). */
export type TriggerStatus =
  | 'error'
  | 'trigger_not_active'
  | 'no_workflow_active_steps_defined'
  | 'no_workflow_steps_defined'
  | 'processed'
  | 'no_tenant_found'
  | 'invalid_recipients';

/** A job's life: queued -> running -> completed | skipped | failed, or delayed -> queued again; merged: its event joined a digest. */
export const JOB_STATUSES = ['pending', 'queued', 'running', 'delayed', 'completed', 'skipped', 'failed', 'canceled', 'merged'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export type DetailStatus = 'Success' | 'Warning' | 'Failed' | 'Pending' | 'Queued' | 'ReadConfirmation';
export type DetailSource = 'Credentials' | 'Internal' | 'Payload' | 'Webhook';

/** One decision of the engine, recorded as an execution detail a person can read. */
export interface ExecutionDetailDraft {
  status: DetailStatus;
  source: DetailSource;
  detail: string;
  providerId?: string | null;
  raw?: string | null;
}

/** A step as the engine runs it. */
export interface DeliveryStep {
  id: string;
  stepId: string;
  name: string;
  type: WorkflowStepType;
  active: boolean;
  position: number;
  controlValues: JsonObject;
  skip: JsonLogicRule | null;
  filters: StepFilter[];
  /** The control values are content already rendered (a bridge's outputs): handlers use them as they are. */
  rendered?: boolean;
  /** What a bridge's code returned for each provider id (`providers.<providerId>`): overrides on top of the trigger's. */
  providers?: JsonObject;
}

/** A workflow as the trigger and the engine need it. */
export interface DeliveryWorkflow {
  id: string;
  identifier: string;
  name: string;
  active: boolean;
  critical: boolean;
  severity: Severity;
  /** external: synced from a bridge, whose code gives each step's content (BridgeStepRunner). */
  origin: WorkflowOrigin;
  tags: string[];
  data: JsonObject | null;
  payloadSchema: JsonObject | null;
  preferences: WorkflowPreferenceDefaults;
  steps: DeliveryStep[];
}

export interface TopicRecipient {
  topicKey: string;
  exclude: string[];
}

/** `to` of a trigger after normalisation. */
export interface Recipients {
  /** Subscribers named directly, by id, in order, without duplicates. */
  subscriberIds: string[];
  /** Subscriber objects to create or update before delivery. */
  upserts: SubscriberInput[];
  topics: TopicRecipient[];
}

/** Everything an accepted trigger commits at once (the outbox row and its first work). */
export interface TriggerAcceptance {
  environmentId: string;
  workflow: DeliveryWorkflow;
  transactionId: string;
  payload: JsonObject;
  overrides: JsonObject;
  to: unknown;
  actor: { subscriberId: string } | null;
  tenant: JsonObject | string | null;
  contextKeys: string[];
  recipients: Recipients;
  /** Subscriber objects in `to` and the actor object, created or updated in the same transaction. */
  upserts: SubscriberInput[];
  /** W3C traceparent of the trigger when it is traced, stored with the event so its delivery continues the trace; opaque here. */
  traceContext?: string | null;
}

/** A message a channel step produced, written beside its job. */
export interface MessageDraft {
  channel: ChannelType;
  providerId: string | null;
  integrationId: string | null;
  destination: unknown;
  subject: string | null;
  body: string;
  avatar?: string | null;
  primaryAction?: JsonObject | null;
  secondaryAction?: JsonObject | null;
  redirect?: JsonObject | null;
  data?: JsonObject | null;
  status: 'sent' | 'failed';
  providerMessageId?: string | null;
}

/** An in-app message as a later step of its workflow sees it (a bridge's `state` of an in-app step). */
export interface InAppMessageState {
  seen: boolean;
  read: boolean;
  /** When the subscriber first saw it: the only time of seeing Herald keeps. */
  lastSeenDate: Date | null;
  lastReadDate: Date | null;
}

/** What running one step produced: its status, execution details, and a message or an output. */
export interface StepResult {
  /** `delayed`: the step is not finished; its job runs again at `rerunAt` (retries, open digests). */
  status: Extract<JobStatus, 'completed' | 'skipped' | 'failed' | 'delayed' | 'merged'>;
  details: ExecutionDetailDraft[];
  providerId?: string | null;
  message?: MessageDraft;
  output?: JsonObject;
  /** When the next step may run (delay steps); now when absent. */
  nextRunAt?: Date;
  /**
   * With status `delayed`: when this same step runs again (its attempt number goes up by one). The
   * notification's later steps wait; the job survives restarts like any scheduled job.
   */
  rerunAt?: Date;
  /** Cancels the notification's remaining steps. */
  halt?: boolean;
  /** Kept with the job for its next run (a channel step's retry and failover progress). */
  deliveryState?: JsonObject;
  /**
   * A delay's or digest's timing as the activity shows it (the job's DigestMetadata: type, amount,
   * unit, digestKey, timed), from its controls or its bridge's outputs; the job keeps the last given.
   */
  digest?: JsonObject;
  /** Times this run moved a delay's or digest's due time to the subscriber's schedule (added to scheduleExtensionsCount). */
  scheduleExtensions?: number;
}
